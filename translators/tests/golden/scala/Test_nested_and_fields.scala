// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.nested_and_fields

object Test_nested_and_fields {
    def test(): Unit = {
        val entry: java.util.Map.Entry[java.lang.String, java.lang.Integer] = new java.util.AbstractMap.SimpleEntry("k", (1: Int))
        val key: java.lang.String = entry.getKey()
        val state: java.lang.Thread.State = java.lang.Thread.State.NEW
        val max: Int = java.lang.Integer.MAX_VALUE
        val point: java.awt.Point = new java.awt.Point((1: Int), (2: Int))
        val px: Int = point.x
        val __unused_0: Any = point.y
        val small: java.util.Map[java.lang.String, java.lang.Integer] = java.util.Map.of[java.lang.String, java.lang.Integer]("a", (1: Int))
        val entries: java.util.Set[? <: java.util.Map.Entry[java.lang.String, ? <: java.lang.Integer]] = small.entrySet()
        val simple: java.util.AbstractMap.SimpleImmutableEntry[java.lang.String, java.lang.String] = new java.util.AbstractMap.SimpleImmutableEntry[java.lang.String, java.lang.String]("a", "b")
    }
}
