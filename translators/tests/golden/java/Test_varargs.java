package thalia.varargs;

public final class Test_varargs {
    public static void test() throws Throwable {
        java.util.List<java.lang.String> abc = java.util.Arrays.asList("a", "b", "c");
        java.lang.String s = java.lang.String.format("%s-%d-%c", "x", 1, 'c');
        java.util.EnumSet<java.util.concurrent.TimeUnit> units = java.util.EnumSet.of(java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MINUTES, java.util.concurrent.TimeUnit.HOURS, java.util.concurrent.TimeUnit.DAYS);
        java.util.Collections.addAll(new java.util.ArrayList<java.lang.String>(), "d", "e");
        java.util.List<java.lang.String> none = java.util.Arrays.<java.lang.String>asList();
    }
}
