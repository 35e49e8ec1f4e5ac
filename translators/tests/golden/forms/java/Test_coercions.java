package thalia.coercions;

public final class Test_coercions {
    public static void test() throws Throwable {
        java.util.function.Function<java.lang.String, java.lang.Integer> f = ((java.util.function.Function<java.lang.String, java.lang.Integer>) (java.lang.String s) -> s.length());
        java.util.function.Function<java.lang.String, java.lang.Integer> g = ((java.util.function.Function<java.lang.String, java.lang.Integer>) (java.lang.String s) -> s.length());
        java.lang.CharSequence c = ((java.lang.CharSequence) "a");
        java.util.Optional<java.lang.Integer> n = java.util.Optional.of("ab").map(((java.util.function.Function<java.lang.String, java.lang.Integer>) (java.lang.String s) -> s.length()));
        int k = java.util.Objects.hashCode(((java.lang.CharSequence) c));
    }
}
