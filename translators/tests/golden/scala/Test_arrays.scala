// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.arrays

object Test_arrays {
    def test(): Unit = {
        val ints: Array[Int] = Array[Int](1, (-2), 3)
        val cs: Array[Char] = "abc".toCharArray()
        val n: Int = ints.length
        val bytes: Array[Array[Byte]] = Array[Array[Byte]](Array[Byte](1.toByte, (-1).toByte), Array[Byte]())
        val longs: Array[Long] = Array[Long](7L)
        val flags: Array[Boolean] = Array[Boolean](true)
        val strs: Array[java.lang.String] = Array[java.lang.String]("a")
        val boxes: Array[java.lang.Integer] = Array[java.lang.Integer](1)
        val lists: Array[java.util.List[java.lang.String]] = Array[java.util.List[java.lang.String]](java.util.List.of("x"))
        val wild: Array[java.util.List[?]] = Array[java.util.List[?]]()
        java.util.Arrays.sort(ints)
        val copy: Array[java.lang.String] = strs.clone()
        val ds: Array[Double] = null.asInstanceOf[Array[Double]]
        val nested: java.util.List[Array[java.lang.String]] = java.util.Arrays.asList[Array[java.lang.String]](strs)
    }
}
