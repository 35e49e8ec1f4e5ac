package thalia.anonymous_operand

object Test_anonymous_operand {
    def test(): Unit = {
        val xs: java.util.ArrayList[java.lang.String] = new java.util.ArrayList[java.lang.String]()
        java.util.Collections.sort(xs, (new java.util.Comparator[java.lang.String] { override def compare(a: java.lang.String, b: java.lang.String): Int = (-1) }))
        val n: Int = (new java.util.Comparator[java.lang.String] { override def compare(a: java.lang.String, b: java.lang.String): Int = 2 }).compare("p", "q")
    }
}
