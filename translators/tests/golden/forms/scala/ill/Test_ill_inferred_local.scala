// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_inferred_local

object Test_ill_inferred_local {
    def test(): Unit = {
        val x = "abc"
        val n: Int = x
    }
}
