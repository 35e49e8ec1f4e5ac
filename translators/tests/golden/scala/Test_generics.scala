// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.generics

object Test_generics {
    def test(): Unit = {
        val m: java.util.Map[java.lang.String, java.util.List[java.lang.Integer]] = new java.util.HashMap()
        val l: java.util.List[java.lang.Integer] = new java.util.ArrayList[java.lang.Integer]()
        m.put("a", l)
        val got: java.util.List[java.lang.Integer] = m.get("a")
        val boxed: java.util.Optional[java.lang.Integer] = java.util.Optional.empty()
        val it: java.util.Iterator[java.lang.Integer] = l.iterator()
        val cmp: java.lang.Comparable[java.lang.String] = "x"
    }
}
