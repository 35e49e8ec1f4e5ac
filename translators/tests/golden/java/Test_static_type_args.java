package thalia.static_type_args;

public final class Test_static_type_args {
    public static void test() throws Throwable {
        java.util.List<java.lang.String> empty = java.util.Collections.<java.lang.String>emptyList();
        java.util.Map<java.lang.String, java.lang.Integer> map = java.util.Collections.<java.lang.String, java.lang.Integer>emptyMap();
        java.util.stream.Stream<java.lang.Integer> lens = empty.stream().<java.lang.Integer>map((s) -> s.length());
    }
}
