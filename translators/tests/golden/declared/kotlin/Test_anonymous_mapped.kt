package thalia.anonymous_mapped

object Test_anonymous_mapped {
    fun test() {
        val l: MutableCollection<String> = (object : java.util.AbstractList<String>() { override fun get(i: Int): String = "g"; override val size: Int get() = 0 })
        val n: Number = (object : Number() { override fun toInt(): Int = 1; override fun toLong(): Long = 2; override fun toFloat(): Float = 3.0f; override fun toDouble(): Double = 4.0; override fun toByte(): Byte = 5; override fun toShort(): Short = 6 })
        val c: CharSequence = (object : CharSequence { override val length: Int get() = 0; override fun get(i: Int): Char = 'a'; override fun subSequence(a: Int, b: Int): CharSequence = "s" })
        val it: MutableIterator<String> = (object : MutableIterator<String> { override fun hasNext(): Boolean = false; override fun next(): String = "x"; override fun remove() {} })
        val e: MutableMap.MutableEntry<String, Int> = (object : MutableMap.MutableEntry<String, Int> { override val key: String get() = "k"; override val value: Int get() = 1; override fun setValue(v: Int): Int = v })
    }
}
