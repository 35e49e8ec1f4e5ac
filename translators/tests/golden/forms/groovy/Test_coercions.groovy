package thalia.coercions

@groovy.transform.CompileStatic
final class Test_coercions {
    static void test() {
        java.util.function.Function<java.lang.String, java.lang.Integer> f = (({ java.lang.String s -> s.length() }) as java.util.function.Function<java.lang.String, java.lang.Integer>);
        java.util.function.Function<java.lang.String, java.lang.Integer> g = (((java.lang.String s) -> s.length()) as java.util.function.Function<java.lang.String, java.lang.Integer>);
        java.lang.CharSequence c = ('a' as java.lang.CharSequence);
        java.util.Optional<java.lang.Integer> n = java.util.Optional.of('ab').map((({ java.lang.String s -> s.length() }) as java.util.function.Function<java.lang.String, java.lang.Integer>));
        int k = java.util.Objects.hashCode((c as java.lang.CharSequence));
    }
}
