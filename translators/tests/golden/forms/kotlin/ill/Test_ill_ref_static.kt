// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_ref_static

object Test_ill_ref_static {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int>(java.lang.Integer::toHexString)
    }
}
