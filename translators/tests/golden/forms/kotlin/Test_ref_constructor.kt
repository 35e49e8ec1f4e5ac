// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17
package thalia.ref_constructor

import java.util.ArrayList as ArrayList_
import java.lang.StringBuilder as StringBuilder_
private typealias ArrayList_2 = java.util.ArrayList<String>

object Test_ref_constructor {
    fun test() {
        val fresh: java.util.function.Supplier<MutableList<String>> = java.util.function.Supplier<MutableList<String>>(::ArrayList_)
        val sized: java.util.function.Function<Int, MutableList<String>> = java.util.function.Function<Int, MutableList<String>>(::ArrayList_2)
        val sb: java.util.function.Function<String, java.lang.StringBuilder> = java.util.function.Function<String, java.lang.StringBuilder>(::StringBuilder_)
        val obj: java.util.function.Supplier<Any> = java.util.function.Supplier<Any>(::Any)
    }
}
