package thalia.arrow_lambdas

@groovy.transform.CompileStatic
final class Test_arrow_lambdas {
    static void test() {
        java.util.function.Function<java.lang.String, java.lang.Integer> count = (x) -> { java.lang.String t = x.trim(); def u = t.toUpperCase(); return u.length(); };
        java.util.function.BiFunction<java.lang.String, java.lang.String, java.lang.Boolean> same = (java.lang.String a, java.lang.String b) -> { boolean e = a.equals(b); return e; };
        java.util.function.Consumer<java.util.List<java.lang.String>> fill = (l) -> { java.lang.String first = 'x'; l.add(first); };
        java.util.function.Consumer<java.util.List<java.lang.String>> clear = (l) -> { int n = l.size(); l.clear(); };
        java.util.function.Supplier<java.lang.Integer> one = () -> { int k = 1; return k; };
        java.util.Optional<java.lang.Integer> mapped = java.util.Optional.of('a').map((y) -> { java.lang.String z = y.trim(); return z.length(); });
        java.lang.Object held = ((java.util.function.Function<java.lang.String, java.lang.Integer>) (w) -> w.length());
    }
}
