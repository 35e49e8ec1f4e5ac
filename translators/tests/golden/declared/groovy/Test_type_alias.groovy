package thalia.type_alias

@groovy.transform.CompileStatic
final class Test_type_alias {
    static void test() {
        java.util.HashMap<java.lang.String, java.lang.Integer> m = new java.util.HashMap<java.lang.String, java.lang.Integer>();
        java.util.HashMap<java.lang.Integer, java.lang.String> n = new java.util.HashMap<>();
        java.lang.StringBuilder b = new java.lang.StringBuilder();
        java.lang.StringBuilder o = null;
        java.util.Comparator<java.lang.String> c = new java.util.Comparator<java.lang.String>() { public int compare(java.lang.String x, java.lang.String y) { return 3; } };
        java.util.List<? extends java.lang.Number> w = java.util.Collections.emptyList();
    }
}
