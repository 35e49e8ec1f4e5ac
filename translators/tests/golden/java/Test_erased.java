package thalia.erased;

public final class Test_erased {
    public static void test() throws Throwable {
        java.util.List<java.lang.String> empty = java.util.Collections.emptyList();
        java.util.Optional<java.lang.Number> opt = java.util.Optional.of(1);
        java.util.Comparator<java.lang.String> cmp = java.util.Comparator.naturalOrder();
    }
}
