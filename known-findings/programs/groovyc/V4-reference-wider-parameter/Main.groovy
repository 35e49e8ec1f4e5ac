@groovy.transform.CompileStatic
class Main { static void test() { java.util.function.Function<Object, Object> f = Integer::toBinaryString } }
