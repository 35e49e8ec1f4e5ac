// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.raw

@groovy.transform.CompileStatic
final class Test_raw {
    static void test() {
        java.util.List raw = new java.util.ArrayList();
    }
}
