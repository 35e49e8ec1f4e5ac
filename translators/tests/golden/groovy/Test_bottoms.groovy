// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.bottoms

@groovy.transform.CompileStatic
final class Test_bottoms {
    static void test() {
        boolean z = false;
        byte b = ((byte) 0);
        char c = ((char) 0);
        short s = ((short) 0);
        int i = 0;
        long j = 0L;
        float f = 0.0f;
        double d = 0.0d;
        java.lang.String str = ((java.lang.String) null);
        java.util.List<? extends java.lang.Integer> wl = ((java.util.List<? extends java.lang.Integer>) null);
        java.lang.Integer boxed = ((java.lang.Integer) null);
        java.lang.Integer nullable = ((java.lang.Integer) null);
        java.lang.Object top = ((java.lang.Object) null);
        java.lang.Object obj = ((java.lang.Object) null);
        int[] ia = ((int[]) null);
        java.lang.String chars = java.lang.String.valueOf(((char[]) null));
        int sum = java.lang.Integer.sum(0, 0);
        java.lang.Object __unused_0 = ((java.lang.Thread) null);
        java.lang.String after = str;
    }
}
