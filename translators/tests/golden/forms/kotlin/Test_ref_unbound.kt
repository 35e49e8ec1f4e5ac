// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ref_unbound

object Test_ref_unbound {
    fun test() {
        val len: java.util.function.Function<String, Int> = java.util.function.Function<String, Int>(String::length)
        val size: java.util.function.Function<MutableList<String>, Int> = java.util.function.Function<MutableList<String>, Int>(MutableList<String>::size)
        java.util.Optional.of(java.util.ArrayList<String>()).map(MutableList<String>::isEmpty)
    }
}
