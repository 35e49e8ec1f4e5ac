// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.erased

object Test_erased {
    def test(): Unit = {
        val empty: java.util.List[java.lang.String] = java.util.Collections.emptyList()
        val opt: java.util.Optional[java.lang.Integer] = java.util.Optional.of((1: Int))
        val cmp: java.util.Comparator[java.lang.String] = java.util.Comparator.naturalOrder()
        val pairs: java.util.Map[java.lang.String, java.util.List[java.lang.Integer]] = new java.util.TreeMap()
    }
}
