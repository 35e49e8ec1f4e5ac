// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.mapped_members

object Test_mapped_members {
    def test(): Unit = {
        val s: java.lang.String = "a,b"
        val n: Int = s.length()
        val c: Char = s.charAt((0: Int))
        val parts: Array[java.lang.String] = s.split(",")
        val bytes: Array[Byte] = s.getBytes()
        val upper: java.lang.String = s.toUpperCase()
        val same: Boolean = s.equals(upper)
        val boxed: java.lang.Integer = 7
        val iv: Long = boxed.longValue()
        val num: java.lang.Number = boxed
        val dv: Double = num.doubleValue()
        val sb: java.lang.StringBuilder = new java.lang.StringBuilder()
        val sbl: Int = sb.length()
        val list: java.util.ArrayList[java.lang.String] = new java.util.ArrayList[java.lang.String]()
        val size: Int = list.size()
        val arr: Array[java.lang.Object] = list.toArray()
        val map: java.util.Map[java.lang.String, java.lang.Integer] = new java.util.HashMap()
        val keys: java.util.Set[java.lang.String] = map.keySet()
        val values: java.util.Collection[java.lang.Integer] = map.values()
        val entries: java.util.Set[java.util.Map.Entry[java.lang.String, java.lang.Integer]] = map.entrySet()
        val entry: java.util.Map.Entry[java.lang.String, java.lang.Integer] = java.util.Map.entry("k", (1: Int))
        val value: java.lang.Integer = entry.getValue()
        val error: java.lang.IllegalStateException = new java.lang.IllegalStateException("boom")
        val msg: java.lang.String = error.getMessage()
        val cause: java.lang.Throwable = error.getCause()
        val cls: java.lang.Class[_ <: java.lang.Object] = list.getClass()
        list.notifyAll()
        val alen: Int = parts.length
        val thread: java.lang.String = java.lang.Thread.currentThread().getName()
    }
}
