package thalia.void_lambdas;

public final class Test_void_lambdas {
    public static void test() throws Throwable {
        java.util.function.Consumer<java.lang.String> ignore = (s) -> {};
        java.util.ArrayList<java.lang.String> names = new java.util.ArrayList<>();
        names.forEach((n) -> {});
        names.forEach(ignore);
        java.util.function.BiConsumer<java.lang.String, java.lang.Integer> both = (java.lang.String k, java.lang.Integer v) -> {};
        java.lang.Runnable noop = () -> {};
    }
}
