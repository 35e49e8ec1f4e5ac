// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.generics

@groovy.transform.CompileStatic
final class Test_generics {
    static void test() {
        java.util.Map<java.lang.String, java.util.List<java.lang.Integer>> m = new java.util.HashMap<>();
        java.util.List<java.lang.Integer> l = new java.util.ArrayList<java.lang.Integer>();
        m.put('a', l);
        java.util.List<java.lang.Integer> got = m.get('a');
        java.util.Optional<java.lang.Integer> boxed = java.util.Optional.empty();
        java.util.Iterator<java.lang.Integer> it = l.iterator();
        java.lang.Comparable<java.lang.String> cmp = 'x';
    }
}
