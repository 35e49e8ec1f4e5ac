// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_ref_unbound

object Test_ill_ref_unbound {
    fun test() {
        val f: java.util.function.Function<Any, Int> = java.util.function.Function<Any, Int>(String::length)
    }
}
