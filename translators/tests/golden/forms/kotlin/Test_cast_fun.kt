// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.cast_fun

object Test_cast_fun {
    fun test() {
        val f: java.util.function.Function<String, Int> = (java.util.function.Function<String, Int>(java.lang.Integer::parseInt) as java.util.function.Function<String, Int>)
        java.util.Optional.of("x").map((java.util.function.Function<String, Int> { a -> a.length } as java.util.function.Function<String, Int>))
    }
}
