// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.array_covariance

@groovy.transform.CompileStatic
final class Test_array_covariance {
    static void test() {
        java.lang.String[] strs = new java.lang.String[] {'a'};
        java.lang.Object[] objs = strs.clone();
        java.util.Arrays.sort(strs);
        java.lang.String shown = java.util.Arrays.toString(objs);
    }
}
