package thalia.anonymous_mapped

@groovy.transform.CompileStatic
final class Test_anonymous_mapped {
    static void test() {
        java.util.Collection<java.lang.String> l = new java.util.AbstractList<java.lang.String>() { public java.lang.String get(int i) { return 'g'; }; public int size() { return 0; } };
        java.lang.Number n = new java.lang.Number() { public int intValue() { return 1; }; public long longValue() { return 2; }; public float floatValue() { return 3.0f; }; public double doubleValue() { return 4.0d; }; public byte byteValue() { return 5; }; public short shortValue() { return 6; } };
        java.lang.CharSequence c = new java.lang.CharSequence() { public int length() { return 0; }; public char charAt(int i) { return ('a' as char); }; public java.lang.CharSequence subSequence(int a, int b) { return 's'; } };
        java.util.Iterator<java.lang.String> it = new java.util.Iterator<java.lang.String>() { public boolean hasNext() { return false; }; public java.lang.String next() { return 'x'; }; public void remove() {} };
        java.util.Map.Entry<java.lang.String, java.lang.Integer> e = new java.util.Map.Entry<java.lang.String, java.lang.Integer>() { public java.lang.String getKey() { return 'k'; }; public java.lang.Integer getValue() { return 1; }; public java.lang.Integer setValue(java.lang.Integer v) { return v; } };
    }
}
