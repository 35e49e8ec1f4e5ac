@groovy.transform.CompileStatic
class Main { static void test(List<String> r) { r.addAll(new ArrayList<>(10)) } }
