// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ref_bound

object Test_ref_bound {
    def test(): Unit = {
        val s: java.lang.String = "abc"
        val len: java.util.function.Supplier[java.lang.Integer] = (() => s.length())
        val cat: java.util.function.Function[java.lang.String, java.lang.String] = (s.concat(_: java.lang.String))
        java.util.List.of("a").forEach((java.lang.System.out.println(_: java.lang.String)))
    }
}
