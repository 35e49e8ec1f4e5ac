// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.varargs

@groovy.transform.CompileStatic
final class Test_varargs {
    static void test() {
        java.util.List<java.lang.String> abc = java.util.Arrays.asList('a', 'b', 'c');
        java.lang.String s = java.lang.String.format('%s-%d-%c', 'x', 1, ('c' as char));
        java.util.EnumSet<java.util.concurrent.TimeUnit> units = java.util.EnumSet.of(java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MINUTES, java.util.concurrent.TimeUnit.HOURS);
        java.util.Collections.addAll(new java.util.ArrayList<java.lang.String>(), 'd', 'e');
        java.util.List<java.lang.String> none = java.util.Arrays.<java.lang.String>asList();
        java.lang.String[] strs = new java.lang.String[] {'a', 'b'};
        java.util.List<java.lang.String> spread = java.util.Arrays.asList(strs);
        java.lang.String joined = java.lang.String.join(',', strs);
        java.util.stream.IntStream ints = java.util.stream.IntStream.of(new int[] {1, 2});
    }
}
