// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.lambdas

object Test_lambdas {
    def test(): Unit = {
        val len: java.util.function.Function[java.lang.String, java.lang.Integer] = (s) => java.util.Objects.hashCode(s)
        val add: java.util.function.BiFunction[java.lang.Integer, java.lang.Integer, java.lang.Integer] = (a: java.lang.Integer, b: java.lang.Integer) => java.lang.Integer.sum(a, b)
        val run: java.lang.Runnable = () => java.lang.System.gc()
        val sup: java.util.function.Supplier[java.util.List[java.lang.String]] = () => new java.util.ArrayList()
        val pred: java.util.function.Predicate[_ >: java.lang.String] = (x) => java.util.Objects.isNull(x)
        val anyFn: java.util.function.Function[_, java.lang.String] = (x) => java.lang.String.valueOf(x.asInstanceOf[java.lang.Object])
        val mapped: java.util.Optional[java.lang.Integer] = java.util.Optional.of("x").map((s: java.lang.String) => s.length())
        val picked: java.util.function.BinaryOperator[java.lang.Integer] = (x, y) => (if (java.util.Objects.equals(x, y)) x else y)
        val cmp: java.util.Comparator[java.lang.String] = (p, q) => 0
    }
}
