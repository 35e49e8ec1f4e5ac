// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_ref_constructor

private typealias ArrayList_ = java.util.ArrayList<Int>

object Test_ill_ref_constructor {
    fun test() {
        val f: java.util.function.Supplier<MutableList<String>> = java.util.function.Supplier<MutableList<String>>(::ArrayList_)
    }
}
