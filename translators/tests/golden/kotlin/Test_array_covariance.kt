// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.array_covariance

object Test_array_covariance {
    fun test() {
        val strs: Array<out String> = arrayOf<String>("a")
        val objs: Array<out Any> = strs.clone()
        java.util.Arrays.sort(strs)
        val shown: String = java.util.Arrays.toString(objs)
    }
}
