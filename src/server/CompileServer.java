// thalia's warm compile server: one long-lived JVM that runs a compiler's in-process entry point
// once per request, so that a batch does not pay the JVM's start-up and warm-up.
//
// Protocol (stdin/stdout, UTF-8, one JSON object per line):
//   request:  {"id": N, "entry": "<how to call the compiler>", "main": "<its main class>",
//              "args": ["..."], "plan": "<how to judge the files>", "files": K}
//   entries (thalia's `profile::ServerEntry`): cli-compiler-exec (`new MAIN().exec(err, args)`,
//   kotlinc), scala-process (the Scala object MAIN's `process(args)`, scalac 3 and 2),
//   groovy-command-line (`MAIN.commandLineCompile(args, true)`, groovyc), system-java-compiler
//   (javax.tools, javac)
//   plans (thalia's `profile::RunPlan`; the last K args are the source files): "" (one run on
//   all args), "together" (one run on every file, then, while it failed with errors only, a run
//   on the files its errors do not name, which still need code generation), "apart" (one
//   compilation of every file; when it failed with errors, each file its errors do not name a
//   compilation of its own, one after another; groovyc: one CompilationUnit per compilation,
//   sharing the batch's class loader and class-node cache as one groovyc run shares them
//   between its files)
//   response: {"id": N, "exit": <int>, "output": "<stdout then stderr of the call>",
//              "heap_mb": <used heap>, "max_heap_mb": <Runtime.maxMemory()>, "nanos": <wall time of the compiler's work>,
//              "cpu_nanos": <this JVM's CPU time during it, -1 if unknown>}
//   With a plan, the output is one section per compiler run, in the order they ran:
//     \u001ethalia-run exit=<code> files=<n>      (then the n files, a line each)
//     <what the compiler printed>
//     \u001ethalia-end
// Coverage entries (JaCoCo's runtime API, called reflectively: the server runs without JaCoCo too;
// exit 2 and a message when no agent is attached): jacoco-dump (args [FILE]: writes the agent's
// execution data to FILE, through a rename, resets it and forgets the exit file), jacoco-exit-file
// (args [FILE] or []: the file the data is written to when stdin closes, or none).
// Exit codes: 0 success, 1 compilation errors, 2 internal error (kotlinc), 3 a Throwable escaped
// (the output then holds its stack trace). The server exits when stdin closes.
//
// One-shot driver (thalia's process mode): `CompileServer --once ENTRY MAIN PLAN K ARGS...` runs
// one such request in a fresh JVM and writes `\u001ethalia-driver 1`, then each section to
// stdout as soon as its run ends (a run killed by a timeout leaves the sections before it whole),
// and exits 0 when every run succeeded, else 1. When the entry cannot call the compiler (no such
// method) it writes `\u001ethalia-driver-unusable <why>` instead and exits 2.
//
// Compilers are loaded reflectively from the classpath, so this one class serves every compiler and
// compiles with `javac --release 17` and no dependencies.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.File;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        // installed once, before any compiler class is loaded: Scala's Console captures the
        // streams it sees first, so they must stay the same objects for the server's lifetime
        sysOut = new PrintStream(OUT, true, StandardCharsets.UTF_8);
        sysErr = new PrintStream(ERR, true, StandardCharsets.UTF_8);
        System.setOut(sysOut);
        System.setErr(sysErr);
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        if (argv.length > 0 && argv[0].equals("--once")) {
            System.exit(once(argv, reply));
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String next;
        while ((next = in.readLine()) != null) {
            final String line = next;
            if (line.isBlank()) {
                continue;
            }
            long id = -1;
            int exit;
            String output;
            long started = System.nanoTime();
            long cpuStarted = processCpuNanos();
            Request req;
            try {
                req = new Json(line).request();
                id = req.id;
            } catch (Throwable t) {
                req = null;
            }
            if (req != null && !req.plan.isEmpty()) {
                StringBuilder sections = new StringBuilder();
                exit = plan(req, section -> sections.append(section));
                output = sections.toString();
            } else {
                Captured c = capture(() -> {
                    if (line.isBlank()) {
                        return 0;
                    }
                    Request r = new Json(line).request();
                    return run(r.entry, r.main, r.args.toArray(new String[0]));
                });
                exit = c.exit;
                output = c.output;
            }
            long nanos = System.nanoTime() - started;
            long cpuEnded = processCpuNanos();
            long cpuNanos = cpuStarted < 0 || cpuEnded < 0 ? -1 : cpuEnded - cpuStarted;
            Runtime rt = Runtime.getRuntime();
            long heapMb = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
            StringBuilder sb = new StringBuilder();
            sb.append("{\"id\": ").append(id).append(", \"exit\": ").append(exit).append(", \"output\": ");
            quote(sb, output);
            sb.append(", \"heap_mb\": ").append(heapMb);
            sb.append(", \"max_heap_mb\": ").append(rt.maxMemory() / (1024 * 1024));
            sb.append(", \"nanos\": ").append(nanos);
            sb.append(", \"cpu_nanos\": ").append(cpuNanos).append('}');
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

    /** What one compiler run printed, and its exit code. */
    private static final class Captured {
        final int exit;
        final String output;

        Captured(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /** A compiler run: its exit code, what it prints going to System.out / System.err. */
    private interface Call {
        int call() throws Throwable;
    }

    /** Runs `call` with System.out / System.err captured; an escaped Throwable is exit 3. */
    private static Captured capture(Call call) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OUT.target = out;
        ERR.target = err;
        int exit;
        try {
            exit = call.call();
        } catch (Throwable t) {
            exit = 3;
            sysErr.print("Exception in thread \"main\" ");
            t.printStackTrace(sysErr);
        }
        sysOut.flush();
        sysErr.flush();
        OUT.target = new ByteArrayOutputStream();
        ERR.target = new ByteArrayOutputStream();
        return new Captured(exit, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    }

    /** This JVM's CPU time so far (all its threads), -1 when the platform does not say. */
    private static long processCpuNanos() {
        try {
            Object os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            Method m = Class.forName("com.sun.management.OperatingSystemMXBean").getMethod("getProcessCpuTime");
            return (Long) m.invoke(os);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** Where a plan's sections go as each run ends. */
    private interface Sink {
        void section(String text) throws java.io.IOException;
    }

    /** A section: the run's exit code, its files, what it printed. */
    private static String section(int exit, List<String> files, String output) {
        StringBuilder sb = new StringBuilder();
        sb.append("\u001ethalia-run exit=").append(exit).append(" files=").append(files.size()).append('\n');
        for (String f : files) {
            sb.append(f).append('\n');
        }
        sb.append(output);
        if (!output.isEmpty() && !output.endsWith("\n")) {
            sb.append('\n');
        }
        sb.append("\u001ethalia-end\n");
        return sb.toString();
    }

    /** Runs a request's plan, giving each run's section to `sink`; 0 when every run succeeded. */
    private static int plan(Request req, Sink sink) {
        int n = Math.max(0, Math.min(req.files, req.args.size()));
        List<String> common = new ArrayList<>(req.args.subList(0, req.args.size() - n));
        List<String> files = new ArrayList<>(req.args.subList(req.args.size() - n, req.args.size()));
        int worst = 0;
        try {
            switch (req.plan) {
                case "apart": {
                    if (req.entry.equals("groovy-command-line")) {
                        Integer done = GroovyUnits.compile(req.main, common, files, sink);
                        if (done != null) {
                            return done;
                        }
                    }
                    Group commandLine = group -> {
                        List<String> args = new ArrayList<>(common);
                        args.addAll(group);
                        return capture(() -> run(req.entry, req.main, args.toArray(new String[0])));
                    };
                    return wholeThenApart(files, commandLine, sink);
                }
                case "together": {
                    List<String> rest = files;
                    // at most a few runs: each one judges the files that reached a later phase
                    for (int k = 0; k < 4 && !rest.isEmpty(); k++) {
                        List<String> args = new ArrayList<>(common);
                        args.addAll(rest);
                        Captured c = capture(() -> run(req.entry, req.main, args.toArray(new String[0])));
                        sink.section(section(c.exit, rest, c.output));
                        worst = Math.max(worst, c.exit);
                        // errors only (no internal error): the files it does not name passed
                        // the checks that failed and still need their code generated
                        if (c.exit != 1) {
                            break;
                        }
                        List<String> unnamed = new ArrayList<>();
                        for (String f : rest) {
                            if (!hasError(c.output, f, false)) {
                                unnamed.add(f);
                            }
                        }
                        if (unnamed.size() == rest.size()) {
                            break;
                        }
                        rest = unnamed;
                    }
                    return worst;
                }
                default: {
                    Captured c = capture(() -> {
                        sysErr.println("error: unknown plan `" + req.plan + "`");
                        return 2;
                    });
                    sink.section(section(c.exit, files, c.output));
                    return c.exit;
                }
            }
        } catch (java.io.IOException gone) {
            // the one-shot driver's stdout is gone: nobody reads the rest
            return 3;
        }
    }

    /** One compilation of a group of files. */
    private interface Group {
        Captured compile(List<String> files) throws java.io.IOException;
    }

    /** The "apart" plan: one compilation of all the files; when it failed with errors only, each
     *  file its errors do not name (stopped in an earlier phase, or never reached) a compilation
     *  of its own; after a crash, every file alone. 0 when every compilation succeeded. */
    private static int wholeThenApart(List<String> files, Group group, Sink sink) throws java.io.IOException {
        List<String> rest = files;
        int worst = 0;
        if (files.size() > 1) {
            Captured whole = group.compile(files);
            if (whole.exit == 0 || whole.exit == 1) {
                sink.section(section(whole.exit, files, whole.output));
                if (whole.exit == 0) {
                    return 0;
                }
                worst = whole.exit;
                rest = new ArrayList<>();
                for (String f : files) {
                    if (!hasError(whole.output, f, true)) {
                        rest.add(f);
                    }
                }
            }
        }
        for (String f : rest) {
            Captured one = group.compile(List.of(f));
            sink.section(section(one.exit, List.of(f), one.output));
            worst = Math.max(worst, one.exit);
        }
        return worst;
    }

    /** Whether a line of `output` is an error at `file` (`PATH:LINE...` on a line saying
     *  error, or for groovyc not saying warning, as thalia's attribution reads it). */
    private static boolean hasError(String output, String file, boolean groovy) {
        String full = file + ":";
        String name = "/" + new File(file).getName() + ":";
        for (String line : output.split("\n")) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            // groovyc's `PATH: LINE: message` says no `error`; anything but a warning is one
            boolean error = groovy ? !lower.contains("warning") : lower.contains("error");
            if ((line.contains(full) || line.contains(name)) && error) {
                return true;
            }
        }
        return false;
    }

    /** Why `entry` cannot call `main` in this JVM, or null when it can. */
    private static String unusable(String entry, String main) {
        ClassLoader cl = CompileServer.class.getClassLoader();
        try {
            switch (entry) {
                case "cli-compiler-exec":
                    Class.forName(main, false, cl).getMethod("exec", PrintStream.class, String[].class);
                    return null;
                case "scala-process":
                    Class.forName(main + "$", false, cl).getMethod("process", String[].class);
                    return null;
                case "groovy-command-line":
                    Class.forName(main, false, cl).getMethod("commandLineCompile", String[].class, boolean.class);
                    return null;
                case "system-java-compiler":
                    return javax.tools.ToolProvider.getSystemJavaCompiler() == null ? "no system Java compiler" : null;
                default:
                    return "unknown compiler entry `" + entry + "`";
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            return e.toString();
        }
    }

    /** The one-shot driver: `--once ENTRY MAIN PLAN K ARGS...`, sections streamed to stdout. */
    private static int once(String[] argv, BufferedWriter stdout) throws java.io.IOException {
        stdout.write("\u001ethalia-driver 1\n");
        stdout.flush();
        if (argv.length < 5) {
            stdout.write("error: CompileServer --once ENTRY MAIN PLAN K ARGS...\n");
            stdout.flush();
            return 2;
        }
        // a compiler without the in-process entry (an old release, a test's fake): thalia
        // runs its command line instead
        String why = unusable(argv[1], argv[2]);
        if (why != null) {
            stdout.write("\u001ethalia-driver-unusable " + why.replace('\n', ' ') + "\n");
            stdout.flush();
            return 2;
        }
        Request req = new Request();
        req.entry = argv[1];
        req.main = argv[2];
        req.plan = argv[3];
        req.files = Integer.parseInt(argv[4]);
        req.args = new ArrayList<>(Arrays.asList(argv).subList(5, argv.length));
        if (req.plan.isEmpty()) {
            req.plan = "together";
        }
        int worst = plan(req, text -> {
            stdout.write(text);
            stdout.flush();
        });
        return worst == 0 ? 0 : 1;
    }

    /**
     * groovyc with one CompilationUnit per file (Groovy 2.5 and later, through its own option
     * parser): the units share the class loader of the classpath (kept across requests: the
     * extension-method cache is per loader) and the batch's class-node cache, as one groovyc
     * run shares them between its files. The sibling files are not looked up as sources.
     */
    private static final class GroovyUnits {
        /** The class loader of each classpath seen. */
        private static final Map<String, Object> LOADERS = new HashMap<>();

        /** Compiles each file alone; null when this groovyc cannot be driven so (then each
         *  file goes through the command-line entry alone). */
        static Integer compile(String main, List<String> common, List<String> files, Sink sink)
                throws java.io.IOException {
            ClassLoader cl = CompileServer.class.getClassLoader();
            Object conf;
            Class<?> unitClass;
            Class<?> loaderClass;
            Class<?> confClass;
            Object resolver;
            Method setResolver;
            Method addSource;
            Method compile;
            java.lang.reflect.Constructor<?> newUnit;
            Object loader;
            try {
                Class<?> fsc = Class.forName(main, true, cl);
                Class<?> optionsClass = Class.forName(main + "$CompilationOptions", true, cl);
                Object options = optionsClass.getConstructor().newInstance();
                Object parser = fsc.getMethod("configureParser", optionsClass).invoke(null, options);
                List<String> all = new ArrayList<>(common);
                all.addAll(files);
                parser.getClass().getMethod("parseArgs", String[].class)
                        .invoke(parser, (Object) all.toArray(new String[0]));
                conf = optionsClass.getMethod("toCompilerConfiguration").invoke(options);
                confClass = Class.forName("org.codehaus.groovy.control.CompilerConfiguration", true, cl);
                if (confClass.getMethod("getJointCompilationOptions").invoke(conf) != null) {
                    return null;
                }
                unitClass = Class.forName("org.codehaus.groovy.control.CompilationUnit", true, cl);
                loaderClass = Class.forName("groovy.lang.GroovyClassLoader", true, cl);
                Class<?> resolverClass = Class.forName("org.codehaus.groovy.control.ClassNodeResolver", true, cl);
                resolver = resolverClass.getConstructor().newInstance();
                setResolver = unitClass.getMethod("setClassNodeResolver", resolverClass);
                addSource = unitClass.getMethod("addSource", File.class);
                compile = unitClass.getMethod("compile");
                newUnit = unitClass.getConstructor(confClass, java.security.CodeSource.class, loaderClass);
                String key = String.valueOf(confClass.getMethod("getClasspath").invoke(conf));
                loader = LOADERS.get(key);
                if (loader == null) {
                    ClassLoader parent = Thread.currentThread().getContextClassLoader();
                    if (parent == null) {
                        parent = unitClass.getClassLoader();
                    }
                    loader = loaderClass.getConstructor(ClassLoader.class, confClass).newInstance(parent, conf);
                    LOADERS.put(key, loader);
                }
            } catch (InvocationTargetException e) {
                // a bad option: the command-line entry reports it as groovyc would
                return null;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
            Object c = conf;
            Object l = loader;
            Object r = resolver;
            Group unit = group -> capture(() -> {
                Object u = newUnit.newInstance(c, null, l);
                setResolver.invoke(u, r);
                for (String f : group) {
                    addSource.invoke(u, new File(f));
                }
                try {
                    compile.invoke(u);
                    return 0;
                } catch (InvocationTargetException e) {
                    return groovyFailure(unwrap(e));
                }
            });
            return wholeThenApart(files, unit, sink);
        }
    }

    /** Reports a groovyc failure the way groovyc's own main does; 1 for errors in the program,
     *  3 for anything else. */
    private static int groovyFailure(Throwable t) throws Throwable {
        ClassLoader cl = CompileServer.class.getClassLoader();
        Class<?> failed = Class.forName("org.codehaus.groovy.control.CompilationFailedException", true, cl);
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
                    return groovyFailure(unwrap(e));
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
        String plan = "";
        int files = 0;
    }

    /** A reader for exactly the request shape: numbers, strings and a string array. */
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
                    case "plan":
                        r.plan = string();
                        break;
                    case "files":
                        r.files = (int) number();
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
                        throw error("a key among id, entry, main, args, plan, files");
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
