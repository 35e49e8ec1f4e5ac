// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.anonymous_function

object Test_anonymous_function {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (a: java.lang.String) => { val n: Int = a.length(); n }
        java.util.Optional.of("x").map((b) => b.length())
        val c: java.util.function.Consumer[java.lang.String] = (d) => { val e = d.length(); () }
    }
}
