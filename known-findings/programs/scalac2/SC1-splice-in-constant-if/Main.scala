object Main { def test(arr: Array[String]): Seq[String] = if (true) List(arr: _*) else Nil }
