// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_inferred_local

object Test_ill_inferred_local {
    fun test() {
        val x = "abc"
        val n: Int = x
    }
}
