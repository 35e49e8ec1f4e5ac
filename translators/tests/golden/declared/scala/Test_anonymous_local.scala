package thalia.anonymous_local

object Test_anonymous_local {
    def test(): Unit = {
        val c: java.util.Comparator[java.lang.String] = (new java.util.Comparator[java.lang.String] { override def compare(a: java.lang.String, b: java.lang.String): Int = 0 })
        val f: java.util.function.Function[java.lang.String, java.lang.String] = (new java.util.function.Function[java.lang.String, java.lang.String] { override def apply(s: java.lang.String): java.lang.String = s })
        val g: java.util.function.Function[java.lang.String, java.lang.Integer] = (new java.util.function.Function[java.lang.String, java.lang.Integer] { override def apply(s: java.lang.String): java.lang.Integer = 7 })
        val r: java.lang.Runnable = (new java.lang.Runnable { override def run(): Unit = () })
        val s: java.util.function.Supplier[java.util.Comparator[java.lang.String]] = (new java.util.function.Supplier[java.util.Comparator[java.lang.String]] { override def get(): java.util.Comparator[java.lang.String] = (new java.util.Comparator[java.lang.String] { override def compare(x: java.lang.String, y: java.lang.String): Int = 1 }) })
    }
}
