// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.erased

object Test_erased {
    fun test() {
        val empty: MutableList<String> = java.util.Collections.emptyList()
        val opt: java.util.Optional<Int> = java.util.Optional.of(1)
        val cmp: java.util.Comparator<String> = java.util.Comparator.naturalOrder()
        val pairs: MutableMap<String, MutableList<Int>> = java.util.TreeMap()
    }
}
