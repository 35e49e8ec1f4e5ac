package thalia.nested_and_fields;

public final class Test_nested_and_fields {
    public static void test() throws Throwable {
        java.util.Map.Entry<java.lang.String, java.lang.Integer> entry = new java.util.AbstractMap.SimpleEntry<>("k", 1);
        java.lang.String key = entry.getKey();
        java.lang.Thread.State state = java.lang.Thread.State.NEW;
        int max = java.lang.Integer.MAX_VALUE;
        java.awt.Point point = new java.awt.Point(1, 2);
        int px = point.x;
        java.lang.Object __unused_0 = point.y;
        java.util.Set<? extends java.util.Map.Entry<java.lang.String, ? extends java.lang.Integer>> entries = java.util.Map.<java.lang.String, java.lang.Integer>of("a", 1).entrySet();
    }
}
