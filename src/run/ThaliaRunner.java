import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * thalia's program runner: runs the test method of each program of a batch, each in a class
 * loader of its own (its classes over a loader shared by the batch: the language runtime and
 * the API's jars), and prints one line per program: `@@thalia-run {"id":..,"event":"start"}`
 * before it, and its outcome after it (normal, or the exception's class, the program's top
 * frame, the call it came from and the message). A program that runs past its time is
 * reported and the JVM halts: the caller runs the rest of the batch in a fresh JVM.
 *
 * Usage: ThaliaRunner JOBS TIMEOUT_MS SHARED_CLASSPATH; JOBS has one program a line:
 * id TAB classes-directory TAB class-name.
 */
public final class ThaliaRunner {
    private static final String MARK = "@@thalia-run ";
    private static PrintStream out;

    public static void main(String[] args) throws Exception {
        out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(sink);
        System.setErr(sink);
        List<String> lines = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
        long timeout = Long.parseLong(args[1]);
        List<URL> shared = new ArrayList<>();
        if (args.length > 2) {
            for (String p : args[2].split(File.pathSeparator)) {
                if (!p.isEmpty()) shared.add(new File(p).toURI().toURL());
            }
        }
        ClassLoader base = new URLClassLoader(shared.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length < 3) continue;
            String id = f[0];
            out.println(MARK + "{\"id\":" + str(id) + ",\"event\":\"start\"}");
            URLClassLoader loader = new URLClassLoader(new URL[] {new File(f[1]).toURI().toURL()}, base);
            String result = runOne(loader, f[2], timeout);
            out.println(MARK + "{\"id\":" + str(id) + "," + result + "}");
            if (result.startsWith("\"outcome\":\"timeout\"")) {
                out.flush();
                Runtime.getRuntime().halt(0);
            }
        }
        out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static String runOne(ClassLoader loader, String className, long timeout) {
        String pkg = className.contains(".") ? className.substring(0, className.lastIndexOf('.') + 1) : null;
        FutureTask<Object> task = new FutureTask<>(() -> {
            Thread.currentThread().setContextClassLoader(loader);
            Object[] target = target(loader, className);
            ((Method) target[0]).invoke(target[1]);
            return null;
        });
        Thread t = new Thread(task, "thalia-program");
        t.setDaemon(true);
        t.start();
        try {
            task.get(timeout, TimeUnit.MILLISECONDS);
            return "\"outcome\":\"normal\"";
        } catch (TimeoutException e) {
            return "\"outcome\":\"timeout\"";
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof InvocationTargetException && c.getCause() != null) c = c.getCause();
            if (c instanceof NoTest) return "\"outcome\":\"no-test\",\"message\":" + str(c.getMessage());
            return thrown(c, className, pkg);
        } catch (InterruptedException e) {
            return "\"outcome\":\"timeout\"";
        }
    }

    private static final class NoTest extends Exception {
        NoTest(String m) { super(m); }
    }

    /** The test method and its receiver (null: static; a Kotlin object's INSTANCE; a Scala object's MODULE$). */
    private static Object[] target(ClassLoader loader, String className) throws Exception {
        Class<?> c = Class.forName(className, true, loader);
        for (Method m : c.getDeclaredMethods()) {
            if (!m.getName().equals("test") || m.getParameterCount() != 0) continue;
            m.setAccessible(true);
            if (Modifier.isStatic(m.getModifiers())) return new Object[] {m, null};
            for (String holder : new String[] {"INSTANCE", "MODULE$"}) {
                try {
                    Field f = c.getDeclaredField(holder);
                    f.setAccessible(true);
                    return new Object[] {m, f.get(null)};
                } catch (NoSuchFieldException ignored) {
                }
            }
        }
        try {
            Class<?> module = Class.forName(className + "$", true, loader);
            Method m = module.getDeclaredMethod("test");
            m.setAccessible(true);
            Field f = module.getDeclaredField("MODULE$");
            return new Object[] {m, f.get(null)};
        } catch (ClassNotFoundException | NoSuchMethodException | NoSuchFieldException e) {
            throw new NoTest("no test method in " + className);
        }
    }

    private static boolean inProgram(String cls, String className, String pkg) {
        return pkg != null ? cls.startsWith(pkg) : (cls.equals(className) || cls.startsWith(className + "$"));
    }

    private static String thrown(Throwable c, String className, String pkg) {
        StackTraceElement[] st = c.getStackTrace();
        String frame = null, call = null;
        for (int i = 0; i < st.length; i++) {
            if (inProgram(st[i].getClassName(), className, pkg)) {
                frame = st[i].getClassName() + "." + st[i].getMethodName() + ":" + st[i].getLineNumber();
                if (i > 0) call = st[i - 1].getClassName() + "." + st[i - 1].getMethodName();
                break;
            }
        }
        String msg = c.getMessage();
        Throwable cause = c.getCause();
        String causeClass = cause != null && cause != c ? cause.getClass().getName() : null;
        if (causeClass != null) {
            String tail = "caused by " + cause.getClass().getName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
            msg = msg == null ? tail : msg + " (" + tail + ")";
        }
        if (msg != null && msg.length() > 500) msg = msg.substring(0, 500);
        return "\"outcome\":\"exception\",\"class\":" + str(c.getClass().getName())
            + ",\"frame\":" + str(frame) + ",\"call\":" + str(call) + ",\"cause\":" + str(causeClass)
            + ",\"message\":" + str(msg);
    }

    private static String str(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
                    else b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}
