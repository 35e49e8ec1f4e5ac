// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.generics

object Test_generics {
    fun test() {
        val m: MutableMap<String, MutableList<Int>> = java.util.HashMap()
        val l: MutableList<Int> = java.util.ArrayList<Int>()
        m.put("a", l)!!
        val got: MutableList<Int> = m.get("a")!!
        val boxed: java.util.Optional<Int> = java.util.Optional.empty()
        val it: MutableIterator<Int> = l.iterator()
        val cmp: Comparable<String> = "x"
    }
}
