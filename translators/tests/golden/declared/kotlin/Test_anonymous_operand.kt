package thalia.anonymous_operand

object Test_anonymous_operand {
    fun test() {
        val xs: java.util.ArrayList<String> = java.util.ArrayList<String>()
        java.util.Collections.sort(xs, (object : java.util.Comparator<String> { override fun compare(a: String, b: String): Int = (-1) }))
        val n: Int = (object : java.util.Comparator<String> { override fun compare(a: String, b: String): Int = 2 }).compare("p", "q")
    }
}
