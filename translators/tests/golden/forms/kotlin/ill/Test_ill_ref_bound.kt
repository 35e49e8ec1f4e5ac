// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_ref_bound

object Test_ill_ref_bound {
    fun test() {
        val s: String = "abc"
        val f: java.util.function.Supplier<Int> = java.util.function.Supplier<Int>((s as java.lang.String)::toUpperCase)
    }
}
