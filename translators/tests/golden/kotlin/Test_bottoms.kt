// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.bottoms

object Test_bottoms {
    fun test() {
        val z: Boolean = false
        val b: Byte = 0.toByte()
        val c: Char = '\u0000'
        val s: Short = 0.toShort()
        val i: Int = 0
        val j: Long = 0L
        val f: Float = 0.0f
        val d: Double = 0.0
        val str: String = (null as String)
        val wl: MutableList<out Int> = (null as MutableList<out Int>)
        val boxed: Int = (null as Int)
        val nullable: Int? = (null as Int?)
        val top: Any? = (null as Any?)
        val obj: Any = (null as Any)
        val ia: IntArray = (null as IntArray)
        val chars: String = java.lang.String.valueOf((null as CharArray))
        val sum: Int = java.lang.Integer.sum(0, 0)
        val __unused_0: Any? = (null as java.lang.Thread)
        val after: String = str
    }
}
