// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.lambdas

object Test_lambdas {
    fun test() {
        val len: java.util.function.Function<String, Int> = java.util.function.Function<String, Int> { s -> java.util.Objects.hashCode(s) }
        val add: java.util.function.BiFunction<Int, Int, Int> = java.util.function.BiFunction<Int, Int, Int> { a: Int, b: Int -> java.lang.Integer.sum(a, b) }
        val run: java.lang.Runnable = java.lang.Runnable { -> java.lang.System.gc() }
        val sup: java.util.function.Supplier<MutableList<String>> = java.util.function.Supplier<MutableList<String>> { -> java.util.ArrayList() }
        val pred: java.util.function.Predicate<in String> = java.util.function.Predicate<String> { x -> java.util.Objects.isNull(x) }
        val anyFn: java.util.function.Function<*, String> = java.util.function.Function<Any, String> { x -> java.lang.String.valueOf((x as Any)) }
        val mapped: java.util.Optional<Int> = java.util.Optional.of("x").map({ s: String -> s.length })
        val picked: java.util.function.BinaryOperator<Int> = java.util.function.BinaryOperator<Int> { x, y -> (if (java.util.Objects.equals(x, y)) x else y) }
        val cmp: java.util.Comparator<String> = java.util.Comparator<String> { p, q -> 0 }
    }
}
