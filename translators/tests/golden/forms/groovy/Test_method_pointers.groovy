package thalia.method_pointers

@groovy.transform.CompileStatic
final class Test_method_pointers {
    static void test() {
        java.util.function.Function<java.lang.String, java.lang.Integer> parse = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer.&parseInt);
        java.util.function.Supplier<java.lang.String> trimmed = ((java.util.function.Supplier<java.lang.String>) ' x '.&trim);
        java.util.Optional<java.lang.Integer> mapped = java.util.Optional.of('1').map(java.lang.Integer.&parseInt);
        def g = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer.&parseInt);
        def h = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt);
    }
}
