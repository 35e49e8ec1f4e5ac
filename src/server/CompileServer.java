// thalia's warm compile server: one long-lived JVM that runs a compiler's in-process entry point
// once per request, so that a batch does not pay the JVM's start-up and warm-up.
//
// Protocol (stdin/stdout, UTF-8, one JSON object per line):
//   request:  {"id": N, "entry": "<how to call the compiler>", "main": "<its main class>", "args": ["..."]}
//   entries (thalia's `profile::ServerEntry`): cli-compiler-exec (`new MAIN().exec(err, args)`,
//   kotlinc), scala-process (the Scala object MAIN's `process(args)`, scalac 3 and 2),
//   groovy-command-line (`MAIN.commandLineCompile(args, true)`, groovyc), system-java-compiler
//   (javax.tools, javac)
//   response: {"id": N, "exit": <int>, "output": "<stdout then stderr of the call>", "heap_mb": <used heap>}
// Coverage entries (JaCoCo's runtime API, called reflectively: the server runs without JaCoCo too;
// exit 2 and a message when no agent is attached): jacoco-dump (args [FILE]: writes the agent's
// execution data to FILE, through a rename, resets it and forgets the exit file), jacoco-exit-file
// (args [FILE] or []: the file the data is written to when stdin closes, or none).
// Exit codes: 0 success, 1 compilation errors, 2 internal error (kotlinc), 3 a Throwable escaped
// (the output then holds its stack trace). The server exits when stdin closes.
//
// Compilers are loaded reflectively from the classpath, so this one class serves every compiler and
// compiles with `javac --release 17` and no dependencies.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

