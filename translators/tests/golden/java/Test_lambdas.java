package thalia.lambdas;

public final class Test_lambdas {
    public static void test() throws Throwable {
        java.util.function.Function<java.lang.String, java.lang.Integer> len = (s) -> s.length();
        java.util.function.BiFunction<java.lang.Integer, java.lang.Integer, java.lang.Integer> add = (java.lang.Integer a, java.lang.Integer b) -> java.lang.Integer.sum(a, b);
        java.lang.Runnable run = () -> java.lang.System.gc();
        java.util.function.Supplier<java.util.List<java.lang.String>> sup = () -> new java.util.ArrayList<>();
        java.util.Optional<java.lang.Integer> mapped = java.util.Optional.of("x").map((s) -> s.length());
        java.util.function.Function<java.lang.Integer, java.util.function.Function<java.lang.Integer, java.lang.Integer>> curried = (x) -> (y) -> (java.util.Objects.equals(x, y) ? x : y);
    }
}
