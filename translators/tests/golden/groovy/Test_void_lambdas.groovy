// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.void_lambdas

@groovy.transform.CompileStatic
final class Test_void_lambdas {
    static void test() {
        java.util.function.Consumer<java.lang.String> ignore = { s -> };
        java.util.ArrayList<java.lang.String> names = new java.util.ArrayList<>();
        names.forEach(({ n -> }));
        names.forEach(ignore);
        java.util.function.BiConsumer<java.lang.String, java.lang.Integer> both = { java.lang.String k, java.lang.Integer v -> };
        java.lang.Runnable noop = { -> };
        java.util.function.Consumer<java.lang.String> add = { s -> names.add(s) };
    }
}
