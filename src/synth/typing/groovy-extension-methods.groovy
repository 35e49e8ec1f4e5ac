// Prints the extension methods that Groovy's static type checker sees (one per line, in the
// format of groovy-extension-methods.tsv), from the groovy jar it runs with:
//   java -cp <groovy jars> groovy.ui.GroovyMain groovy-extension-methods.groovy
import org.codehaus.groovy.transform.stc.ExtensionMethodCache
import org.codehaus.groovy.transform.stc.ExtensionMethodNode

def erasedName = { org.codehaus.groovy.ast.ClassNode cn ->
    def t = cn
    int dims = 0
    while (t.isArray()) { t = t.componentType; dims++ }
    t.redirect().name.replace('$', '.') + ('[]' * dims)
}
def rows = new TreeSet<String>()
ExtensionMethodCache.INSTANCE.get(this.class.classLoader).each { name, methods ->
    methods.each { ExtensionMethodNode mn ->
        def ps = mn.extensionMethodNode.parameters
        int n = ps.length - 1
        def row = [mn.name, erasedName(ps[0].type), n, mn.isStaticExtension() ? 'static' : 'instance']
        if (n > 0 && ps[-1].type.isArray()) {
            row << 'varargs'
        }
        rows << row.join('\t')
    }
}
rows.each { println it }
