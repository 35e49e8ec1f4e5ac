package thalia.type_alias

private typealias Declared0<T0, T1> = java.util.HashMap<T0, T1>
private typealias Declared1 = java.lang.StringBuilder
private typealias Declared2<T0> = java.util.Comparator<T0>
private typealias Declared3<T0> = MutableList<T0>

object Test_type_alias {
    fun test() {
        val m: Declared0<String, Int> = java.util.HashMap<String, Int>()
        val n: Declared0<Int, String> = java.util.HashMap()
        val b: Declared1 = java.lang.StringBuilder()
        val o: Declared1? = null
        val c: Declared2<String> = (object : java.util.Comparator<String> { override fun compare(x: String, y: String): Int = 3 })
        val w: MutableList<out Number> = java.util.Collections.emptyList()
    }
}
