// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.bottoms

object Test_bottoms {
    def test(): Unit = {
        val z: Boolean = null.asInstanceOf[Boolean]
        val b: Byte = null.asInstanceOf[Byte]
        val c: Char = null.asInstanceOf[Char]
        val s: Short = null.asInstanceOf[Short]
        val i: Int = null.asInstanceOf[Int]
        val j: Long = null.asInstanceOf[Long]
        val f: Float = null.asInstanceOf[Float]
        val d: Double = null.asInstanceOf[Double]
        val str: java.lang.String = null.asInstanceOf[java.lang.String]
        val wl: java.util.List[_ <: java.lang.Integer] = null.asInstanceOf[java.util.List[_ <: java.lang.Integer]]
        val boxed: java.lang.Integer = null.asInstanceOf[java.lang.Integer]
        val nullable: java.lang.Integer = null.asInstanceOf[java.lang.Integer]
        val top: Any = null.asInstanceOf[Any]
        val obj: java.lang.Object = null.asInstanceOf[java.lang.Object]
        val ia: Array[Int] = null.asInstanceOf[Array[Int]]
        val chars: java.lang.String = java.lang.String.valueOf(null.asInstanceOf[Array[Char]])
        val sum: Int = java.lang.Integer.sum(null.asInstanceOf[Int], null.asInstanceOf[Int])
        val __unused_0: Any = null.asInstanceOf[java.lang.Thread]
        val after: java.lang.String = str
    }
}
