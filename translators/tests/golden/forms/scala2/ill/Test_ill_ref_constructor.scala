// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_ref_constructor

object Test_ill_ref_constructor {
    def test(): Unit = {
        val f: java.util.function.Supplier[java.util.List[java.lang.String]] = (() => new java.util.ArrayList[java.lang.Integer]())
    }
}
