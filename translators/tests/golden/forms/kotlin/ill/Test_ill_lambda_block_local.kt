// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_lambda_block_local

object Test_ill_lambda_block_local {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int> { a: String -> val n: String = a.length; 1 }
    }
}
