// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.lambda_block

object Test_lambda_block {
    fun test() {
        val f: java.util.function.Function<String, Int> = java.util.function.Function<String, Int> { a: String -> val n: Int = a.length; val m = n; m }
        val add: java.util.function.Consumer<MutableList<String>> = java.util.function.Consumer<MutableList<String>> { l -> l.add("x") }
        java.util.Optional.of("x").map({ b -> val k: Int = b.length; k })
    }
}
