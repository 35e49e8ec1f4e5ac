package thalia.anonymous_local

object Test_anonymous_local {
    def test(): Unit = {
        val c: java.util.Comparator[java.lang.String] = (new java.util.Comparator[java.lang.String] { def compare(a: java.lang.String, b: java.lang.String): Int = 0 })
        val f: java.util.function.Function[java.lang.String, java.lang.String] = (new java.util.function.Function[java.lang.String, java.lang.String] { def apply(s: java.lang.String): java.lang.String = s })
        val g: java.util.function.Function[java.lang.String, java.lang.Integer] = (new java.util.function.Function[java.lang.String, java.lang.Integer] { def apply(s: java.lang.String): java.lang.Integer = 7 })
        val r: java.lang.Runnable = (new java.lang.Runnable { def run(): Unit = () })
        val s: java.util.function.Supplier[java.util.Comparator[java.lang.String]] = (new java.util.function.Supplier[java.util.Comparator[java.lang.String]] { def get(): java.util.Comparator[java.lang.String] = (new java.util.Comparator[java.lang.String] { def compare(x: java.lang.String, y: java.lang.String): Int = 1 }) })
    }
}
