@groovy.transform.CompileStatic
class Main { static void test() { java.text.AttributedCharacterIterator it = new java.text.AttributedString('a').getIterator(); Object o = it.clone() } }
