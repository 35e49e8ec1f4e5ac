// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.inner_class

object Test_inner_class {
    def test(): Unit = {
        val aqs: java.util.concurrent.locks.AbstractQueuedSynchronizer = null.asInstanceOf[java.util.concurrent.locks.AbstractQueuedSynchronizer]
        val co: java.util.concurrent.locks.AbstractQueuedSynchronizer#ConditionObject = new aqs.ConditionObject()
    }
}
