package thalia.refs

@groovy.transform.CompileStatic
final class Test_refs {
    static void test() {
        java.util.function.Function<java.lang.String, java.lang.Integer> parse = java.lang.Integer::parseInt;
        java.lang.String s = 'abc';
        java.util.function.Supplier<java.lang.Integer> len = s::length;
        java.util.function.Supplier<java.lang.String> trimmed = ' x '::trim;
        java.util.function.Supplier<java.lang.String> upper = s.trim()::toUpperCase;
        java.util.function.Supplier<java.lang.String> shown = ((java.lang.Object) s)::toString;
        java.util.function.ToIntFunction<java.lang.String> length = java.lang.String::length;
        java.util.function.Function<java.util.List<java.lang.String>, java.lang.Integer> size = java.util.List::size;
        java.util.function.Supplier<java.util.List<java.lang.String>> make = java.util.ArrayList::new;
        java.util.function.IntFunction<java.lang.String[]> strings = java.lang.String[]::new;
        java.util.function.IntFunction<java.util.List<java.lang.String>[]> lists = java.util.List[]::new;
        java.util.Optional<java.lang.Integer> mapped = java.util.Optional.of('a').map(java.lang.String::length);
        java.util.function.Function<java.lang.String, java.lang.Integer> checked = java.util.Objects.requireNonNull(((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt));
        java.lang.Object held = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt);
        java.lang.Object cast = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt);
        java.lang.Integer applied = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt).apply('1');
    }
}
