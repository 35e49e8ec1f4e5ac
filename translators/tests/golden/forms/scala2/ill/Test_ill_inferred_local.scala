// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_inferred_local

object Test_ill_inferred_local {
    def test(): Unit = {
        val x = "abc"
        val n: Int = x
    }
}
