// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_ref_bound

object Test_ill_ref_bound {
    def test(): Unit = {
        val s: java.lang.String = "abc"
        val f: java.util.function.Supplier[java.lang.Integer] = (() => s.toUpperCase())
    }
}
