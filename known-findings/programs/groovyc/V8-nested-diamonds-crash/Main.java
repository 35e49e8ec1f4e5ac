public class Main { static void test() { new java.lang.ref.WeakReference<>(new java.util.LinkedList<>(), new java.lang.ref.ReferenceQueue<>()); } }
