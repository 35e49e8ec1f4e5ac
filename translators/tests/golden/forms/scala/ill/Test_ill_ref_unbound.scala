// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_ref_unbound

object Test_ill_ref_unbound {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.Object, java.lang.Integer] = ((_: java.lang.String).length())
    }
}
