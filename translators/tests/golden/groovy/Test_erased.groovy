// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.erased

@groovy.transform.CompileStatic
final class Test_erased {
    static void test() {
        java.util.List<java.lang.String> empty = java.util.Collections.emptyList();
        java.util.Optional<java.lang.Integer> opt = java.util.Optional.of(1);
        java.util.Comparator<java.lang.String> cmp = java.util.Comparator.naturalOrder();
        java.util.Map<java.lang.String, java.util.List<java.lang.Integer>> pairs = new java.util.TreeMap<>();
    }
}
