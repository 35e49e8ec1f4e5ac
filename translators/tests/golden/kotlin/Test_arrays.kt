// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.arrays

object Test_arrays {
    fun test() {
        val ints: IntArray = intArrayOf(1, (-2), 3)
        val cs: CharArray = ("abc" as java.lang.String).toCharArray()
        val n: Int = ints.size
        val bytes: Array<out ByteArray> = arrayOf<ByteArray>(byteArrayOf(1.toByte(), (-1).toByte()), byteArrayOf())
        val longs: LongArray = longArrayOf(7L)
        val flags: BooleanArray = booleanArrayOf(true)
        val strs: Array<out String> = arrayOf<String>("a")
        val boxes: Array<out Int> = arrayOf<Int>(1)
        val lists: Array<out MutableList<String>> = arrayOf<MutableList<String>>(java.util.List.of("x"))
        val wild: Array<out MutableList<*>> = arrayOf<MutableList<*>>()
        java.util.Arrays.sort(ints)
        val copy: Array<out String> = strs.clone()
        val ds: DoubleArray = (null as DoubleArray)
        val nested: MutableList<Array<out String>> = java.util.Arrays.asList<Array<out String>>(strs)
    }
}
