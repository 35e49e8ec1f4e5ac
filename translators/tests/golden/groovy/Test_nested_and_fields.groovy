// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.nested_and_fields

@groovy.transform.CompileStatic
final class Test_nested_and_fields {
    static void test() {
        java.util.Map.Entry<java.lang.String, java.lang.Integer> entry = new java.util.AbstractMap.SimpleEntry<>('k', 1);
        java.lang.String key = entry.getKey();
        java.lang.Thread.State state = java.lang.Thread.State.NEW;
        int max = java.lang.Integer.MAX_VALUE;
        java.awt.Point point = new java.awt.Point(1, 2);
        int px = point.@x;
        java.lang.Object __unused_0 = point.@y;
        java.util.Map<java.lang.String, java.lang.Integer> small = java.util.Map.<java.lang.String, java.lang.Integer>of('a', 1);
        java.util.Set<? extends java.util.Map.Entry<java.lang.String, ? extends java.lang.Integer>> entries = small.entrySet();
        java.util.AbstractMap.SimpleImmutableEntry<java.lang.String, java.lang.String> simple = new java.util.AbstractMap.SimpleImmutableEntry<java.lang.String, java.lang.String>('a', 'b');
    }
}
