// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.type_checked

@groovy.transform.TypeChecked
final class Test_type_checked {
    static void test() {
        java.util.List<java.lang.String> l = new java.util.ArrayList<>();
        l.add('x');
        java.util.function.Function<java.lang.String, java.lang.Integer> f = { s -> 1 };
    }
}
