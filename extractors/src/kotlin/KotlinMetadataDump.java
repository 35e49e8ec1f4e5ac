// thalia's Kotlin-metadata helper: reads class files (from jars or directories), decodes each
// class's `kotlin.Metadata` annotation with JetBrains' kotlin-metadata-jvm, and prints the
// Kotlin view of the public API as JSON lines on stdout:
//
//   {"class": {"jvm_name": "a/B$C", "doc": {...API JSON class document...}}}
//   {"facade": {"jvm_name": "a/BKt", "package": "a", "methods": [...], "fields": [...],
//               "type_aliases": [...]}}
//   {"problem": {"jvm_name": "a/B", "source": "x.jar", "reason": "..."}}
//   {"stats": {...}}
//
// A class whose metadata cannot be read is a problem line; the others go on. Only public and
// protected declarations are printed (internal, private, local and synthetic ones never).
// Built by thalia with the JDK's javac on first use (see extractors/src/kotlin/mod.rs).

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import kotlin.Metadata;
import kotlin.metadata.Attributes;
import kotlin.metadata.ClassKind;
import kotlin.metadata.KmAnnotation;
import kotlin.metadata.KmAnnotationArgument;
import kotlin.metadata.KmClass;
import kotlin.metadata.KmClassifier;
import kotlin.metadata.KmConstructor;
import kotlin.metadata.KmFunction;
import kotlin.metadata.KmPackage;
import kotlin.metadata.KmProperty;
import kotlin.metadata.KmType;
import kotlin.metadata.KmTypeAlias;
import kotlin.metadata.KmTypeParameter;
import kotlin.metadata.KmTypeProjection;
import kotlin.metadata.KmValueParameter;
import kotlin.metadata.KmVariance;
import kotlin.metadata.MemberKind;
import kotlin.metadata.Modality;
import kotlin.metadata.Visibility;
import kotlin.metadata.jvm.JvmExtensionsKt;
import kotlin.metadata.jvm.JvmMetadataUtil;
import kotlin.metadata.jvm.JvmMethodSignature;
import kotlin.metadata.jvm.KotlinClassMetadata;
import kotlin.metadata.internal.common.KmModuleFragment;
import kotlin.metadata.internal.common.KotlinCommonMetadata;

public final class KotlinMetadataDump {
    /** Largest class file read (bytes). */
    static final long MAX_CLASS_BYTES = 64L << 20;

    /** The `kotlin.Metadata` values and JVM facts of one class file. */
    static final class Raw {
        String source;
        String jvmName;
        Integer k;
        int[] mv;
        String[] d1;
        String[] d2;
        String xs;
        String pn;
        Integer xi;
        /** name+descriptor of methods deprecated with level HIDDEN: no call sees them. */
        Set<String> hidden = new HashSet<>();
        /** name+descriptor of methods deprecated with level ERROR: overload resolution still
         *  sees them, but a call of one does not compile. */
        Set<String> errors = new HashSet<>();
        /** name+descriptor of every method of the class file. */
        Set<String> methods = new HashSet<>();
        /** name+descriptor of deprecated methods. */
        Set<String> deprecated = new HashSet<>();
        boolean classDeprecated;
        /** The class is deprecated with level ERROR or HIDDEN: a program cannot name it. */
        boolean classError;
        /** An annotation class annotated `@RequiresOptIn`: an opt-in marker. */
        boolean optInMarker;
        /** Read from a `.kotlin_builtins` file (no class file: no JVM facts). */
        boolean builtin;
        /** name+descriptor of the methods that are public and not synthetic in bytecode
         *  (those Java can call). */
        Set<String> publicMethods = new HashSet<>();
        /** The annotation types (internal names) of each method, by name+descriptor. */
        Map<String, List<String>> annotations = new HashMap<>();
        /** The annotation types (internal names) of the class. */
        List<String> classAnnotations = new ArrayList<>();
    }

    /** A `.kotlin_builtins` file: Kotlin's builtin classes (`kotlin.Any`, `kotlin.String`,
     *  `kotlin.collections.List`, ...) have no class files, only these. */
    static final class BuiltinsFile {
        String source;
        String entry;
        byte[] bytes;
    }

    final List<BuiltinsFile> builtins = new ArrayList<>();

    static final class Decoded {
        Raw raw;
        KmClass cls;
        KmPackage pkg;
    }

    final PrintStream out;
    final Map<String, KmClass> classes = new HashMap<>();
    final Map<String, KmTypeAlias> aliases = new HashMap<>();
    /** The internal names of the opt-in markers among the inputs. */
    final Set<String> markers = new HashSet<>();
    int problems;
    int classFiles;
    int withMetadata;

    KotlinMetadataDump(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, "UTF-8");
        KotlinMetadataDump d = new KotlinMetadataDump(out);
        List<Raw> raws = new ArrayList<>();
        for (String a : args) {
            d.readInput(Paths.get(a), raws);
        }
        mergeDefaultImpls(raws);
        for (Raw r : raws) {
            if (r.optInMarker) {
                d.markers.add(r.jvmName);
            }
        }
        List<Decoded> decoded = new ArrayList<>();
        for (Raw r : raws) {
            Decoded x = d.decode(r);
            if (x != null) {
                decoded.add(x);
            }
        }
        // after the class files: a class that has one is read from it
        for (BuiltinsFile b : d.builtins) {
            d.decodeBuiltins(b, decoded);
        }
        for (Decoded x : decoded) {
            try {
                if (x.cls != null) {
                    d.emitClass(x);
                } else if (x.pkg != null) {
                    d.emitFacade(x);
                }
            } catch (RuntimeException e) {
                d.problem(x.raw, "cannot convert the metadata: " + e);
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("class_files", d.classFiles);
        stats.put("with_metadata", d.withMetadata);
        stats.put("builtins_files", d.builtins.size());
        stats.put("problems", d.problems);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("stats", stats);
        d.print(line);
        out.flush();
    }

    // ---- reading ---------------------------------------------------------------------------

    void readInput(Path p, List<Raw> raws) throws IOException {
        if (Files.isDirectory(p)) {
            List<Path> files = new ArrayList<>();
            try (Stream<Path> s = Files.walk(p)) {
                s.filter(f -> (f.toString().endsWith(".class")
                                || f.toString().endsWith(".kotlin_builtins"))
                                && Files.isRegularFile(f))
                        .sorted().forEach(files::add);
            }
            for (Path f : files) {
                String rel = p.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                if (rel.endsWith(".kotlin_builtins")) {
                    if (Files.size(f) <= MAX_CLASS_BYTES) {
                        addBuiltins(p.toString(), rel, Files.readAllBytes(f));
                    }
                    continue;
                }
                if (rel.startsWith("META-INF")) {
                    continue;
                }
                if (Files.size(f) > MAX_CLASS_BYTES) {
                    problemRaw(p + "!" + rel, rel, "class file too large");
                    continue;
                }
                readClass(p.toString(), rel, Files.readAllBytes(f), raws);
            }
            return;
        }
        try (ZipFile z = new ZipFile(p.toFile())) {
            Enumeration<? extends ZipEntry> en = z.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                String n = e.getName();
                if (!e.isDirectory() && n.endsWith(".kotlin_builtins")
                        && e.getSize() <= MAX_CLASS_BYTES) {
                    try (InputStream in = z.getInputStream(e)) {
                        addBuiltins(p.toString(), n, in.readNBytes((int) MAX_CLASS_BYTES + 1));
                    }
                    continue;
                }
                if (e.isDirectory() || !n.endsWith(".class") || n.startsWith("META-INF/")) {
                    continue;
                }
                if (e.getSize() > MAX_CLASS_BYTES) {
                    problemRaw(p.toString(), n, "class file too large");
                    continue;
                }
                byte[] bytes;
                try (InputStream in = z.getInputStream(e)) {
                    bytes = in.readNBytes((int) MAX_CLASS_BYTES + 1);
                }
                readClass(p.toString(), n, bytes, raws);
            }
        }
    }

