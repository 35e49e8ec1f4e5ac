// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.generic_test

object Test_generic_test {
    def test[T <: java.lang.CharSequence with java.lang.Comparable[T], U, V <: java.lang.Number](): Unit = {
        val t: T = null.asInstanceOf[T]
        val n: Int = t.length()
        val c: Int = t.compareTo(t)
        val u: U = null.asInstanceOf[U]
        val l: java.util.List[T] = java.util.Collections.singletonList(t)
    }
}
