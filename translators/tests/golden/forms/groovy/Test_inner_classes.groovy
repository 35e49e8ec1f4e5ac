package thalia.inner_classes

@groovy.transform.CompileStatic
final class Test_inner_classes {
    static void test() {
        javax.swing.text.html.HTMLDocument doc = new javax.swing.text.html.HTMLDocument();
        javax.swing.text.html.HTMLDocument.HTMLReader reader = doc.new javax.swing.text.html.HTMLDocument.HTMLReader(0);
        javax.swing.text.html.HTMLDocument.HTMLReader.TagAction action = reader.new javax.swing.text.html.HTMLDocument.HTMLReader.TagAction();
        javax.swing.text.html.HTMLDocument.HTMLReader fresh = new javax.swing.text.html.HTMLDocument().new javax.swing.text.html.HTMLDocument.HTMLReader(0);
    }
}
