package thalia.anonymous_mapped

object Test_anonymous_mapped {
    def test(): Unit = {
        val l: java.util.Collection[java.lang.String] = (new java.util.AbstractList[java.lang.String]() { override def get(i: Int): java.lang.String = "g"; override def size(): Int = 0 })
        val n: java.lang.Number = (new java.lang.Number() { override def intValue(): Int = 1; override def longValue(): Long = 2; override def floatValue(): Float = 3.0f; override def doubleValue(): Double = 4.0d; override def byteValue(): Byte = 5; override def shortValue(): Short = 6 })
        val c: java.lang.CharSequence = (new java.lang.CharSequence { override def length(): Int = 0; override def charAt(i: Int): Char = 'a'; override def subSequence(a: Int, b: Int): java.lang.CharSequence = "s" })
        val it: java.util.Iterator[java.lang.String] = (new java.util.Iterator[java.lang.String] { override def hasNext(): Boolean = false; override def next(): java.lang.String = "x"; override def remove(): Unit = () })
        val e: java.util.Map.Entry[java.lang.String, java.lang.Integer] = (new java.util.Map.Entry[java.lang.String, java.lang.Integer] { override def getKey(): java.lang.String = "k"; override def getValue(): java.lang.Integer = 1; override def setValue(v: java.lang.Integer): java.lang.Integer = v })
    }
}
