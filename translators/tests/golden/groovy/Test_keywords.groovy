// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.keywords

@groovy.transform.CompileStatic
final class Test_keywords {
    static void test() {
        java.io.InputStream val = java.lang.System.'in';
        java.lang.invoke.MethodHandles.Lookup object = java.lang.invoke.MethodHandles.lookup().'in'(((java.lang.Class<java.lang.String>) null));
        java.lang.invoke.MethodType type = ((java.lang.invoke.MethodHandle) null).type();
        java.lang.Thread.yield();
        int fun = 1;
        int when = fun;
        int match = when;
        int given = match;
        java.util.function.IntUnaryOperator then = { is -> is };
        int dollar$ = then.applyAsInt(given);
    }
}
