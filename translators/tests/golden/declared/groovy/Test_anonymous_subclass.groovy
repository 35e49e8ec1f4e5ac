package thalia.anonymous_subclass

@groovy.transform.CompileStatic
final class Test_anonymous_subclass {
    static void test() {
        java.io.InputStream s = new java.io.InputStream() { public int read() { return (-1); } };
        java.lang.ClassValue<java.lang.String> v = new java.lang.ClassValue<java.lang.String>() { public java.lang.String computeValue(java.lang.Class<?> c) { return 'v'; } };
        java.io.FilterReader r = new java.io.FilterReader(new java.io.StringReader('text')) {  };
        java.util.Enumeration<java.lang.String> e = new java.util.Enumeration<java.lang.String>() { public boolean hasMoreElements() { return false; }; public java.lang.String nextElement() { return 'n'; } };
    }
}
