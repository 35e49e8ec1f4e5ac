// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_anonymous_function

object Test_ill_anonymous_function {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (a: java.lang.String) => { val n: Int = a.length(); a }
    }
}
