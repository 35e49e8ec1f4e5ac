// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.static_type_args

object Test_static_type_args {
    def test(): Unit = {
        val empty: java.util.List[java.lang.String] = java.util.Collections.emptyList[java.lang.String]()
        val map: java.util.Map[java.lang.String, java.lang.Integer] = java.util.Collections.emptyMap[java.lang.String, java.lang.Integer]()
        val lens: java.util.stream.Stream[java.lang.Integer] = empty.stream().map[java.lang.Integer]((s) => java.util.Objects.hashCode(s))
        val opt: java.util.Optional[java.util.List[? <: java.lang.Number]] = java.util.Optional.of[java.util.List[? <: java.lang.Number]](java.util.List.of[java.lang.Integer]((1: Int)))
    }
}
