// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17
package thalia.ill_inner_class

object Test_ill_inner_class {
    def test(): Unit = {
        val aqs: java.util.concurrent.locks.AbstractQueuedSynchronizer = null.asInstanceOf[java.util.concurrent.locks.AbstractQueuedSynchronizer]
        val co: java.util.concurrent.locks.AbstractQueuedSynchronizer#ConditionObject = new aqs.ConditionObject("x")
    }
}
