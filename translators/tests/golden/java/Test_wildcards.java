package thalia.wildcards;

public final class Test_wildcards {
    public static void test() throws Throwable {
        java.util.List<? extends java.lang.Number> nums = java.util.List.of(1, 2L);
        java.util.List<? super java.lang.Integer> sink = new java.util.ArrayList<java.lang.Number>();
        sink.add(3);
        java.util.Map<?, ?> any = java.util.Collections.emptyMap();
        java.lang.Class<? extends java.lang.Object> c = nums.getClass();
    }
}
