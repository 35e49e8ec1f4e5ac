package thalia.java_refs;

public final class Test_java_refs {
    public static <T extends java.lang.CharSequence> void test() throws Throwable {
        java.util.function.Supplier<java.util.List<java.lang.String>> make = java.util.ArrayList<java.lang.String>::new;
        java.util.function.Function<java.lang.String, java.lang.Integer> pick = (true ? java.lang.Integer::parseInt : java.lang.String::length);
        java.util.function.Function<T, java.lang.Integer> tlen = T::length;
        java.util.function.IntFunction<java.util.List<T>[]> tlists = java.util.List[]::new;
    }
}
