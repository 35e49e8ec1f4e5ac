// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.lambdas

@groovy.transform.CompileStatic
final class Test_lambdas {
    static void test() {
        java.util.function.Function<java.lang.String, java.lang.Integer> len = { s -> java.util.Objects.hashCode(s) };
        java.util.function.BiFunction<java.lang.Integer, java.lang.Integer, java.lang.Integer> add = { java.lang.Integer a, java.lang.Integer b -> java.lang.Integer.sum(a, b) };
        java.lang.Runnable run = { -> java.lang.System.gc() };
        java.util.function.Supplier<java.util.List<java.lang.String>> sup = { -> new java.util.ArrayList<>() };
        java.util.function.Predicate<? super java.lang.String> pred = { x -> java.util.Objects.isNull(x) };
        java.util.function.Function<?, java.lang.String> anyFn = { x -> java.lang.String.valueOf(((java.lang.Object) x)) };
        java.util.Optional<java.lang.Integer> mapped = java.util.Optional.of('x').map(({ java.lang.String s -> s.length() }));
        java.util.function.BinaryOperator<java.lang.Integer> picked = { x, y -> (java.util.Objects.equals(x, y) ? x : y) };
        java.util.Comparator<java.lang.String> cmp = { p, q -> 0 };
    }
}
