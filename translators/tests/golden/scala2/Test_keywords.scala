// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.keywords

object Test_keywords {
    def test(): Unit = {
        val `val`: java.io.InputStream = java.lang.System.in
        val `object`: java.lang.invoke.MethodHandles.Lookup = java.lang.invoke.MethodHandles.lookup().in(null.asInstanceOf[java.lang.Class[java.lang.String]])
        val `type`: java.lang.invoke.MethodType = (null.asInstanceOf[java.lang.invoke.MethodHandle]).`type`()
        java.lang.Thread.`yield`()
        val fun: Int = 1
        val when: Int = fun
        val `match`: Int = when
        val `given`: Int = `match`
        val `then`: java.util.function.IntUnaryOperator = (is) => is
        val dollar$: Int = `then`.applyAsInt(`given`)
    }
}
