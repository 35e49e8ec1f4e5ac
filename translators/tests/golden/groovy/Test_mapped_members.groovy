// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.mapped_members

@groovy.transform.CompileStatic
final class Test_mapped_members {
    static void test() {
        java.lang.String s = 'a,b';
        int n = s.length();
        char c = s.charAt(0);
        java.lang.String[] parts = s.split(',');
        byte[] bytes = s.getBytes();
        java.lang.String upper = s.toUpperCase();
        boolean same = s.equals(upper);
        java.lang.Integer boxed = 7;
        long iv = boxed.longValue();
        java.lang.Number num = boxed;
        double dv = num.doubleValue();
        java.lang.StringBuilder sb = new java.lang.StringBuilder();
        int sbl = sb.length();
        java.util.ArrayList<java.lang.String> list = new java.util.ArrayList<java.lang.String>();
        int size = list.size();
        java.lang.Object[] arr = list.toArray();
        java.util.Map<java.lang.String, java.lang.Integer> map = new java.util.HashMap<>();
        java.util.Set<java.lang.String> keys = map.keySet();
        java.util.Collection<java.lang.Integer> values = map.values();
        java.util.Set<java.util.Map.Entry<java.lang.String, java.lang.Integer>> entries = map.entrySet();
        java.util.Map.Entry<java.lang.String, java.lang.Integer> entry = java.util.Map.entry('k', 1);
        java.lang.Integer value = entry.getValue();
        java.lang.IllegalStateException error = new java.lang.IllegalStateException('boom');
        java.lang.String msg = error.getMessage();
        java.lang.Throwable cause = error.getCause();
        java.lang.Class<? extends java.lang.Object> cls = list.getClass();
        list.notifyAll();
        int alen = parts.length;
        java.lang.String thread = java.lang.Thread.currentThread().getName();
    }
}
