// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.inner_class

object Test_inner_class {
    fun test() {
        val aqs: java.util.concurrent.locks.AbstractQueuedSynchronizer = (null as java.util.concurrent.locks.AbstractQueuedSynchronizer)
        val co: java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject = aqs.ConditionObject()
    }
}
