package thalia.generics;

public final class Test_generics {
    public static void test() throws Throwable {
        java.util.Map<java.lang.String, java.util.List<java.lang.Integer>> m = new java.util.HashMap<>();
        java.util.List<java.lang.Integer> l = new java.util.ArrayList<java.lang.Integer>();
        m.put("a", l);
        java.util.List<java.lang.Integer> got = m.get("a");
        java.util.List raw = new java.util.ArrayList();
        java.util.Optional<java.lang.Integer> boxed = java.util.Optional.empty();
    }
}
