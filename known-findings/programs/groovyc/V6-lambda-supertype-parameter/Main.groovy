@groovy.transform.CompileStatic
class Main {
    static <E> E first(E root, java.util.function.Function<? super E, ? extends E> t) { root }
    static <K, V> java.util.HashMap<K, V> make(java.util.Map<K, V> m) { null }
    static void test() {
        first(make((java.util.Map<Object, Object>) null), (java.util.Map<Object, Object> z) -> null)
    }
}
