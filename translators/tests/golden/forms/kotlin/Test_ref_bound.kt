// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ref_bound

object Test_ref_bound {
    fun test() {
        val s: String = "abc"
        val len: java.util.function.Supplier<Int> = java.util.function.Supplier<Int>(s::length)
        val cat: java.util.function.Function<String, String> = java.util.function.Function<String, String>((s as java.lang.String)::concat)
        java.util.List.of("a").forEach((java.lang.System.out)::println)
    }
}
