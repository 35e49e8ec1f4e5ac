// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.arrays

@groovy.transform.CompileStatic
final class Test_arrays {
    static void test() {
        int[] ints = new int[] {1, (-2), 3};
        char[] cs = 'abc'.toCharArray();
        int n = ints.length;
        byte[][] bytes = new byte[][] {new byte[] {((byte) 1), ((byte) -1)}, new byte[] {}};
        long[] longs = new long[] {7L};
        boolean[] flags = new boolean[] {true};
        java.lang.String[] strs = new java.lang.String[] {'a'};
        java.lang.Integer[] boxes = new java.lang.Integer[] {1};
        java.util.List<java.lang.String>[] lists = ((java.util.List<java.lang.String>[]) new java.util.List<?>[] {java.util.List.of('x')});
        java.util.List<?>[] wild = new java.util.List<?>[] {};
        java.util.Arrays.sort(ints);
        java.lang.String[] copy = strs.clone();
        double[] ds = ((double[]) null);
        java.util.List<java.lang.String[]> nested = java.util.Arrays.<java.lang.String[]>asList(strs);
    }
}
