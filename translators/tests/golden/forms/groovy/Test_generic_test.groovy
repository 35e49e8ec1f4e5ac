package thalia.generic_test

@groovy.transform.CompileStatic
final class Test_generic_test {
    static <T extends java.lang.CharSequence & java.lang.Comparable<T>, U> void test() {
        T t = ((T) null);
        int n = t.length();
        java.util.List<U> us = new java.util.ArrayList<>();
        java.util.function.Function<T, java.lang.Integer> len = { x -> x.length() };
        U first = java.util.Objects.<U>requireNonNull(((U) null));
    }
}