    void addBuiltins(String source, String entry, byte[] bytes) {
        BuiltinsFile b = new BuiltinsFile();
        b.source = source;
        b.entry = entry;
        b.bytes = bytes;
        builtins.add(b);
    }

    /** Decodes a `.kotlin_builtins` file: its classes (those without a class file) and its
     *  package members. */
    void decodeBuiltins(BuiltinsFile b, List<Decoded> decoded) {
        String base = b.entry.substring(0, b.entry.length() - ".kotlin_builtins".length());
        KmModuleFragment f;
        try {
            f = KotlinCommonMetadata.read(b.bytes).getKmModuleFragment();
        } catch (Throwable e) {
            problemRaw(b.source, base, "the decoder rejects this .kotlin_builtins file: " + e);
            return;
        }
        for (KmClass c : f.getClasses()) {
            if (classes.containsKey(c.getName())) {
                continue;
            }
            classes.put(c.getName(), c);
            Decoded x = new Decoded();
            x.raw = builtinRaw(b.source, c.getName());
            x.cls = c;
            decoded.add(x);
        }
        if (f.getPkg() != null) {
            Decoded x = new Decoded();
            x.raw = builtinRaw(b.source, base);
            x.pkg = f.getPkg();
            decoded.add(x);
        }
    }

    static Raw builtinRaw(String source, String name) {
        Raw r = new Raw();
        r.source = source;
        r.jvmName = name;
        r.builtin = true;
        return r;
    }

    /** An interface compiled without JVM default methods keeps its properties' synthetic
     *  `$annotations` methods (where their deprecation is) in its `$DefaultImpls` class:
     *  those facts belong to the interface. */
    static void mergeDefaultImpls(List<Raw> raws) {
        Map<String, Raw> byName = new HashMap<>();
        for (Raw r : raws) {
            byName.put(r.jvmName, r);
        }
        for (Raw r : raws) {
            if (!r.jvmName.endsWith("$DefaultImpls")) {
                continue;
            }
            Raw owner = byName.get(r.jvmName.substring(0, r.jvmName.length() - 13));
            if (owner != null) {
                owner.hidden.addAll(r.hidden);
                owner.errors.addAll(r.errors);
                owner.deprecated.addAll(r.deprecated);
                owner.annotations.putAll(r.annotations);
            }
        }
    }

    /** The deprecation level that annotations in builtins metadata give a member: "HIDDEN"
     *  (a Deprecated level HIDDEN, or a DeprecatedSinceKotlin with hiddenSince), "ERROR"
     *  (level ERROR, or errorSince), or null. */
    static String deprecationLevel(List<KmAnnotation> anns) {
        for (KmAnnotation a : anns) {
            Map<String, KmAnnotationArgument> args = a.getArguments();
            if ("kotlin/Deprecated".equals(a.getClassName())) {
                KmAnnotationArgument level = args.get("level");
                if (level instanceof KmAnnotationArgument.EnumValue) {
                    String v = ((KmAnnotationArgument.EnumValue) level).getEnumEntryName();
                    if ("ERROR".equals(v) || "HIDDEN".equals(v)) {
                        return v;
                    }
                }
            } else if ("kotlin/DeprecatedSinceKotlin".equals(a.getClassName())) {
                if (args.containsKey("hiddenSince")) {
                    return "HIDDEN";
                }
                if (args.containsKey("errorSince")) {
                    return "ERROR";
                }
            }
        }
        return null;
    }

    static boolean isDeprecated(List<KmAnnotation> anns) {
        for (KmAnnotation a : anns) {
            if ("kotlin/Deprecated".equals(a.getClassName())) {
                return true;
            }
        }
        return false;
    }

    void readClass(String source, String entry, byte[] bytes, List<Raw> raws) {
        classFiles++;
        Raw r = new Raw();
        r.source = source;
        r.jvmName = entry.endsWith(".class") ? entry.substring(0, entry.length() - 6) : entry;
        try {
            if (parseClass(bytes, r)) {
                withMetadata++;
                raws.add(r);
            }
        } catch (IOException | RuntimeException e) {
            problem(r, "malformed class file: " + e);
        }
    }

