// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.curried

object Test_curried {
    def test(): Unit = {
        val curried: java.util.function.Function[java.lang.Integer, java.util.function.Function[java.lang.Integer, java.lang.Integer]] = (x) => (y) => x
    }
}
