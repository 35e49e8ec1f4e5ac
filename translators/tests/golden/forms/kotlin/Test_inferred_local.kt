// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.inferred_local

object Test_inferred_local {
    fun test() {
        val x = "abc"
        val n = x.length
        val l = java.util.ArrayList<String>()
        l.add(x)
        val f = (java.util.function.Function<String, Int>(java.lang.Integer::parseInt) as java.util.function.Function<String, Int>)
        val sum: Long = 1L
    }
}
