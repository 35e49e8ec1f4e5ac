// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_generic_test

object Test_ill_generic_test {
    def test[T <: java.lang.CharSequence](): Unit = {
        val t: T = null.asInstanceOf[T]
        val s: java.lang.String = t
    }
}
