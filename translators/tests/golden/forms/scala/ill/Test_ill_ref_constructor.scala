// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_ref_constructor

object Test_ill_ref_constructor {
    def test(): Unit = {
        val f: java.util.function.Supplier[java.util.List[java.lang.String]] = (() => new java.util.ArrayList[java.lang.Integer]())
    }
}
