package thalia.arrays;

public final class Test_arrays {
    public static void test() throws Throwable {
        int[] ints = new int[] {1, (-2), 3};
        char[] cs = "abc".toCharArray();
        int n = ints.length;
        byte[][] bytes = new byte[][] {new byte[] {((byte) 1), ((byte) -1)}, new byte[] {}};
        java.lang.String[] strs = new java.lang.String[] {"a"};
        java.util.List<java.lang.String>[] lists = ((java.util.List<java.lang.String>[]) new java.util.List<?>[] {java.util.List.of("x")});
        java.util.List<?>[] wild = new java.util.List<?>[] {};
        java.util.Arrays.sort(ints);
        java.lang.Object[] objs = strs.clone();
        double[] ds = ((double[]) null);
    }
}
