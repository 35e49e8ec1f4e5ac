package thalia.inferred_locals

@groovy.transform.CompileStatic
final class Test_inferred_locals {
    static void test() {
        def n = java.lang.Integer.valueOf(1);
        def l = new java.util.ArrayList<java.lang.String>();
        l.add('a');
        def size = l.size();
        def a = new int[] {1};
        def f = ((java.util.function.Function<java.lang.String, java.lang.Integer>) java.lang.Integer::parseInt);
        java.lang.Integer r = f.apply('2');
    }
}
