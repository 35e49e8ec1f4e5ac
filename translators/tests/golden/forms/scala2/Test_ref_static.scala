// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ref_static

object Test_ref_static {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (java.lang.Integer.parseInt(_: java.lang.String))
        java.util.Optional.of("1").map((java.lang.Integer.parseInt(_: java.lang.String)))
    }
}
