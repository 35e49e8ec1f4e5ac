public class Main { static void test(java.util.List<String> r) { r.addAll(new java.util.ArrayList<>(10)); } }
