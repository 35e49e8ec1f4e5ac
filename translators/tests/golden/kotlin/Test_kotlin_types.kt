// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.kotlin_types

object Test_kotlin_types {
    fun test() {
        val f: (Int) -> Int = { x -> x }
        val g: (() -> Unit)? = null
        val ns: String? = null
        val ks: kotlin.collections.List<String> = listOf<String>()
        val u: Any? = Unit
    }
}
