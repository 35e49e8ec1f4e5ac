// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ill_lambda_block_result

object Test_ill_lambda_block_result {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int> { a: String -> val n = a.length; a }
    }
}
