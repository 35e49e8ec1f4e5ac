// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.mapped_members

@groovy.transform.CompileStatic
final class Test_mapped_members {
    static void test() {
        java.lang.String s = 'a,b';
        int n = ((java.lang.String) s).length();
        char c = ((java.lang.String) s).charAt(0);
        java.lang.String[] parts = ((java.lang.String) s).split(',');
        byte[] bytes = ((java.lang.String) s).getBytes();
        java.lang.String upper = ((java.lang.String) s).toUpperCase();
        boolean same = ((java.lang.String) s).equals(((java.lang.String) upper));
        java.lang.Integer boxed = 7;
        long iv = ((java.lang.Integer) boxed).longValue();
        java.lang.Number num = ((java.lang.Integer) boxed);
        double dv = ((java.lang.Number) num).doubleValue();
        java.lang.StringBuilder sb = new java.lang.StringBuilder();
        int sbl = ((java.lang.StringBuilder) sb).length();
        java.util.ArrayList<java.lang.String> list = new java.util.ArrayList<java.lang.String>();
        int size = ((java.util.ArrayList<java.lang.String>) list).size();
        java.lang.Object[] arr = ((java.util.ArrayList<java.lang.String>) list).toArray();
        java.util.Map<java.lang.String, java.lang.Integer> map = new java.util.HashMap<>();
        java.util.Set<java.lang.String> keys = ((java.util.Map<java.lang.String, java.lang.Integer>) map).keySet();
        java.util.Collection<java.lang.Integer> values = ((java.util.Map<java.lang.String, java.lang.Integer>) map).values();
        java.util.Set<java.util.Map.Entry<java.lang.String, java.lang.Integer>> entries = ((java.util.Map<java.lang.String, java.lang.Integer>) map).entrySet();
        java.util.Map.Entry<java.lang.String, java.lang.Integer> entry = java.util.Map.entry('k', 1);
        java.lang.Integer value = ((java.util.Map.Entry<java.lang.String, java.lang.Integer>) entry).getValue();
        java.lang.IllegalStateException error = new java.lang.IllegalStateException('boom');
        java.lang.String msg = ((java.lang.IllegalStateException) error).getMessage();
        java.lang.Throwable cause = ((java.lang.IllegalStateException) error).getCause();
        java.lang.Class<? extends java.lang.Object> cls = ((java.util.ArrayList<java.lang.String>) list).getClass();
        ((java.util.ArrayList<java.lang.String>) list).notifyAll();
        int alen = ((java.lang.String[]) parts).length;
        java.lang.String thread = java.lang.Thread.currentThread().getName();
    }
}
