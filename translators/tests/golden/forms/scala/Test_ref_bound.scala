// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ref_bound

object Test_ref_bound {
    def test(): Unit = {
        val s: java.lang.String = "abc"
        val len: java.util.function.Supplier[java.lang.Integer] = (() => s.length())
        val cat: java.util.function.Function[java.lang.String, java.lang.String] = s.concat
        java.util.List.of("a").forEach(java.lang.System.out.println)
    }
}
