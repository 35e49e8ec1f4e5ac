// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17
package thalia.ill_inner_class

object Test_ill_inner_class {
    def test(): Unit = {
        val aqs: java.util.concurrent.locks.AbstractQueuedSynchronizer = null.asInstanceOf[java.util.concurrent.locks.AbstractQueuedSynchronizer]
        val co: java.util.concurrent.locks.AbstractQueuedSynchronizer#ConditionObject = new aqs.ConditionObject("x")
    }
}
