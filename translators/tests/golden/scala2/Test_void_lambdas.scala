// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.void_lambdas

object Test_void_lambdas {
    def test(): Unit = {
        val ignore: java.util.function.Consumer[java.lang.String] = (s) => ()
        val names: java.util.ArrayList[java.lang.String] = new java.util.ArrayList()
        names.forEach((n) => ())
        names.forEach(ignore)
        val both: java.util.function.BiConsumer[java.lang.String, java.lang.Integer] = (k: java.lang.String, v: java.lang.Integer) => ()
        val noop: java.lang.Runnable = () => ()
        val add: java.util.function.Consumer[java.lang.String] = (s) => names.add(s)
    }
}
