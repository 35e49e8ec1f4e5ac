// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_generic_test

object Test_ill_generic_test {
    def test[T <: java.lang.CharSequence](): Unit = {
        val t: T = null.asInstanceOf[T]
        val s: java.lang.String = t
    }
}
