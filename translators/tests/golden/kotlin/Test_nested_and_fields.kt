// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.nested_and_fields

object Test_nested_and_fields {
    fun test() {
        val entry: MutableMap.MutableEntry<String, Int> = java.util.AbstractMap.SimpleEntry("k", 1)
        val key: String = entry.key
        val state: java.lang.Thread.State = java.lang.Thread.State.NEW
        val max: Int = java.lang.Integer.MAX_VALUE
        val point: java.awt.Point = java.awt.Point(1, 2)
        val px: Int = point.x
        val __unused_0: Any? = point.y
        val small: MutableMap<String, Int> = java.util.Map.of<String, Int>("a", 1)
        val entries: MutableSet<out MutableMap.MutableEntry<String, out Int>> = small.entries
        val simple: java.util.AbstractMap.SimpleImmutableEntry<String, String> = java.util.AbstractMap.SimpleImmutableEntry<String, String>("a", "b")
    }
}
