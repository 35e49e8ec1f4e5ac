// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.wildcards

object Test_wildcards {
    def test(): Unit = {
        val nums: java.util.List[_ <: java.lang.Number] = java.util.List.of((1: Int), (2L: Long))
        val sink: java.util.List[_ >: java.lang.Integer] = new java.util.ArrayList[java.lang.Number]()
        sink.add((3: Int))
        val any: java.util.Map[_, _] = java.util.Collections.emptyMap[java.lang.String, java.lang.Number]()
        val c: java.lang.Class[_ <: java.lang.Object] = nums.getClass()
        val cmp: java.lang.Comparable[_ <: java.lang.String] = "x"
        val iter: java.lang.Iterable[_ >: java.lang.Integer] = sink
    }
}
