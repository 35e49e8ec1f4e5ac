// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.inferred_local

object Test_inferred_local {
    def test(): Unit = {
        val x = "abc"
        val n = x.length()
        val l = new java.util.ArrayList[java.lang.String]()
        l.add(x)
        val f = (((java.lang.Integer.parseInt(_: java.lang.String))): java.util.function.Function[java.lang.String, java.lang.Integer])
        val sum: Long = 1L
    }
}
