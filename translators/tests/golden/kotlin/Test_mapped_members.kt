// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.mapped_members

object Test_mapped_members {
    fun test() {
        val s: String = "a,b"
        val n: Int = s.length
        val c: Char = s.get(0)
        val parts: Array<out String> = (s as java.lang.String).split(",")
        val bytes: ByteArray = (s as java.lang.String).getBytes()
        val upper: String = (s as java.lang.String).toUpperCase()
        val same: Boolean = s.equals(upper)
        val boxed: Int = 7
        val iv: Long = boxed.toLong()
        val num: Number = boxed
        val dv: Double = num.toDouble()
        val sb: java.lang.StringBuilder = java.lang.StringBuilder()
        val sbl: Int = sb.length
        val list: java.util.ArrayList<String> = java.util.ArrayList<String>()
        val size: Int = list.size
        val arr: Array<out Any> = (list as java.util.Collection<*>).toArray()
        val map: MutableMap<String, Int> = java.util.HashMap()
        val keys: MutableSet<String> = map.keys
        val values: MutableCollection<Int> = map.values
        val entries: MutableSet<MutableMap.MutableEntry<String, Int>> = map.entries
        val entry: MutableMap.MutableEntry<String, Int> = java.util.Map.entry("k", 1)
        val value: Int = entry.value
        val error: java.lang.IllegalStateException = java.lang.IllegalStateException("boom")
        val msg: String = (error as java.lang.Throwable).getMessage()
        val cause: Throwable = (error as java.lang.Throwable).getCause()
        val cls: java.lang.Class<out Any> = list.javaClass
        (list as java.lang.Object).notifyAll()
        val alen: Int = parts.size
        val thread: String = java.lang.Thread.currentThread().getName()
    }
}
