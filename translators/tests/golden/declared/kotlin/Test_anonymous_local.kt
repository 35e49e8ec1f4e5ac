package thalia.anonymous_local

object Test_anonymous_local {
    fun test() {
        val c: java.util.Comparator<String> = (object : java.util.Comparator<String> { override fun compare(a: String, b: String): Int = 0 })
        val f: java.util.function.Function<String, String> = (object : java.util.function.Function<String, String> { override fun apply(s: String): String = s })
        val g: java.util.function.Function<String, Int> = (object : java.util.function.Function<String, Int> { override fun apply(s: String): Int = 7 })
        val r: java.lang.Runnable = (object : java.lang.Runnable { override fun run() {} })
        val s: java.util.function.Supplier<java.util.Comparator<String>> = (object : java.util.function.Supplier<java.util.Comparator<String>> { override fun get(): java.util.Comparator<String> = (object : java.util.Comparator<String> { override fun compare(x: String, y: String): Int = 1 }) })
    }
}
