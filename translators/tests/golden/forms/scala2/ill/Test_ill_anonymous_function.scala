// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_anonymous_function

object Test_ill_anonymous_function {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (a: java.lang.String) => { val n: Int = a.length(); a }
    }
}
