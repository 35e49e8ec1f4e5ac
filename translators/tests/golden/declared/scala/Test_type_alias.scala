package thalia.type_alias

object Test_type_alias {
    type Declared0[T0, T1] = java.util.HashMap[T0, T1]
    type Declared1 = java.lang.StringBuilder
    type Declared2[T0] = java.util.Comparator[T0]
    type Declared3[T0] = java.util.List[T0]
    def test(): Unit = {
        val m: Declared0[java.lang.String, java.lang.Integer] = new java.util.HashMap[java.lang.String, java.lang.Integer]()
        val n: Declared0[java.lang.Integer, java.lang.String] = new java.util.HashMap()
        val b: Declared1 = new java.lang.StringBuilder()
        val o: java.lang.StringBuilder = null
        val c: Declared2[java.lang.String] = (new java.util.Comparator[java.lang.String] { override def compare(x: java.lang.String, y: java.lang.String): Int = 3 })
        val w: java.util.List[? <: java.lang.Number] = java.util.Collections.emptyList()
    }
}
