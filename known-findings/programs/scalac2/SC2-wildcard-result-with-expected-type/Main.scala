object Main { def test(a0: java.util.function.BinaryOperator[String]): Unit = { val res: Object = java.util.stream.Collectors.reducing(a0) } }
