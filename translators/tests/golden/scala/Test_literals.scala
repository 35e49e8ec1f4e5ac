// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.literals

object Test_literals {
    def test(): Unit = {
        val t: Boolean = true
        val i: Int = (-2147483648)
        val imax: Int = 2147483647
        val l: Long = (-9223372036854775808L)
        val lneg: Long = (-5L)
        val f: Float = (-1.5e-7f)
        val fmin: Float = 1e-45f
        val fnan: Float = java.lang.Float.NaN
        val d: Double = 0.1d
        val dbig: Double = 1e300d
        val dinf: Double = java.lang.Double.NEGATIVE_INFINITY
        val by: Byte = (-128).toByte
        val sh: Short = (-300).toShort
        val quote: Char = '\''
        val nul: Char = '\u0000'
        val euro: Char = '\u20AC'
        val str: java.lang.String = "tab\tnl\nq\"bs\\nul\u00007 \u00E9 \uD83D\uDE00 \\u000a $x ${y} '"
        val nothing: java.lang.String = null
        val noInt: java.lang.Integer = null
        val neg: java.lang.Integer = (-1).asInstanceOf[java.lang.Integer]
        val wide: Long = (3).asInstanceOf[Long]
        val code: Int = euro.asInstanceOf[Int]
        val ch: Char = code.asInstanceOf[Char]
        val narrow: Byte = imax.asInstanceOf[Byte]
        val pick: Int = (if (t) 1 else 2)
        val len: Int = "abc".length()
        val text: java.lang.String = (3).toString()
        val __unused_0: Any = "s".asInstanceOf[java.lang.Object]
    }
}
