public class Main { static void test(java.util.function.BinaryOperator<String> a0) { Object res = java.util.stream.Collectors.reducing(a0); } }
