// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17
package thalia.static_type_args

@groovy.transform.CompileStatic
final class Test_static_type_args {
    static void test() {
        java.util.List<java.lang.String> empty = java.util.Collections.<java.lang.String>emptyList();
        java.util.Map<java.lang.String, java.lang.Integer> map = java.util.Collections.<java.lang.String, java.lang.Integer>emptyMap();
        java.util.stream.Stream<java.lang.Integer> lens = empty.stream().<java.lang.Integer>map(({ s -> java.util.Objects.hashCode(s) }));
        java.util.Optional<java.util.List<? extends java.lang.Number>> opt = java.util.Optional.<java.util.List<? extends java.lang.Number>>of(java.util.List.<java.lang.Integer>of(1));
    }
}
