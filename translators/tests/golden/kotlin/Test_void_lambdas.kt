// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.void_lambdas

object Test_void_lambdas {
    fun test() {
        val ignore: java.util.function.Consumer<String> = java.util.function.Consumer<String> { s -> }
        val names: java.util.ArrayList<String> = java.util.ArrayList()
        names.forEach({ n -> })
        names.forEach(ignore)
        val both: java.util.function.BiConsumer<String, Int> = java.util.function.BiConsumer<String, Int> { k: String, v: Int -> }
        val noop: java.lang.Runnable = java.lang.Runnable { -> }
        val add: java.util.function.Consumer<String> = java.util.function.Consumer<String> { s -> names.add(s) }
    }
}
