public class Main { static java.util.List<String> test(String[] arr) { return true ? java.util.List.of(arr) : java.util.List.of(); } }
