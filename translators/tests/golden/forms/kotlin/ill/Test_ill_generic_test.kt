// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_generic_test

object Test_ill_generic_test {
    fun <T : CharSequence> test() {
        val t: T = (null as T)
        val s: String = t
    }
}
