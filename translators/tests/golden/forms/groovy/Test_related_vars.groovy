package thalia.related_vars

@groovy.transform.CompileStatic
final class Test_related_vars {
    static <K extends java.lang.Comparable<K>, V extends java.util.List<K>> void test() {
        K k = ((K) null);
        V v = ((V) null);
        K first = v.get(0);
        int c = k.compareTo(first);
        K max = java.util.Collections.<K>max(v);
    }
}
