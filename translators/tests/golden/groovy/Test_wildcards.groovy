// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.wildcards

@groovy.transform.CompileStatic
final class Test_wildcards {
    static void test() {
        java.util.List<? extends java.lang.Number> nums = java.util.List.of(1, 2L);
        java.util.List<? super java.lang.Integer> sink = new java.util.ArrayList<java.lang.Number>();
        sink.add(3);
        java.util.Map<?, ?> any = java.util.Collections.<java.lang.String, java.lang.Number>emptyMap();
        java.lang.Class<? extends java.lang.Object> c = nums.getClass();
        java.lang.Comparable<? extends java.lang.String> cmp = 'x';
        java.lang.Iterable<? super java.lang.Integer> iter = sink;
    }
}
