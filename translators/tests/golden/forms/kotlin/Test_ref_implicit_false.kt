// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ref_implicit_false

object Test_ref_implicit_false {
    fun test() {
        val s: String = "abc"
        java.util.concurrent.ForkJoinTask.adapt<String>(java.util.concurrent.Callable<String>(s::toString))
    }
}
