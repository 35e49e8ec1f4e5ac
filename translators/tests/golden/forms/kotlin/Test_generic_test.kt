// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.generic_test

object Test_generic_test {
    fun <T, U : Any, V : Number> test() where T : CharSequence, T : Comparable<T> {
        val t: T = (null as T)
        val n: Int = t.length
        val c: Int = t.compareTo(t)
        val u: U = (null as U)
        val l: MutableList<T> = java.util.Collections.singletonList(t)
    }
}
