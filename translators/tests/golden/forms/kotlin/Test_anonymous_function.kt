// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.anonymous_function

object Test_anonymous_function {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int>(fun(a: String): Int { val n: Int = a.length; return n })
        java.util.Optional.of("x").map(fun(b): Int { return b.length })
        val c: java.util.function.Consumer<String> = java.util.function.Consumer<String>(fun(d) { val e = d.length })
    }
}
