package thalia.anonymous_subclass

object Test_anonymous_subclass {
    def test(): Unit = {
        val s: java.io.InputStream = (new java.io.InputStream() { override def read(): Int = (-1) })
        val v: java.lang.ClassValue[java.lang.String] = (new java.lang.ClassValue[java.lang.String]() { override def computeValue(c: java.lang.Class[_]): java.lang.String = "v" })
        val r: java.io.FilterReader = (new java.io.FilterReader(new java.io.StringReader("text")) {  })
        val e: java.util.Enumeration[java.lang.String] = (new java.util.Enumeration[java.lang.String] { override def hasMoreElements(): Boolean = false; override def nextElement(): java.lang.String = "n" })
    }
}
