package thalia.anonymous_operand

@groovy.transform.CompileStatic
final class Test_anonymous_operand {
    static void test() {
        java.util.ArrayList<java.lang.String> xs = new java.util.ArrayList<java.lang.String>();
        java.util.Collections.sort(xs, new java.util.Comparator<java.lang.String>() { public int compare(java.lang.String a, java.lang.String b) { return (-1); } });
        int n = new java.util.Comparator<java.lang.String>() { public int compare(java.lang.String a, java.lang.String b) { return 2; } }.compare('p', 'q');
    }
}
