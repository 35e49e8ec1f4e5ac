package thalia.inner_classes;

public final class Test_inner_classes {
    public static void test() throws Throwable {
        javax.swing.text.html.HTMLDocument doc = new javax.swing.text.html.HTMLDocument();
        javax.swing.text.html.HTMLDocument.HTMLReader reader = doc.new HTMLReader(0);
        javax.swing.text.html.HTMLDocument.HTMLReader.TagAction action = reader.new TagAction();
        javax.swing.text.html.HTMLDocument.HTMLReader fresh = new javax.swing.text.html.HTMLDocument().new HTMLReader(0);
    }
}
