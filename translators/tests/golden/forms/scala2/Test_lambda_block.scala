// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.lambda_block

object Test_lambda_block {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (a: java.lang.String) => { val n: java.lang.Integer = a.length(); val m = n; m }
        val add: java.util.function.Consumer[java.util.List[java.lang.String]] = (l) => { l.add("x"); () }
        java.util.Optional.of("x").map((b) => { val k: Int = b.length(); k })
    }
}
