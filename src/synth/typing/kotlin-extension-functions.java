import java.lang.reflect.*;
import java.util.*;
import java.util.jar.*;

/** Prints the static methods of kotlin-stdlib's file facades (extension functions compile to
 * static methods whose first parameter is the receiver) as name, receiver type, parameters
 * besides the receiver, `instance`, and `varargs`. */
/// Regenerates src/synth/typing/kotlin-extension-functions.tsv (see its header).
public class KotlinExtensionFunctions {
    static String name(Class<?> c) {
        if (c.isArray()) {
            Class<?> e = c.getComponentType();
            return (e.isPrimitive() ? e.getName() : name(e)) + "[]";
        }
        if (c.isPrimitive()) {
            switch (c.getName()) {
                case "int": return "java.lang.Integer"; case "long": return "java.lang.Long";
                case "short": return "java.lang.Short"; case "byte": return "java.lang.Byte";
                case "char": return "java.lang.Character"; case "boolean": return "java.lang.Boolean";
                case "float": return "java.lang.Float"; case "double": return "java.lang.Double";
                default: return c.getName();
            }
        }
        return c.getName().replace('$', '.');
    }
    public static void main(String[] a) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        ClassLoader cl = KotlinExtensionFunctions.class.getClassLoader();
        try (JarFile jar = new JarFile(a[0])) {
            for (JarEntry e : Collections.list(jar.entries())) {
                String n = e.getName();
                if (!n.startsWith("kotlin/") || !n.endsWith(".class") || n.contains("/jvm/internal/")) continue;
                String simple = n.substring(n.lastIndexOf('/') + 1, n.length() - 6);
                if (!(simple.endsWith("Kt") || simple.contains("Kt__") || simple.contains("Kt___"))) continue;
                Class<?> c;
                try { c = Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), false, cl); }
                catch (Throwable t) { continue; }
                Method[] ms;
                try { ms = c.getDeclaredMethods(); } catch (Throwable t) { continue; }
                for (Method m : ms) {
                    if (!Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || m.getName().contains("$")) continue;
                    Class<?>[] ps = m.getParameterTypes();
                    if (ps.length == 0) continue;
                    out.add(m.getName() + "\t" + name(ps[0]) + "\t" + (ps.length - 1) + "\tinstance" + (m.isVarArgs() ? "\tvarargs" : ""));
                }
            }
        }
        for (String l : out) System.out.println(l);
    }
}
