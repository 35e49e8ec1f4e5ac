// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.varargs

object Test_varargs {
    def test(): Unit = {
        val abc: java.util.List[java.lang.String] = java.util.Arrays.asList("a", "b", "c")
        val s: java.lang.String = java.lang.String.format("%s-%d-%c", "x", (1: Int), ('c': Char))
        val units: java.util.EnumSet[java.util.concurrent.TimeUnit] = java.util.EnumSet.of(java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MINUTES, java.util.concurrent.TimeUnit.HOURS)
        java.util.Collections.addAll(new java.util.ArrayList[java.lang.String](), "d", "e")
        val none: java.util.List[java.lang.String] = java.util.Arrays.asList[java.lang.String]()
        val strs: Array[java.lang.String] = Array[java.lang.String]("a", "b")
        val spread: java.util.List[java.lang.String] = java.util.Arrays.asList(strs*)
        val joined: java.lang.String = java.lang.String.join(",", strs*)
        val ints: java.util.stream.IntStream = java.util.stream.IntStream.of(Array[Int](1, 2)*)
    }
}
