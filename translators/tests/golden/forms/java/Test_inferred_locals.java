package thalia.inferred_locals;

public final class Test_inferred_locals {
    public static void test() throws Throwable {
        var n = java.lang.Integer.valueOf(1);
        var l = new java.util.ArrayList<java.lang.String>();
        l.add("a");
        var size = l.size();
        var a = new int[] {1};
        var f = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt);
        java.lang.Integer r = f.apply("2");
    }
}
