// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ref_static

object Test_ref_static {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = java.lang.Integer.parseInt
        java.util.Optional.of("1").map(java.lang.Integer.parseInt)
    }
}
