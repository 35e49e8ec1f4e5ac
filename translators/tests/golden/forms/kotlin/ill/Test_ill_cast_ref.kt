// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_cast_ref

object Test_ill_cast_ref {
    fun test() {
        val f: java.util.function.Function<MutableList<String>, Int> = (java.util.function.Function<MutableList<String>, Int>(MutableList<String>::isEmpty) as java.util.function.Function<MutableList<String>, Int>)
    }
}
