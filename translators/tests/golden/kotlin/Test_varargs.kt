// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.varargs

object Test_varargs {
    fun test() {
        val abc: MutableList<String> = java.util.Arrays.asList("a", "b", "c")
        val s: String = java.lang.String.format("%s-%d-%c", "x", 1, 'c')
        val units: java.util.EnumSet<java.util.concurrent.TimeUnit> = java.util.EnumSet.of(java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MINUTES, java.util.concurrent.TimeUnit.HOURS)
        java.util.Collections.addAll(java.util.ArrayList<String>(), "d", "e")
        val none: MutableList<String> = java.util.Arrays.asList<String>()
        val strs: Array<out String> = arrayOf<String>("a", "b")
        val spread: MutableList<String> = java.util.Arrays.asList(*strs)
        val joined: String = java.lang.String.join(",", *strs)
        val ints: java.util.stream.IntStream = java.util.stream.IntStream.of(*intArrayOf(1, 2))
    }
}
