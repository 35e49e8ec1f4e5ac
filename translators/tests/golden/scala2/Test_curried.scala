// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.curried

object Test_curried {
    def test(): Unit = {
        val curried: java.util.function.Function[java.lang.Integer, java.util.function.Function[java.lang.Integer, java.lang.Integer]] = (x) => (y) => x
    }
}
