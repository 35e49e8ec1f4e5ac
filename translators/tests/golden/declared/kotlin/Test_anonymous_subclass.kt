package thalia.anonymous_subclass

object Test_anonymous_subclass {
    fun test() {
        val s: java.io.InputStream = (object : java.io.InputStream() { override fun read(): Int = (-1) })
        val v: java.lang.ClassValue<String> = (object : java.lang.ClassValue<String>() { override fun computeValue(c: java.lang.Class<*>): String = "v" })
        val r: java.io.FilterReader = (object : java.io.FilterReader(java.io.StringReader("text")) {  })
        val e: java.util.Enumeration<String> = (object : java.util.Enumeration<String> { override fun hasMoreElements(): Boolean = false; override fun nextElement(): String = "n" })
    }
}
