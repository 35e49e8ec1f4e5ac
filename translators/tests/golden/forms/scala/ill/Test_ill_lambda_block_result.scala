// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_lambda_block_result

object Test_ill_lambda_block_result {
    def test(): Unit = {
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (a: java.lang.String) => { val n = a.length(); a }
    }
}
