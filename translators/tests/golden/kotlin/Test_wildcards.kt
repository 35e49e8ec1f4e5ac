// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.wildcards

object Test_wildcards {
    fun test() {
        val nums: MutableList<out Number> = java.util.List.of(1, 2L)
        val sink: MutableList<in Int> = java.util.ArrayList<Number>()
        sink.add(3)
        val any: MutableMap<*, *> = java.util.Collections.emptyMap<String, Number>()
        val c: java.lang.Class<out Any> = nums.javaClass
        val cmp: Comparable<*> = "x"
        val iter: MutableIterable<*> = sink
    }
}
