// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ref_implicit_false

object Test_ref_implicit_false {
    def test(): Unit = {
        val s: java.lang.String = "abc"
        java.util.concurrent.ForkJoinTask.adapt[java.lang.String]((((() => s.toString())): java.util.concurrent.Callable[java.lang.String]))
    }
}
