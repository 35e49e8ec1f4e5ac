// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ref_unbound

object Test_ref_unbound {
    def test(): Unit = {
        val len: java.util.function.Function[java.lang.String, java.lang.Integer] = ((_: java.lang.String).length())
        val size: java.util.function.Function[java.util.List[java.lang.String], java.lang.Integer] = ((_: java.util.List[java.lang.String]).size())
        java.util.Optional.of(new java.util.ArrayList[java.lang.String]()).map(((_: java.util.List[java.lang.String]).isEmpty()))
    }
}
