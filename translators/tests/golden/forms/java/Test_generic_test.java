package thalia.generic_test;

public final class Test_generic_test {
    public static <T extends java.lang.CharSequence & java.lang.Comparable<T>, U> void test() throws Throwable {
        T t = ((T) null);
        int n = t.length();
        java.util.List<U> us = new java.util.ArrayList<>();
        java.util.function.Function<T, java.lang.Integer> len = (x) -> x.length();
        U first = java.util.Objects.<U>requireNonNull(((U) null));
    }
}
