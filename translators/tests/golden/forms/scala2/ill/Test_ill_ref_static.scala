// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_ref_static

object Test_ill_ref_static {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (java.lang.Integer.toHexString(_: java.lang.String))
    }
}
