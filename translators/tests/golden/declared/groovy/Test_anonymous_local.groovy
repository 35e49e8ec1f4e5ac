package thalia.anonymous_local

@groovy.transform.CompileStatic
final class Test_anonymous_local {
    static void test() {
        java.util.Comparator<java.lang.String> c = new java.util.Comparator<java.lang.String>() { public int compare(java.lang.String a, java.lang.String b) { return 0; } };
        java.util.function.Function<java.lang.String, java.lang.String> f = new java.util.function.Function<java.lang.String, java.lang.String>() { public java.lang.String apply(java.lang.String s) { return s; } };
        java.util.function.Function<java.lang.String, java.lang.Integer> g = new java.util.function.Function<java.lang.String, java.lang.Integer>() { public java.lang.Integer apply(java.lang.String s) { return 7; } };
        java.lang.Runnable r = new java.lang.Runnable() { public void run() {} };
        java.util.function.Supplier<java.util.Comparator<java.lang.String>> s = new java.util.function.Supplier<java.util.Comparator<java.lang.String>>() { public java.util.Comparator<java.lang.String> get() { return new java.util.Comparator<java.lang.String>() { public int compare(java.lang.String x, java.lang.String y) { return 1; } }; } };
    }
}
