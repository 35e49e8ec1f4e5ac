package thalia.bottoms;

public final class Test_bottoms {
    public static void test() throws Throwable {
        boolean z = false;
        byte b = ((byte) 0);
        char c = '\000';
        short s = ((short) 0);
        int i = 0;
        long j = 0L;
        float f = 0.0f;
        double d = 0.0d;
        java.lang.String str = ((java.lang.String) null);
        java.util.List<? extends java.lang.Integer> wl = ((java.util.List<? extends java.lang.Integer>) null);
        java.lang.Integer boxed = ((java.lang.Integer) null);
        java.lang.Object top = ((java.lang.Object) null);
        java.lang.Void bot = ((java.lang.Void) null);
        java.lang.String chars = java.lang.String.valueOf(((char[]) null));
        java.lang.Object __unused_0 = ((java.lang.Thread) null);
    }
}
