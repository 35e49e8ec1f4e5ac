// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.cond_fun

object Test_cond_fun {
    def test(): Unit = {
        val c: Boolean = true
        val f: java.util.function.Function[java.lang.String, java.lang.Integer] = (if (c) ((a) => a.length()) else (java.lang.Integer.parseInt(_: java.lang.String)))
        java.util.Optional.of("x").map((if (c) ((b: java.lang.String) => b.length()) else (java.lang.Integer.parseInt(_: java.lang.String))))
        java.util.Optional.of("x").map((if (c) (java.lang.Integer.parseInt(_: java.lang.String)) else ((_: java.lang.String).length())))
    }
}