public final class CompileServer {
    /** Where System.out / System.err currently go: swapped per request. */
    private static final class Switch extends OutputStream {
        volatile ByteArrayOutputStream target = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            target.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            target.write(b, off, len);
        }
    }

    private static final Switch OUT = new Switch();
    private static final Switch ERR = new Switch();
    private static PrintStream sysOut;
    private static PrintStream sysErr;
    /** Where the coverage agent's data goes when stdin closes (`jacoco-exit-file`), if anywhere. */
    private static String exitFile;

    public static void main(String[] argv) throws Exception {
        BufferedWriter reply = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // installed once, before any compiler class is loaded: Scala's Console captures the
        // streams it sees first, so they must stay the same objects for the server's lifetime
        sysOut = new PrintStream(OUT, true, StandardCharsets.UTF_8);
        sysErr = new PrintStream(ERR, true, StandardCharsets.UTF_8);
        System.setOut(sysOut);
        System.setErr(sysErr);
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            long id = -1;
            int exit;
            String output;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            OUT.target = out;
            ERR.target = err;
            try {
                Request req = new Json(line).request();
                id = req.id;
                exit = run(req.entry, req.main, req.args.toArray(new String[0]));
            } catch (Throwable t) {
                exit = 3;
                sysErr.print("Exception in thread \"main\" ");
                t.printStackTrace(sysErr);
            }
            sysOut.flush();
            sysErr.flush();
            output = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
            OUT.target = new ByteArrayOutputStream();
            ERR.target = new ByteArrayOutputStream();
            Runtime rt = Runtime.getRuntime();
            long heapMb = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
            StringBuilder sb = new StringBuilder();
            sb.append("{\"id\": ").append(id).append(", \"exit\": ").append(exit).append(", \"output\": ");
            quote(sb, output);
            sb.append(", \"heap_mb\": ").append(heapMb).append('}');
            try {
                reply.write(sb.toString());
                reply.write('\n');
                reply.flush();
            } catch (java.io.IOException gone) {
                // thalia is gone (killed): keep the coverage, then exit
                break;
            }
        }
        // stdin closed: the coverage data since the last dump, then exit, running the shutdown
        // hooks (an agent with dumponexit writes its data)
        if (exitFile != null) {
            try {
                dump(exitFile, false);
            } catch (Throwable t) {
                // nobody is listening any more
            }
        }
        System.exit(0);
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Calls a Scala object's method: the static forwarder if any, else through MODULE$. */
    private static Object scalaObject(String cls, String method, String[] args) throws Throwable {
        ClassLoader cl = CompileServer.class.getClassLoader();
        try {
            Class<?> module = Class.forName(cls + "$", true, cl);
            Object instance = module.getField("MODULE$").get(null);
            Method m = module.getMethod(method, String[].class);
            return m.invoke(instance, (Object) args);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
    }

    /** Signals that no JaCoCo agent is attached to this JVM. */
    private static final class NoAgent extends Exception {
        NoAgent() {
            super("no JaCoCo agent is attached to this compile server (its JVM needs "
                    + "-javaagent:org.jacoco.agent-runtime.jar)");
        }
    }

    /** Writes the agent's execution data to `file` (aside, then renamed), resetting it if asked. */
    private static void dump(String file, boolean reset) throws Throwable {
        Object agent;
        Method data;
        try {
            Class<?> rt = Class.forName("org.jacoco.agent.rt.RT");
            Class<?> iagent = Class.forName("org.jacoco.agent.rt.IAgent");
            agent = rt.getMethod("getAgent").invoke(null);
            data = iagent.getMethod("getExecutionData", boolean.class);
        } catch (ClassNotFoundException | InvocationTargetException e) {
            // no agent class, or RT.getAgent's IllegalStateException: not started
            throw new NoAgent();
        }
        byte[] bytes;
        try {
            bytes = (byte[]) data.invoke(agent, reset);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
        Path target = Paths.get(file);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static int run(String entry, String main, String[] args) throws Throwable {
        ClassLoader cl = CompileServer.class.getClassLoader();
        switch (entry) {
            case "jacoco-dump": {
                if (args.length != 1) {
                    sysErr.println("error: jacoco-dump takes one file");
                    return 2;
                }
                try {
                    dump(args[0], true);
                } catch (NoAgent e) {
                    sysErr.println("error: " + e.getMessage());
                    return 2;
                }
                exitFile = null;
                return 0;
            }
            case "jacoco-exit-file": {
                exitFile = args.length > 0 ? args[0] : null;
                return 0;
            }
            case "cli-compiler-exec": {
                Class<?> c = Class.forName(main, true, cl);
                Object compiler = c.getConstructor().newInstance();
                Method exec = c.getMethod("exec", PrintStream.class, String[].class);
                Object code;
                try {
                    code = exec.invoke(compiler, sysErr, (Object) args);
                } catch (InvocationTargetException e) {
                    throw unwrap(e);
                }
                try {
                    return (Integer) code.getClass().getMethod("getCode").invoke(code);
                } catch (NoSuchMethodException e) {
                    switch (((Enum<?>) code).name()) {
                        case "OK":
                            return 0;
                        case "COMPILATION_ERROR":
                            return 1;
                        default:
                            return 2;
                    }
                }
            }
            case "scala-process": {
                Object result = scalaObject(main, "process", args);
                // scalac 2: success; scalac 3: the reporter
                if (result instanceof Boolean) {
                    return (Boolean) result ? 0 : 1;
                }
                boolean errors = (Boolean) result.getClass().getMethod("hasErrors").invoke(result);
                return errors ? 1 : 0;
            }
            case "groovy-command-line": {
                Class<?> c = Class.forName(main, true, cl);
                Method m = c.getMethod("commandLineCompile", String[].class, boolean.class);
                try {
                    m.invoke(null, (Object) args, true);
                    return 0;
                } catch (InvocationTargetException e) {
                    Throwable t = unwrap(e);
                    Class<?> failed = Class.forName(
                            "org.codehaus.groovy.control.CompilationFailedException", true, cl);
                    // report it the way groovyc's own main does, so the output is the same
                    try {
                        Class<?> rep = Class.forName("org.codehaus.groovy.tools.ErrorReporter", true, cl);
                        Object r = rep.getConstructor(Throwable.class, boolean.class).newInstance(t, false);
                        rep.getMethod("write", PrintStream.class).invoke(r, sysErr);
                    } catch (ReflectiveOperationException noReporter) {
                        if (failed.isInstance(t)) {
                            sysErr.println(t.getMessage());
                        } else {
                            t.printStackTrace(sysErr);
                        }
                    }
                    return failed.isInstance(t) ? 1 : 3;
                }
            }
            case "system-java-compiler": {
                List<String> kept = new ArrayList<>();
                for (String a : args) {
                    // launcher options (`-J-Duser.language=en`): the server JVM already has them
                    if (!a.startsWith("-J")) {
                        kept.add(a);
                    }
                }
                javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
                if (javac == null) {
                    sysErr.println("error: no system Java compiler (is this a JRE?)");
                    return 2;
                }
                return javac.run(null, sysOut, sysErr, kept.toArray(new String[0]));
            }
            default:
                sysErr.println("error: unknown compiler entry `" + entry + "`");
                return 2;
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static final class Request {
        long id = -1;
        String entry = "";
        String main = "";
        List<String> args = new ArrayList<>();
    }

    /** A reader for exactly the request shape: an object of a number, two strings, a string array. */
    private static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Request request() {
            Request r = new Request();
            expect('{');
            ws();
            if (peek() == '}') {
                i++;
                return r;
            }
            while (true) {
                ws();
                String key = string();
                ws();
                expect(':');
                ws();
                switch (key) {
                    case "id":
                        r.id = number();
                        break;
                    case "entry":
                        r.entry = string();
                        break;
                    case "main":
                        r.main = string();
                        break;
                    case "args":
                        expect('[');
                        ws();
                        if (peek() == ']') {
                            i++;
                        } else {
                            while (true) {
                                ws();
                                r.args.add(string());
                                ws();
                                char c = next();
                                if (c == ']') {
                                    break;
                                }
                                if (c != ',') {
                                    throw error("`,` or `]`");
                                }
                            }
                        }
                        break;
                    default:
                        throw error("a key among id, entry, main, args");
                }
                ws();
                char c = next();
                if (c == '}') {
                    return r;
                }
                if (c != ',') {
                    throw error("`,` or `}`");
                }
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad request at " + i + ": expected " + what + " in " + s);
        }

        private char peek() {
            if (i >= s.length()) {
                throw error("more input");
            }
            return s.charAt(i);
        }

        private char next() {
            char c = peek();
            i++;
            return c;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private void expect(char c) {
            ws();
            if (next() != c) {
                i--;
                throw error("`" + c + "`");
            }
        }

        private long number() {
            int start = i;
            if (peek() == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            return Long.parseLong(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        b.append(e);
                        break;
                    case 'b':
                        b.append('\b');
                        break;
                    case 'f':
                        b.append('\f');
                        break;
                    case 'n':
                        b.append('\n');
                        break;
                    case 'r':
                        b.append('\r');
                        break;
                    case 't':
                        b.append('\t');
                        break;
                    case 'u':
                        if (i + 4 > s.length()) {
                            throw error("four hex digits");
                        }
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default:
                        throw error("an escape");
                }
            }
        }
    }

    private CompileServer() {}
}
