// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.keywords

object Test_keywords {
    fun test() {
        val `val`: java.io.InputStream = java.lang.System.`in`
        val `object`: java.lang.invoke.MethodHandles.Lookup = java.lang.invoke.MethodHandles.lookup().`in`((null as java.lang.Class<String>))
        val type: java.lang.invoke.MethodType = (null as java.lang.invoke.MethodHandle).type()
        java.lang.Thread.yield()
        val `fun`: Int = 1
        val `when`: Int = `fun`
        val match: Int = `when`
        val given: Int = match
        val then: java.util.function.IntUnaryOperator = java.util.function.IntUnaryOperator { `is` -> `is` }
        val `dollar$`: Int = then.applyAsInt(given)
    }
}
