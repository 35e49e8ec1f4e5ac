// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.wildcards

object Test_wildcards {
    def test(): Unit = {
        val nums: java.util.List[? <: java.lang.Number] = java.util.List.of((1: Int), (2L: Long))
        val sink: java.util.List[? >: java.lang.Integer] = new java.util.ArrayList[java.lang.Number]()
        sink.add((3: Int))
        val any: java.util.Map[?, ?] = java.util.Collections.emptyMap[java.lang.String, java.lang.Number]()
        val c: java.lang.Class[? <: java.lang.Object] = nums.getClass()
        val cmp: java.lang.Comparable[? <: java.lang.String] = "x"
        val iter: java.lang.Iterable[? >: java.lang.Integer] = sink
    }
}
