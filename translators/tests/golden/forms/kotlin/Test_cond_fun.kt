// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.cond_fun

object Test_cond_fun {
    fun test() {
        val c: Boolean = true
        val f: java.util.function.Function<String, Int> = (if (c) java.util.function.Function<String, Int> { a -> a.length } else java.util.function.Function<String, Int>(java.lang.Integer::parseInt))
        java.util.Optional.of("x").map((if (c) java.util.function.Function<String, Int> { b: String -> b.length } else java.util.function.Function<String, Int>(java.lang.Integer::parseInt)))
        java.util.Optional.of("x").map((if (c) java.util.function.Function<String, Int>(java.lang.Integer::parseInt) else java.util.function.Function<String, Int>(String::length)))
    }
}