    /** Parses a class file; true when it carries `kotlin.Metadata`. */
    static boolean parseClass(byte[] bytes, Raw r) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("bad magic number");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int n = in.readUnsignedShort();
        Object[] cp = new Object[n];
        int[] classIdx = new int[n];
        for (int i = 1; i < n; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: cp[i] = in.readUTF(); break;
                case 3: cp[i] = in.readInt(); break;
                case 4: in.readInt(); break;
                case 5: case 6: in.readLong(); i++; break;
                case 7: classIdx[i] = in.readUnsignedShort(); break;
                case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                default: throw new IOException("unknown constant-pool tag " + tag);
            }
        }
        in.readUnsignedShort();
        int thisClass = in.readUnsignedShort();
        if (thisClass > 0 && thisClass < n && cp[classIdx[thisClass]] instanceof String) {
            r.jvmName = (String) cp[classIdx[thisClass]];
        }
        in.readUnsignedShort();
        int ifs = in.readUnsignedShort();
        for (int i = 0; i < ifs; i++) {
            in.readUnsignedShort();
        }
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.readUnsignedShort();
            String name = (String) cp[in.readUnsignedShort()];
            in.readUnsignedShort();
            int ac = in.readUnsignedShort();
            for (int a = 0; a < ac; a++) {
                String an = (String) cp[in.readUnsignedShort()];
                int len = in.readInt();
                if (!"RuntimeVisibleAnnotations".equals(an)
                        && !"RuntimeInvisibleAnnotations".equals(an)) {
                    in.skipNBytes(len & 0xFFFFFFFFL);
                    continue;
                }
                // a field's annotations (an enum entry's opt-in marker), keyed `field:NAME`
                int na = in.readUnsignedShort();
                for (int j = 0; j < na; j++) {
                    String type = annotation(in, cp, new HashMap<>());
                    r.annotations.computeIfAbsent("field:" + name, k -> new ArrayList<>())
                            .add(internalName(type));
                }
            }
        }
        int methods = in.readUnsignedShort();
        for (int i = 0; i < methods; i++) {
            int flags = in.readUnsignedShort();
            String name = (String) cp[in.readUnsignedShort()];
            String desc = (String) cp[in.readUnsignedShort()];
            r.methods.add(name + desc);
            if ((flags & 0x0001) != 0 && (flags & 0x1000) == 0) {
                r.publicMethods.add(name + desc);
            }
            int ac = in.readUnsignedShort();
            for (int a = 0; a < ac; a++) {
                String an = (String) cp[in.readUnsignedShort()];
                int len = in.readInt();
                if ("RuntimeVisibleAnnotations".equals(an)
                        || "RuntimeInvisibleAnnotations".equals(an)) {
                    int na = in.readUnsignedShort();
                    for (int j = 0; j < na; j++) {
                        Map<String, Object> ann = new HashMap<>();
                        String type = annotation(in, cp, ann);
                        r.annotations.computeIfAbsent(name + desc, k -> new ArrayList<>())
                                .add(internalName(type));
                        if ("Lkotlin/Deprecated;".equals(type)
                                || "Ljava/lang/Deprecated;".equals(type)) {
                            r.deprecated.add(name + desc);
                            // a call of an ERROR- or HIDDEN-deprecated member does not compile
                            Object level = ann.get("level");
                            if ("HIDDEN".equals(level)) {
                                r.hidden.add(name + desc);
                            } else if ("ERROR".equals(level)) {
                                r.errors.add(name + desc);
                            }
                        } else if ("Lkotlin/DeprecatedSinceKotlin;".equals(type)) {
                            if (ann.get("hiddenSince") != null) {
                                r.hidden.add(name + desc);
                            } else if (ann.get("errorSince") != null) {
                                r.errors.add(name + desc);
                            }
                        }
                    }
                } else {
                    if ("Deprecated".equals(an)) {
                        r.deprecated.add(name + desc);
                    }
                    in.skipNBytes(len);
                }
            }
        }
        boolean found = false;
        int ac = in.readUnsignedShort();
        for (int a = 0; a < ac; a++) {
            String an = (String) cp[in.readUnsignedShort()];
            int len = in.readInt();
            if (!"RuntimeVisibleAnnotations".equals(an)
                    && !"RuntimeInvisibleAnnotations".equals(an)) {
                if ("Deprecated".equals(an)) {
                    r.classDeprecated = true;
                }
                in.skipNBytes(len);
                continue;
            }
            int na = in.readUnsignedShort();
            for (int j = 0; j < na; j++) {
                Map<String, Object> ann = new HashMap<>();
                String type = annotation(in, cp, ann);
                r.classAnnotations.add(internalName(type));
                if ("Lkotlin/RequiresOptIn;".equals(type)) {
                    r.optInMarker = true;
                }
                if ("Lkotlin/Deprecated;".equals(type) || "Ljava/lang/Deprecated;".equals(type)) {
                    r.classDeprecated = true;
                    Object level = ann.get("level");
                    if ("HIDDEN".equals(level) || "ERROR".equals(level)) {
                        r.classError = true;
                    }
                }
                if (!"Lkotlin/Metadata;".equals(type)) {
                    continue;
                }
                found = true;
                r.k = (Integer) ann.get("k");
                r.mv = ints(ann.get("mv"));
                r.d1 = strings(ann.get("d1"));
                r.d2 = strings(ann.get("d2"));
                r.xs = (String) ann.get("xs");
                r.pn = (String) ann.get("pn");
                r.xi = (Integer) ann.get("xi");
            }
        }
        return found;
    }

    /** `La/B;` → `a/B`. */
    static String internalName(String descriptor) {
        return descriptor.startsWith("L") && descriptor.endsWith(";")
                ? descriptor.substring(1, descriptor.length() - 1) : descriptor;
    }

    /** Whether annotation classes outside the inputs are opt-in markers, by internal name. */
    final Map<String, Boolean> classpathMarkers = new HashMap<>();

    /** Whether `internalName` is an opt-in marker on the helper's own classpath (kotlin-stdlib's
     *  `ExperimentalStdlibApi`...): a library's members may need the standard library's
     *  markers, which are not among the inputs. */
    boolean isClasspathMarker(String internalName) {
        return classpathMarkers.computeIfAbsent(internalName, n -> {
            try (InputStream in = KotlinMetadataDump.class.getClassLoader()
                    .getResourceAsStream(n + ".class")) {
                if (in == null) {
                    return false;
                }
                Raw r = new Raw();
                parseClass(in.readNBytes((int) MAX_CLASS_BYTES + 1), r);
                return r.optInMarker;
            } catch (IOException | RuntimeException e) {
                return false;
            }
        });
    }

    /** The opt-in markers (dotted Kotlin names, sorted) among `types`, or null for none. */
    List<String> optIns(List<String> types) {
        java.util.TreeSet<String> out = new java.util.TreeSet<>();
        for (String t : types) {
            if (markers.contains(t) || isClasspathMarker(t)) {
                out.add(t.replace('/', '.').replace('$', '.'));
            }
        }
        return out.isEmpty() ? null : new ArrayList<>(out);
    }

    /** The opt-in markers among annotations read from metadata (a builtin's, which has no
     *  class file). */
    List<String> optInsKm(List<KmAnnotation> anns) {
        List<String> types = new ArrayList<>();
        for (KmAnnotation a : anns) {
            types.add(a.getClassName().replace('.', '$'));
        }
        return optIns(types);
    }

    /** The opt-in markers that the annotations of methods `sigs` (null ones skipped) name. */
    List<String> optIns(Raw raw, String... sigs) {
        List<String> types = new ArrayList<>();
        for (String s : sigs) {
            if (s != null) {
                types.addAll(raw.annotations.getOrDefault(s, new ArrayList<>()));
            }
        }
        return optIns(types);
    }

    static void skipAttributes(DataInputStream in) throws IOException {
        int ac = in.readUnsignedShort();
        for (int a = 0; a < ac; a++) {
            in.readUnsignedShort();
            in.skipNBytes(in.readInt() & 0xFFFFFFFFL);
        }
    }

    /** Reads one annotation; its simple values go into `values`; returns its type. */
    static String annotation(DataInputStream in, Object[] cp, Map<String, Object> values)
            throws IOException {
        String type = (String) cp[in.readUnsignedShort()];
        int pairs = in.readUnsignedShort();
        for (int i = 0; i < pairs; i++) {
            String name = (String) cp[in.readUnsignedShort()];
            values.put(name, elementValue(in, cp));
        }
        return type;
    }

    static Object elementValue(DataInputStream in, Object[] cp) throws IOException {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
            case 's':
                return cp[in.readUnsignedShort()];
            case 'e':
                in.readUnsignedShort();
                return cp[in.readUnsignedShort()];
            case 'c':
                in.readUnsignedShort();
                return null;
            case '@':
                annotation(in, cp, new HashMap<>());
                return null;
            case '[': {
                int n = in.readUnsignedShort();
                List<Object> l = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    l.add(elementValue(in, cp));
                }
                return l;
            }
            default:
                throw new IOException("unknown annotation element tag " + tag);
        }
    }

    static int[] ints(Object o) {
        if (!(o instanceof List)) {
            return null;
        }
        List<?> l = (List<?>) o;
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = (Integer) l.get(i);
        }
        return a;
    }

    static String[] strings(Object o) {
        if (!(o instanceof List)) {
            return null;
        }
        List<?> l = (List<?>) o;
        String[] a = new String[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = (String) l.get(i);
        }
        return a;
    }

    /**
     * Decodes with readLenient: extraction only reads, and lenient reading accepts metadata
     * newer than this library's version (readStrict refuses it) as long as it parses.
     */
    Decoded decode(Raw r) {
        KotlinClassMetadata m;
        try {
            Metadata md = JvmMetadataUtil.Metadata(r.k, r.mv, r.d1, r.d2, r.xs, r.pn, r.xi);
            m = KotlinClassMetadata.readLenient(md);
        } catch (Throwable e) {
            problem(r, "the decoder rejects its kotlin.Metadata (version "
                    + versionText(r.mv) + "): " + e);
            return null;
        }
        Decoded x = new Decoded();
        x.raw = r;
        if (m instanceof KotlinClassMetadata.Class) {
            x.cls = ((KotlinClassMetadata.Class) m).getKmClass();
            classes.put(x.cls.getName(), x.cls);
        } else if (m instanceof KotlinClassMetadata.FileFacade) {
            x.pkg = ((KotlinClassMetadata.FileFacade) m).getKmPackage();
        } else if (m instanceof KotlinClassMetadata.MultiFileClassPart) {
            x.pkg = ((KotlinClassMetadata.MultiFileClassPart) m).getKmPackage();
        } else if (m instanceof KotlinClassMetadata.Unknown) {
            problem(r, "unknown kotlin.Metadata kind " + r.k);
            return null;
        } else {
            return null; // synthetic classes and multi-file facades (their parts are read)
        }
        if (x.pkg != null) {
            String p = kotlinPackageOf(r);
            for (KmTypeAlias a : x.pkg.getTypeAliases()) {
                aliases.put(p.isEmpty() ? a.getName() : p + "/" + a.getName(), a);
            }
        }
        return x;
    }

    static String versionText(int[] mv) {
        if (mv == null) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < mv.length; i++) {
            b.append(i == 0 ? "" : ".").append(mv[i]);
        }
        return b.toString();
    }

    /** The package of a file's members as Kotlin sees it (slashed): the metadata's `pn`
     *  where `@JvmPackageName` moved the class file (`kotlin.collections.unsigned` members
     *  are in `kotlin.collections`), else the class file's. */
    static String kotlinPackageOf(Raw r) {
        if (r.pn != null && !r.pn.isEmpty()) {
            return r.pn.replace('.', '/');
        }
        return packageOf(r.jvmName);
    }

    static String packageOf(String jvmName) {
        int i = jvmName.lastIndexOf('/');
        return i < 0 ? "" : jvmName.substring(0, i);
    }

    // ---- output ----------------------------------------------------------------------------

    void problem(Raw r, String reason) {
        problemRaw(r.source, r.jvmName, reason);
    }

    void problemRaw(String source, String jvmName, String reason) {
        problems++;
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("jvm_name", jvmName);
        p.put("source", source);
        p.put("reason", reason);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("problem", p);
        print(line);
    }

    void print(Object o) {
        StringBuilder b = new StringBuilder();
        json(o, b);
        out.print(b);
        out.print('\n');
    }

    static void json(Object o, StringBuilder b) {
        if (o == null) {
            b.append("null");
        } else if (o instanceof String) {
            String s = (String) o;
            b.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            b.append('"');
        } else if (o instanceof Map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                json(e.getKey().toString(), b);
                b.append(':');
                json(e.getValue(), b);
            }
            b.append('}');
        } else if (o instanceof List) {
            b.append('[');
            boolean first = true;
            for (Object e : (List<?>) o) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                json(e, b);
            }
            b.append(']');
        } else {
            b.append(o);
        }
    }

    // ---- names and scopes --------------------------------------------------------------------

    /** `a/b/C.D` → `a.b.C.D`. */
    static String dotted(String kotlinName) {
        return kotlinName.replace('/', '.');
    }

    static boolean isLocal(String kotlinName) {
        return kotlinName.startsWith(".");
    }

    static String accessOf(Visibility v) {
        if (v == Visibility.PUBLIC) {
            return "public";
        }
        if (v == Visibility.PROTECTED) {
            return "protected";
        }
        return null;
    }

    /** Type-parameter names by id, with the enclosing declarations' names. */
    static final class Scope {
        final Scope parent;
        final Map<Integer, String> names = new HashMap<>();
        /** Type-alias parameters being expanded: id → rendered argument. */
        final Map<Integer, String> substituted = new HashMap<>();

        Scope(Scope parent, List<KmTypeParameter> params) {
            this.parent = parent;
            for (KmTypeParameter p : params) {
                names.put(p.getId(), p.getName());
            }
        }

        String name(int id) {
            for (Scope s = this; s != null; s = s.parent) {
                String t = s.substituted.get(id);
                if (t != null) {
                    return t;
                }
                t = s.names.get(id);
                if (t != null) {
                    return t;
                }
            }
            throw new IllegalStateException("type parameter #" + id + " is not in scope");
        }
    }

    Scope classScope(KmClass c) {
        Scope outer = null;
        if (Attributes.isInner(c)) {
            int i = c.getName().lastIndexOf('.');
            KmClass o = i < 0 ? null : classes.get(c.getName().substring(0, i));
            if (o != null) {
                outer = classScope(o);
            }
        }
        return new Scope(outer, c.getTypeParameters());
    }

    // ---- types -------------------------------------------------------------------------------

    static final java.util.regex.Pattern FUNCTION =
            java.util.regex.Pattern.compile("kotlin/(?:coroutines/Suspend)?Function(\\d+)");

    String type(KmType t, Scope s) {
        return type(t, s, 0);
    }

    String type(KmType t, Scope s, int depth) {
        if (depth > 200) {
            throw new IllegalStateException("type nested too deeply");
        }
        KmClassifier c = t.getClassifier();
        String base;
        boolean function = false;
        if (c instanceof KmClassifier.TypeParameter) {
            base = s.name(((KmClassifier.TypeParameter) c).getId());
        } else if (c instanceof KmClassifier.TypeAlias) {
            base = expandAlias((KmClassifier.TypeAlias) c, t, s, depth);
            function = base.contains("->");
        } else {
            String name = ((KmClassifier.Class) c).getName();
            if (isLocal(name)) {
                throw new IllegalStateException("local class " + name + " in a signature");
            }
            String fn = functionType(name, t, s, depth);
            if (fn != null) {
                base = fn;
                function = true;
            } else {
                base = dotted(name) + arguments(t.getArguments(), s, depth);
            }
        }
        if (Attributes.isNullable(t)) {
            return function ? "(" + base + ")?" : base + "?";
        }
        return base;
    }

    String arguments(List<KmTypeProjection> args, Scope s, int depth) {
        if (args.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<");
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            KmTypeProjection p = args.get(i);
            if (p.getType() == null || p.getVariance() == null) {
                b.append('*');
                continue;
            }
            if (p.getVariance() == KmVariance.IN) {
                b.append("in ");
            } else if (p.getVariance() == KmVariance.OUT) {
                b.append("out ");
            }
            b.append(type(p.getType(), s, depth + 1));
        }
        return b.append('>').toString();
    }

    /** `(A) -> B`, `R.(A) -> B`, `suspend () -> R` for function types; else null. */
    String functionType(String name, KmType t, Scope s, int depth) {
        java.util.regex.Matcher m = FUNCTION.matcher(name);
        if (!m.matches()) {
            return null;
        }
        List<KmTypeProjection> args = t.getArguments();
        int n = Integer.parseInt(m.group(1));
        if (args.size() != n + 1) {
            return null;
        }
        for (int i = 0; i < args.size(); i++) {
            KmTypeProjection p = args.get(i);
            if (p.getType() == null) {
                return null;
            }
            KmVariance want = i == n ? KmVariance.OUT : KmVariance.IN;
            if (p.getVariance() != KmVariance.INVARIANT && p.getVariance() != want) {
                return null;
            }
        }
        boolean suspend = name.startsWith("kotlin/coroutines/");
        List<KmType> params = new ArrayList<>();
        for (KmTypeProjection p : args) {
            params.add(p.getType());
        }
        KmType ret = params.remove(params.size() - 1);
        if (Attributes.isSuspend(t) && !suspend) {
            // suspend (A) -> R is stored as Function2<A, Continuation<R>, Any?>
            if (params.isEmpty()) {
                return null;
            }
            KmType cont = params.get(params.size() - 1);
            if (!(cont.getClassifier() instanceof KmClassifier.Class)
                    || !"kotlin/coroutines/Continuation".equals(
                            ((KmClassifier.Class) cont.getClassifier()).getName())
                    || cont.getArguments().size() != 1
                    || cont.getArguments().get(0).getType() == null) {
                return null;
            }
            params.remove(params.size() - 1);
            ret = cont.getArguments().get(0).getType();
            suspend = true;
        }
        boolean extension = false;
        for (KmAnnotation a : JvmExtensionsKt.getAnnotations(t)) {
            if ("kotlin/ExtensionFunctionType".equals(a.getClassName())) {
                extension = true;
            }
        }
        StringBuilder b = new StringBuilder();
        if (suspend) {
            b.append("suspend ");
        }
        if (extension && !params.isEmpty()) {
            KmType recv = params.remove(0);
            String r = type(recv, s, depth + 1);
            b.append(isFunctionText(r) && !Attributes.isNullable(recv) ? "(" + r + ")" : r);
            b.append('.');
        }
        b.append('(');
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(type(params.get(i), s, depth + 1));
        }
        b.append(") -> ").append(type(ret, s, depth + 1));
        return b.toString();
    }

    static boolean isFunctionText(String t) {
        return t.contains("->");
    }

    /** A type alias that the compiler did not expand: its expansion, arguments substituted. */
    String expandAlias(KmClassifier.TypeAlias c, KmType t, Scope s, int depth) {
        KmTypeAlias a = aliases.get(c.getName());
        if (a == null) {
            throw new IllegalStateException("type alias " + dotted(c.getName())
                    + " is not expanded and not among the inputs");
        }
        Scope inner = new Scope(null, a.getTypeParameters());
        List<KmTypeParameter> ps = a.getTypeParameters();
        List<KmTypeProjection> args = t.getArguments();
        for (int i = 0; i < ps.size() && i < args.size(); i++) {
            KmTypeProjection p = args.get(i);
            inner.substituted.put(ps.get(i).getId(),
                    p.getType() == null ? "kotlin.Any?" : type(p.getType(), s, depth + 1));
        }
        return type(a.getExpandedType(), inner, depth + 1);
    }

    /** Type-parameter declarations; extra bounds past the first go into `bounds`. */
    List<String> typeParams(List<KmTypeParameter> ps, Scope s, Map<String, Object> meta) {
        List<String> out = new ArrayList<>();
        Map<String, Object> allBounds = new LinkedHashMap<>();
        for (KmTypeParameter p : ps) {
            StringBuilder b = new StringBuilder();
            if (Attributes.isReified(p)) {
                b.append("reified ");
            }
            if (p.getVariance() == KmVariance.IN) {
                b.append("in ");
            } else if (p.getVariance() == KmVariance.OUT) {
                b.append("out ");
            }
            b.append(p.getName());
            List<KmType> bounds = p.getUpperBounds();
            if (!bounds.isEmpty()) {
                b.append(" : ").append(type(bounds.get(0), s));
            }
            if (bounds.size() > 1) {
                List<String> all = new ArrayList<>();
                for (KmType u : bounds) {
                    all.add(type(u, s));
                }
                allBounds.put(p.getName(), all);
            }
            out.add(b.toString());
        }
        if (meta != null && !allBounds.isEmpty()) {
            meta.put("upper_bounds", allBounds);
        }
        return out;
    }

    // ---- members -----------------------------------------------------------------------------

    static String sig(JvmMethodSignature s) {
        return s == null ? null : s.getName() + s.getDescriptor();
    }

    /** A function as an API JSON method, or null when it is not public API. */
    Map<String, Object> function(KmFunction f, Scope outer, Raw raw) {
        String access = accessOf(Attributes.getVisibility(f));
        if (access == null || Attributes.getKind(f) == MemberKind.FAKE_OVERRIDE
                || !f.getContextParameters().isEmpty() || !f.getContextReceiverTypes().isEmpty()) {
            return null;
        }
        String sig = raw.builtin ? null : sig(JvmExtensionsKt.getSignature(f));
        if (sig != null && (raw.hidden.contains(sig) || !raw.methods.contains(sig))) {
            // hidden or an error to call, or no longer in the bytecode
            return null;
        }
        String level = raw.builtin ? deprecationLevel(f.getAnnotations())
                : sig != null && raw.errors.contains(sig) ? "ERROR" : null;
        if ("HIDDEN".equals(level)) {
            return null;
        }
        Scope s = new Scope(outer, f.getTypeParameters());
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("is_suspend", Attributes.isSuspend(f));
        meta.put("is_inline", Attributes.isInline(f));
        meta.put("is_operator", Attributes.isOperator(f));
        meta.put("is_infix", Attributes.isInfix(f));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", f.getName());
        m.put("parameters", params(f.getValueParameters(), s, meta));
        m.put("type_parameters", typeParams(f.getTypeParameters(), s, meta));
        m.put("return_type", type(f.getReturnType(), s));
        KmType recv = f.getReceiverParameterType();
        m.put("receiver", recv == null ? null : type(recv, s));
        m.put("is_static", false);
        m.put("is_constructor", false);
        m.put("access_mod", access);
        List<String> optIn = raw.builtin ? optInsKm(f.getAnnotations()) : optIns(raw, sig);
        if (optIn != null) {
            meta.put("opt_in", optIn);
        }
        m.put("other_metadata", meta);
        if (Attributes.getModality(f) == Modality.ABSTRACT) {
            m.put("is_abstract", true);
        }
        if ((sig != null && raw.deprecated.contains(sig))
                || (raw.builtin && isDeprecated(f.getAnnotations()))) {
            m.put("deprecated", true);
        }
        if (level != null) {
            // still an overload candidate, but a call of it is an error
            m.put("deprecation_level", "error");
        }
        return m;
    }

    List<String> params(List<KmValueParameter> ps, Scope s, Map<String, Object> meta) {
        List<String> out = new ArrayList<>();
        List<Object> defaults = new ArrayList<>();
        List<Object> names = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) {
            KmValueParameter p = ps.get(i);
            KmType va = p.getVarargElementType();
            out.add(va != null ? "vararg " + type(va, s) : type(p.getType(), s));
            if (Attributes.getDeclaresDefaultValue(p)) {
                defaults.add(i);
            }
            names.add(p.getName());
        }
        meta.put("defaults", defaults);
        meta.put("parameter_names", names);
        return out;
    }

    Map<String, Object> property(KmProperty p, Scope outer, Raw raw, boolean isOverride) {
        String access = accessOf(Attributes.getVisibility(p));
        if (access == null || Attributes.getKind(p) == MemberKind.FAKE_OVERRIDE
                || !p.getContextParameters().isEmpty() || !p.getContextReceiverTypes().isEmpty()) {
            return null;
        }
        String getter = raw.builtin ? null : sig(JvmExtensionsKt.getGetterSignature(p));
        if (getter != null && raw.hidden.contains(getter)) {
            return null;
        }
        if ("kotlin/coroutines/ContinuationKt".equals(raw.jvmName)
                && "coroutineContext".equals(p.getName())) {
            // Kotlin's one suspend property, an intrinsic that the metadata does not mark:
            // readable only in a coroutine
            return null;
        }
        // a property's annotations (its deprecation too) are on a synthetic method
        String annotations = raw.builtin
                ? null : sig(JvmExtensionsKt.getSyntheticMethodForAnnotations(p));
        if (annotations != null && raw.hidden.contains(annotations)) {
            return null;
        }
        String level = raw.builtin ? deprecationLevel(p.getAnnotations())
                : getter != null && raw.errors.contains(getter)
                        || annotations != null && raw.errors.contains(annotations)
                        ? "ERROR" : null;
        if ("HIDDEN".equals(level)) {
            return null;
        }
        // a property without a getter in this class file (a private const's field, an
        // interface's default getter elsewhere) is kept: its metadata is what Kotlin reads
        Scope s = new Scope(outer, p.getTypeParameters());
        boolean writable = Attributes.isVar(p) && p.getSetter() != null
                && accessOf(Attributes.getVisibility(p.getSetter())) != null;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", p.getName());
        f.put("type", type(p.getReturnType(), s));
        f.put("is_final", !writable);
        f.put("is_override", isOverride);
        KmType recv = p.getReceiverParameterType();
        f.put("receiver", recv == null ? null : type(recv, s));
        Map<String, Object> meta = new LinkedHashMap<>();
        f.put("type_parameters", typeParams(p.getTypeParameters(), s, meta));
        f.put("access_mod", access);
        f.put("is_static", false);
        if (getter != null && raw.deprecated.contains(getter)) {
            f.put("deprecated", true);
        }
        if (level != null) {
            f.put("deprecation_level", "error");
        }
        meta.put("is_const", Attributes.isConst(p));
        meta.put("is_lateinit", Attributes.isLateinit(p));
        // a property's marker is on its synthetic `$annotations` method, or on its getter
        // (`@get:`) or setter
        List<String> optIn = raw.builtin ? optInsKm(p.getAnnotations())
                : optIns(raw, annotations, getter, sig(JvmExtensionsKt.getSetterSignature(p)));
        if (optIn != null) {
            meta.put("opt_in", optIn);
        }
        f.put("other_metadata", meta);
        return f;
    }

    /** A static member the compiler synthesizes (an enum's `values()`, `valueOf`). */
    static Map<String, Object> synthesized(String name, List<String> params, String ret) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("is_suspend", false);
        meta.put("is_inline", false);
        meta.put("synthesized", true);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("parameters", params);
        m.put("type_parameters", new ArrayList<>());
        m.put("return_type", ret);
        m.put("receiver", null);
        m.put("is_static", true);
        m.put("is_constructor", false);
        m.put("access_mod", "public");
        m.put("other_metadata", meta);
        return m;
    }

    /** True when a supertype (among the inputs, transitively) declares a property `name`. */
    boolean inheritsProperty(KmClass c, String name, Set<String> seen) {
        for (KmType t : c.getSupertypes()) {
            if (!(t.getClassifier() instanceof KmClassifier.Class)) {
                continue;
            }
            String sn = ((KmClassifier.Class) t.getClassifier()).getName();
            KmClass sc = classes.get(sn);
            if (sc == null || !seen.add(sn)) {
                continue;
            }
            for (KmProperty p : sc.getProperties()) {
                if (p.getName().equals(name) && p.getReceiverParameterType() == null) {
                    return true;
                }
            }
            if (inheritsProperty(sc, name, seen)) {
                return true;
            }
        }
        return false;
    }

    /** True when a supertype declares a function with this name and parameter count. */
    boolean inheritsFunction(KmClass c, KmFunction f, Set<String> seen) {
        for (KmType t : c.getSupertypes()) {
            if (!(t.getClassifier() instanceof KmClassifier.Class)) {
                continue;
            }
            String sn = ((KmClassifier.Class) t.getClassifier()).getName();
            KmClass sc = classes.get(sn);
            if (sc == null || !seen.add(sn)) {
                continue;
            }
            for (KmFunction g : sc.getFunctions()) {
                if (g.getName().equals(f.getName())
                        && g.getValueParameters().size() == f.getValueParameters().size()
                        && (g.getReceiverParameterType() == null)
                                == (f.getReceiverParameterType() == null)) {
                    return true;
                }
            }
            if (inheritsFunction(sc, f, seen)) {
                return true;
            }
        }
        return false;
    }

    /** The class and every enclosing class are public or protected (and not local). */
    boolean accessible(KmClass c) {
        String name = c.getName();
        if (isLocal(name) || accessOf(Attributes.getVisibility(c)) == null) {
            return false;
        }
        int i = name.lastIndexOf('.');
        if (i > 0) {
            KmClass o = classes.get(name.substring(0, i));
            return o == null || accessible(o);
        }
        return true;
    }

    @SuppressWarnings({"unchecked", "deprecation"})
    void emitClass(Decoded x) {
        KmClass c = x.cls;
        ClassKind kind = Attributes.getKind(c);
        if (kind == ClassKind.ENUM_ENTRY || !accessible(c)) {
            return;
        }
        String name = c.getName();
        Scope s = classScope(c);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", dotted(name));
        Map<String, Object> classMeta = new LinkedHashMap<>();
        doc.put("type_parameters", typeParams(c.getTypeParameters(), s, classMeta));
        List<String> supers = new ArrayList<>();
        for (KmType t : c.getSupertypes()) {
            String st = type(t, s);
            if (!st.equals("kotlin.Any")) {
                supers.add(st);
            }
        }
        doc.put("implements", supers);
        doc.put("inherits", supers);
        int classType;
        String kk;
        switch (kind) {
            case INTERFACE: classType = 1; kk = "interface"; break;
            case ANNOTATION_CLASS: classType = 1; kk = "annotation_class"; break;
            case ENUM_CLASS: classType = 3; kk = "enum_class"; break;
            case OBJECT: classType = 0; kk = "object"; break;
            case COMPANION_OBJECT: classType = 0; kk = "companion"; break;
            default:
                Modality mo = Attributes.getModality(c);
                classType = mo == Modality.ABSTRACT || mo == Modality.SEALED ? 2 : 0;
                kk = "class";
        }
        doc.put("class_type", classType);
        List<Object> methods = new ArrayList<>();
        String simple = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('.')) + 1);
        boolean isObject = kind == ClassKind.OBJECT || kind == ClassKind.COMPANION_OBJECT;
        if (!isObject && kind != ClassKind.ENUM_CLASS && kind != ClassKind.INTERFACE
                && kind != ClassKind.ANNOTATION_CLASS) {
            for (KmConstructor k : c.getConstructors()) {
                String access = accessOf(Attributes.getVisibility(k));
                String sig = x.raw.builtin ? null : sig(JvmExtensionsKt.getSignature(k));
                if (access == null || (sig != null && x.raw.hidden.contains(sig))) {
                    continue;
                }
                Map<String, Object> meta = new LinkedHashMap<>();
                meta.put("is_suspend", false);
                meta.put("is_inline", false);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", simple);
                m.put("parameters", params(k.getValueParameters(), s, meta));
                m.put("type_parameters", new ArrayList<>());
                m.put("return_type", null);
                m.put("receiver", null);
                m.put("is_static", false);
                m.put("is_constructor", true);
                m.put("access_mod", access);
                List<String> optIn = x.raw.builtin
                        ? optInsKm(k.getAnnotations()) : optIns(x.raw, sig);
                if (optIn != null) {
                    meta.put("opt_in", optIn);
                }
                m.put("other_metadata", meta);
                if (sig != null && x.raw.deprecated.contains(sig)) {
                    m.put("deprecated", true);
                }
                if (sig != null && x.raw.errors.contains(sig)) {
                    m.put("deprecation_level", "error");
                }
                methods.add(m);
            }
        }
        for (KmFunction f : c.getFunctions()) {
            Map<String, Object> m;
            try {
                m = function(f, s, x.raw);
            } catch (RuntimeException e) {
                problem(x.raw, "function " + f.getName() + " skipped: " + e.getMessage());
                continue;
            }
            if (m != null) {
                if (inheritsFunction(c, f, new HashSet<>())) {
                    ((Map<String, Object>) m.get("other_metadata")).put("is_override", true);
                }
                methods.add(m);
            }
        }
        if (kind == ClassKind.ENUM_CLASS) {
            // what the compiler synthesizes for every enum class (not in its metadata)
            methods.add(synthesized("values", new ArrayList<>(),
                    "kotlin.Array<" + dotted(name) + ">"));
            List<String> ps = new ArrayList<>();
            ps.add("kotlin.String");
            methods.add(synthesized("valueOf", ps, dotted(name)));
        }
        doc.put("methods", methods);
        List<Object> fields = new ArrayList<>();
        if (kind == ClassKind.ENUM_CLASS) {
            for (String e : c.getEnumEntries()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("name", e);
                f.put("type", dotted(name));
                f.put("is_final", true);
                f.put("is_override", false);
                f.put("receiver", null);
                f.put("type_parameters", new ArrayList<>());
                f.put("access_mod", "public");
                f.put("is_static", true);
                f.put("is_enum_constant", true);
                List<String> optIn = optIns(x.raw, "field:" + e);
                if (optIn != null) {
                    Map<String, Object> meta = new LinkedHashMap<>();
                    meta.put("opt_in", optIn);
                    f.put("other_metadata", meta);
                }
                fields.add(f);
            }
        }
        if (kind == ClassKind.ENUM_CLASS && Attributes.getHasEnumEntries(c)) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("name", "entries");
            f.put("type", "kotlin.enums.EnumEntries<" + dotted(name) + ">");
            f.put("is_final", true);
            f.put("is_override", false);
            f.put("receiver", null);
            f.put("type_parameters", new ArrayList<>());
            f.put("access_mod", "public");
            f.put("is_static", true);
            fields.add(f);
        }
        for (KmProperty p : c.getProperties()) {
            boolean over = p.getReceiverParameterType() == null
                    && inheritsProperty(c, p.getName(), new HashSet<>());
            Map<String, Object> f;
            try {
                f = property(p, s, x.raw, over);
            } catch (RuntimeException e) {
                problem(x.raw, "property " + p.getName() + " skipped: " + e.getMessage());
                continue;
            }
            if (f != null) {
                fields.add(f);
            }
        }
        doc.put("fields", fields);
        if (Attributes.isFunInterface(c)) {
            doc.put("functional_interface", true);
        }
        int dot = name.lastIndexOf('.');
        doc.put("parent", dot > 0 ? dotted(name.substring(0, dot)) : null);
        doc.put("access_mod", accessOf(Attributes.getVisibility(c)));
        doc.put("language", "kotlin");
        doc.put("is_class", true);
        if (x.raw.classDeprecated) {
            doc.put("deprecated", true);
        }
        if (x.raw.classError) {
            // a use of the class's name is an error; its members stay (a value of it may be
            // reached through an inherited type)
            doc.put("deprecation_level", "error");
        }
        if (x.raw.optInMarker) {
            doc.put("opt_in_marker", true);
        }
        List<String> classOptIn = x.raw.builtin
                ? optInsKm(c.getAnnotations()) : optIns(x.raw.classAnnotations);
        if (classOptIn != null) {
            doc.put("opt_in", classOptIn);
        }
        if (x.raw.builtin) {
            // no class file: Java does not name it, and its annotations are not in the
            // metadata read
            doc.put("kotlin_builtin", true);
        }
        if (Attributes.isInner(c)) {
            doc.put("is_inner", true);
        }
        if (Attributes.getModality(c) == Modality.SEALED) {
            doc.put("is_sealed", true);
        }
        doc.put("kotlin_kind", kk);
        if (c.getCompanionObject() != null) {
            doc.put("companion", c.getCompanionObject());
        }
        if (Attributes.isData(c)) {
            doc.put("is_data", true);
        }
        if (Attributes.isValue(c)) {
            doc.put("is_value", true);
        }
        if (!classMeta.isEmpty()) {
            doc.put("upper_bounds", classMeta.get("upper_bounds"));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jvm_name", x.raw.jvmName);
        body.put("doc", doc);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("class", body);
        print(line);
    }

    /** The static method Java calls for package function `f` of a facade class
     *  (`kotlin.text.StringsKt.trim`), or null when Java cannot call it: not public in
     *  bytecode (inline-only), a suspend function, a name Java cannot write (mangled). */
    static String javaMethod(String facade, KmFunction f, Raw raw) {
        JvmMethodSignature js = JvmExtensionsKt.getSignature(f);
        String sig = sig(js);
        if (sig == null || !raw.publicMethods.contains(sig) || Attributes.isSuspend(f)
                || facade.contains("$") || !isJavaIdentifier(js.getName())) {
            return null;
        }
        return dotted(facade) + "." + js.getName();
    }

    static boolean isJavaIdentifier(String s) {
        if (s.isEmpty() || !Character.isJavaIdentifierStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!Character.isJavaIdentifierPart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    void emitFacade(Decoded x) {
        KmPackage p = x.pkg;
        Scope s = new Scope(null, new ArrayList<>());
        List<Object> methods = new ArrayList<>();
        // the class whose static methods Java calls: the file facade, or the facade of a
        // multi-file class part
        String facade = x.raw.builtin ? null
                : x.raw.k != null && x.raw.k == 5 && x.raw.xs != null ? x.raw.xs : x.raw.jvmName;
        for (KmFunction f : p.getFunctions()) {
            try {
                Map<String, Object> m = function(f, s, x.raw);
                if (m != null) {
                    String jvm = facade == null ? null : javaMethod(facade, f, x.raw);
                    if (jvm != null) {
                        ((Map<String, Object>) m.get("other_metadata")).put("jvm_method", jvm);
                    }
                    methods.add(m);
                }
            } catch (RuntimeException e) {
                problem(x.raw, "function " + f.getName() + " skipped: " + e.getMessage());
            }
        }
        List<Object> fields = new ArrayList<>();
        for (KmProperty pr : p.getProperties()) {
            try {
                Map<String, Object> f = property(pr, s, x.raw, false);
                if (f != null) {
                    fields.add(f);
                }
            } catch (RuntimeException e) {
                problem(x.raw, "property " + pr.getName() + " skipped: " + e.getMessage());
            }
        }
        String pkg = kotlinPackageOf(x.raw);
        List<Object> aliasDocs = new ArrayList<>();
        for (KmTypeAlias a : p.getTypeAliases()) {
            String access = accessOf(Attributes.getVisibility(a));
            if (access == null) {
                continue;
            }
            try {
                Scope as = new Scope(null, a.getTypeParameters());
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("name", dotted(pkg.isEmpty() ? a.getName() : pkg + "/" + a.getName()));
                d.put("type_parameters", typeParams(a.getTypeParameters(), as, null));
                d.put("type", type(a.getExpandedType(), as));
                d.put("underlying", type(a.getUnderlyingType(), as));
                d.put("access_mod", access);
                aliasDocs.add(d);
            } catch (RuntimeException e) {
                problem(x.raw, "type alias " + a.getName() + " skipped: " + e.getMessage());
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jvm_name", x.raw.jvmName);
        body.put("package", dotted(pkg));
        body.put("methods", methods);
        body.put("fields", fields);
        body.put("type_aliases", aliasDocs);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("facade", body);
        print(line);
    }
}
