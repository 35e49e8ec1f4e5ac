// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ref_constructor

object Test_ref_constructor {
    def test(): Unit = {
        val fresh: java.util.function.Supplier[java.util.List[java.lang.String]] = (() => new java.util.ArrayList())
        val sized: java.util.function.Function[java.lang.Integer, java.util.List[java.lang.String]] = (new java.util.ArrayList[java.lang.String](_: java.lang.Integer))
        val sb: java.util.function.Function[java.lang.String, java.lang.StringBuilder] = (new java.lang.StringBuilder(_: java.lang.String))
        val obj: java.util.function.Supplier[java.lang.Object] = (() => new java.lang.Object())
    }
}
