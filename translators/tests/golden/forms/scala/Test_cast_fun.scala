// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.cast_fun

object Test_cast_fun {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = ((java.lang.Integer.parseInt): java.util.function.Function[java.lang.String, java.lang.Integer])
        java.util.Optional.of("x").map((((a) => a.length()): java.util.function.Function[java.lang.String, java.lang.Integer]))
    }
}
