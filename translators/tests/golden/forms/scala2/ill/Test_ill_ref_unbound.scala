// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_ref_unbound

object Test_ill_ref_unbound {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.Object, java.lang.Integer] = ((_: java.lang.String).length())
    }
}
