// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_cast_ref

object Test_ill_cast_ref {
    def test(): Unit = {
        val f: java.util.function.Function[java.util.List[java.lang.String], java.lang.Integer] = ((((_: java.util.List[java.lang.String]).isEmpty())): java.util.function.Function[java.util.List[java.lang.String], java.lang.Integer])
    }
}
