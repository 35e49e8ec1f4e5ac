package thalia.literals;

public final class Test_literals {
    public static void test() throws Throwable {
        boolean t = true;
        int i = (-2147483648);
        long l = (-9223372036854775808L);
        float f = (-1.5e-7f);
        float fnan = java.lang.Float.NaN;
        double d = 0.1d;
        double dinf = java.lang.Double.NEGATIVE_INFINITY;
        byte by = ((byte) -128);
        short sh = ((short) -300);
        char quote = '\'';
        char nul = '\000';
        char euro = '\u20AC';
        java.lang.String str = "tab\tnl\nq\"bs\\nul\0007 \u00E9 \uD83D\uDE00 \\u000a";
        java.lang.String nothing = null;
        java.lang.Integer neg = ((java.lang.Integer) (-1));
        long wide = ((long) 3);
        int pick = (t ? 1 : 2);
        int len = "abc".length();
        java.lang.Object __unused_0 = ((java.lang.Object) "s");
    }
}
