// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.literals

object Test_literals {
    fun test() {
        val t: Boolean = true
        val i: Int = (-2147483647 - 1)
        val imax: Int = 2147483647
        val l: Long = (-9223372036854775807L - 1L)
        val lneg: Long = (-5L)
        val f: Float = (-1.5e-7f)
        val fmin: Float = 1e-45f
        val fnan: Float = kotlin.Float.NaN
        val d: Double = 0.1
        val dbig: Double = 1e300
        val dinf: Double = kotlin.Double.NEGATIVE_INFINITY
        val by: Byte = (-128).toByte()
        val sh: Short = (-300).toShort()
        val quote: Char = '\''
        val nul: Char = '\u0000'
        val euro: Char = '\u20AC'
        val str: String = "tab\tnl\nq\"bs\\nul\u00007 \u00E9 \uD83D\uDE00 \\u000a \$x \${y} '"
        val nothing: String = (null as String)
        val noInt: Int = (null as Int)
        val neg: Int = ((-1) as Int)
        val wide: Long = (3).toLong()
        val code: Int = euro.code
        val ch: Char = code.toChar()
        val narrow: Byte = imax.toByte()
        val pick: Int = (if (t) 1 else 2)
        val len: Int = "abc".length
        val text: String = (3).toString()
        val __unused_0: Any? = ("s" as Any)
    }
}
