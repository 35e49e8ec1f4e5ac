// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.literals

@groovy.transform.CompileStatic
final class Test_literals {
    static void test() {
        boolean t = true;
        int i = java.lang.Integer.MIN_VALUE;
        int imax = 2147483647;
        long l = java.lang.Long.MIN_VALUE;
        long lneg = (-5L);
        float f = (-1.5e-7f);
        float fmin = 1e-45f;
        float fnan = java.lang.Float.NaN;
        double d = 0.1d;
        double dbig = 1e300d;
        double dinf = java.lang.Double.NEGATIVE_INFINITY;
        byte by = ((byte) -128);
        short sh = ((short) -300);
        char quote = ('\'' as char);
        char nul = ('\u0000' as char);
        char euro = ('\u20AC' as char);
        java.lang.String str = 'tab\tnl\nq"bs\\nul\u00007 \u00E9 \uD83D\uDE00 \\u000a $x ${y} \'';
        java.lang.String nothing = null;
        java.lang.Integer noInt = null;
        java.lang.Integer neg = ((java.lang.Integer) (-1));
        long wide = ((long) 3);
        int code = ((int) euro);
        char ch = ((char) code);
        byte narrow = ((byte) imax);
        int pick = (t ? 1 : 2);
        int len = 'abc'.length();
        java.lang.String text = (3).toString();
        java.lang.Object __unused_0 = ((java.lang.Object) 's');
    }
}
