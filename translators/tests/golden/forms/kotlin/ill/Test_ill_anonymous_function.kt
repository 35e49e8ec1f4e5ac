// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_anonymous_function

object Test_ill_anonymous_function {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int>(fun(a: String): Int { val n: Int = a.length; return a })
    }
}
