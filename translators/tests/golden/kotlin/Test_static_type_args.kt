// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17
package thalia.static_type_args

object Test_static_type_args {
    fun test() {
        val empty: MutableList<String> = java.util.Collections.emptyList<String>()
        val map: MutableMap<String, Int> = java.util.Collections.emptyMap<String, Int>()
        val lens: java.util.stream.Stream<Int> = empty.stream().map<Int>({ s -> java.util.Objects.hashCode(s) })
        val opt: java.util.Optional<MutableList<out Number>> = java.util.Optional.of<MutableList<out Number>>(java.util.List.of<Int>(1))
    }
}
