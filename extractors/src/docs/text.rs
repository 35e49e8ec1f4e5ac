//! Signatures as javadoc prints them, turned into API JSON strings: the HTML of a signature is
//! flattened to text (every link to a class replaced by the class's fully-qualified name, which
//! the link's `title` and target give), tokenized, cleaned (annotations dropped, the bounds
//! that JDK 17+ javadoc prints after a type variable in a *use* of it dropped, unlinked
//! `java.lang` names qualified), and parsed as a class or member declaration.

use scraper::{ElementRef, Node};

/// A token of a flattened signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name, keyword or (dotted) qualified name; also a quoted literal.
    Word(String),
    /// `...`
    Ellipsis,
    /// Any other character: `< > , & ? [ ] ( ) @ =`.
    P(char),
}

/// The modifiers javadoc prints.
const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "private",
    "static",
    "final",
    "abstract",
    "default",
    "synchronized",
    "native",
    "strictfp",
    "transient",
    "volatile",
    "sealed",
    "non-sealed",
];

/// The kinds of type declaration.
const KINDS: &[&str] = &["class", "interface", "enum", "record", "@interface"];

const PRIMITIVES: &[&str] = &[
    "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
];

/// Public types of `java.lang` that documentation may print unlinked and unqualified.
const JAVA_LANG: &[&str] = &[
    "AbstractMethodError",
    "Appendable",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "AssertionError",
    "AutoCloseable",
    "Boolean",
    "Byte",
    "CharSequence",
    "Character",
    "Class",
    "ClassCastException",
    "ClassLoader",
    "ClassNotFoundException",
    "ClassValue",
    "CloneNotSupportedException",
    "Cloneable",
    "Comparable",
    "Deprecated",
    "Double",
    "Enum",
    "Error",
    "Exception",
    "Float",
    "FunctionalInterface",
    "IllegalAccessException",
    "IllegalArgumentException",
    "IllegalMonitorStateException",
    "IllegalStateException",
    "IndexOutOfBoundsException",
    "InstantiationException",
    "Integer",
    "InterruptedException",
    "Iterable",
    "LinkageError",
    "Long",
    "Math",
    "Module",
    "NegativeArraySizeException",
    "NoSuchFieldException",
    "NoSuchMethodException",
    "NullPointerException",
    "Number",
    "NumberFormatException",
    "Object",
    "OutOfMemoryError",
    "Override",
    "Package",
    "Process",
    "ProcessBuilder",
    "Readable",
    "Record",
    "ReflectiveOperationException",
    "Runnable",
    "Runtime",
    "RuntimeException",
    "SafeVarargs",
    "SecurityException",
    "Short",
    "StackOverflowError",
    "StackTraceElement",
    "StrictMath",
    "String",
    "StringBuffer",
    "StringBuilder",
    "StringIndexOutOfBoundsException",
    "SuppressWarnings",
    "System",
    "Thread",
    "ThreadGroup",
    "ThreadLocal",
    "Throwable",
    "UnsupportedOperationException",
    "Void",
];

/// The fully-qualified name a link to a class stands for: the package from its `title`
/// (`class in java.util`, `class or interface in java.lang`, `enum class in p`) and the
/// (possibly nested, `Map.Entry`) class name from its target's file name. `None` for links
/// to members, type parameters and anything else.
fn link_target(a: &ElementRef<'_>) -> Option<String> {
    let title = a.value().attr("title")?;
    if title.starts_with("type parameter") {
        return None;
    }
    let (_, pkg) = title.rsplit_once(" in ")?;
    let href = a.value().attr("href")?;
    if href.contains('#') {
        return None;
    }
    let path = href.split('?').next()?;
    let stem = path.rsplit('/').next()?.strip_suffix(".html")?;
    if stem.is_empty() || stem.contains('-') || pkg.trim().is_empty() {
        return None;
    }
    Some(format!("{}.{stem}", pkg.trim()))
}

/// Appends the text of an element, links to classes replaced by qualified names. Elements
/// of the classes in `skip` (e.g. `annotations`) are left out. Iterative: a page may nest
/// elements arbitrarily deep.
pub(crate) fn flatten_into(el: ElementRef<'_>, skip: &[&str], out: &mut String) {
    use ego_tree::iter::Edge;
    // the node whose subtree is being left out (a skipped element, a link already written)
    let mut skipping: Option<ego_tree::NodeId> = None;
    for edge in el.traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() || node.id() == el.id() {
                    continue;
                }
                match node.value() {
                    Node::Text(t) => out.push_str(t),
                    Node::Element(e) => {
                        if skip
                            .iter()
                            .any(|s| e.has_class(s, scraper::CaseSensitivity::CaseSensitive))
                        {
                            skipping = Some(node.id());
                            continue;
                        }
                        match e.name() {
                            "br" => out.push(' '),
                            "a" => {
                                let Some(a) = ElementRef::wrap(node) else {
                                    continue;
                                };
                                if let Some(fqn) = link_target(&a) {
                                    let text: String = a.text().collect();
                                    if text.trim_start().starts_with('@') {
                                        out.push('@');
                                    }
                                    out.push(' ');
                                    out.push_str(&fqn);
                                    out.push(' ');
                                    skipping = Some(node.id());
                                }
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                }
            }
        }
    }
}

/// The flattened text of an element.
pub(crate) fn flatten(el: ElementRef<'_>, skip: &[&str]) -> String {
    let mut s = String::new();
    flatten_into(el, skip, &mut s);
    s
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '.' || c == '-'
}

/// Splits flattened text into tokens (non-breaking and zero-width spaces are spaces).
pub(crate) fn tokenize(s: &str) -> Vec<Tok> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == '\u{200b}' || c == '\u{a0}' {
            i += 1;
        } else if c == '.' && chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.') {
            out.push(Tok::Ellipsis);
            i += 3;
        } else if c == '"' || c == '\'' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            out.push(Tok::Word(chars[start..i].iter().collect()));
        } else if is_word_char(c) && c != '-' && c != '.' {
            let start = i;
            while i < chars.len() && is_word_char(chars[i]) {
                if chars[i] == '.' && chars.get(i + 1) == Some(&'.') {
                    break;
                }
                i += 1;
            }
            let mut w: String = chars[start..i].iter().collect();
            // a word never ends with a dot or a hyphen (`non-sealed` keeps its inner one)
            while w.ends_with('.') || w.ends_with('-') {
                w.pop();
                i -= 1;
            }
            out.push(Tok::Word(w));
        } else {
            out.push(Tok::P(c));
            i += 1;
        }
    }
    out
}

/// Drops annotations (`@A`, `@a.B(x = "y", z = {..})`); `@interface` stays, as one word.
pub(crate) fn drop_annotations(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::P('@') {
            match toks.get(i + 1) {
                Some(Tok::Word(w)) if w == "interface" => {
                    out.push(Tok::Word("@interface".into()));
                    i += 2;
                    continue;
                }
                Some(Tok::Word(_)) => {
                    i += 2;
                    if toks.get(i) == Some(&Tok::P('(')) {
                        let mut depth = 0usize;
                        while i < toks.len() {
                            match toks[i] {
                                Tok::P('(') => depth += 1,
                                Tok::P(')') => {
                                    depth -= 1;
                                    if depth == 0 {
                                        i += 1;
                                        break;
                                    }
                                }
                                _ => {}
                            }
                            i += 1;
                        }
                    }
                    continue;
                }
                _ => {}
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Splits at the commas outside `<>`, `()` and `{}`.
pub(crate) fn split_top(toks: &[Tok]) -> Vec<Vec<Tok>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut depth = 0i32;
    for t in toks {
        match t {
            Tok::P('<' | '(' | '{') => depth += 1,
            Tok::P('>' | ')' | '}') => depth -= 1,
            Tok::P(',') if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(t.clone());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The index just past the bracket closing the one at `open` (`<`/`>`, `(`/`)`).
fn matching(toks: &[Tok], open: usize) -> Option<usize> {
    let (o, c) = match toks.get(open)? {
        Tok::P('<') => ('<', '>'),
        Tok::P('(') => ('(', ')'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        if *t == Tok::P(o) {
            depth += 1;
        } else if *t == Tok::P(c) {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// Renders a type (or type-parameter declaration, `decl`) as the bytecode extractor writes
/// it: qualified names, `,` without spaces, `? extends T`, `A & B`, `T...`.
pub(crate) fn render(toks: &[Tok], decl: bool, tvars: &[String]) -> String {
    // JDK 17+ javadoc prints `List<T extends Comparable<? super T>>` for a field of type
    // `List<T>`: the bound after a type variable in a use is dropped
    let mut kept: Vec<&Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let bogus = matches!(t, Tok::Word(w) if w == "extends")
            && !(decl && i == 1)
            && matches!(kept.last(), Some(Tok::Word(_)));
        if bogus {
            let mut depth = 0i32;
            i += 1;
            while i < toks.len() {
                match toks[i] {
                    Tok::P('<') => depth += 1,
                    Tok::P('>') if depth == 0 => break,
                    Tok::P('>') => depth -= 1,
                    Tok::P(',') if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            continue;
        }
        kept.push(t);
        i += 1;
    }
    // `T extends @Nullable Object` is `T` once the annotation is dropped, as bytecode says
    if decl && kept.len() == 3 {
        if let (Tok::Word(e), Tok::Word(o)) = (kept[1], kept[2]) {
            if e == "extends" && (o == "Object" || o == "java.lang.Object") {
                kept.truncate(1);
            }
        }
    }
    let mut out = String::new();
    let mut prev: Option<&Tok> = None;
    for t in kept {
        match t {
            Tok::Word(w) => {
                if matches!(prev, Some(Tok::Word(_)) | Some(Tok::P('?'))) {
                    out.push(' ');
                }
                out.push_str(&qualify(w, tvars));
            }
            Tok::Ellipsis => out.push_str("..."),
            Tok::P('&') => out.push_str(" & "),
            Tok::P(c) => out.push(*c),
        }
        prev = Some(t);
    }
    out
}

/// `String` → `java.lang.String` for an unlinked simple name of `java.lang`.
fn qualify(w: &str, tvars: &[String]) -> String {
    if w.contains('.')
        || PRIMITIVES.contains(&w)
        || tvars.iter().any(|t| t == w)
        || !JAVA_LANG.contains(&w)
    {
        w.to_string()
    } else {
        format!("java.lang.{w}")
    }
}

/// The name a type-parameter declaration declares (`T` of `T extends X`).
pub(crate) fn tparam_name(toks: &[Tok]) -> Option<String> {
    match toks.first() {
        Some(Tok::Word(w)) => Some(w.clone()),
        _ => None,
    }
}

/// A class declaration: `public abstract class Name<T> extends S implements I, J`.
#[derive(Debug, Default)]
pub(crate) struct ClassDecl {
    /// Modifiers.
    pub mods: Vec<String>,
    /// `class`, `interface`, `enum`, `record` or `@interface`.
    pub kind: String,
    /// The (dotted, for nested classes) simple name.
    pub name: String,
    /// Type-parameter declarations.
    pub type_params: Vec<Vec<Tok>>,
    /// `extends` types.
    pub extends: Vec<Vec<Tok>>,
    /// `implements` types.
    pub implements: Vec<Vec<Tok>>,
}

/// Parses a class declaration (annotations already dropped).
pub(crate) fn parse_class_decl(toks: &[Tok]) -> Result<ClassDecl, String> {
    let mut d = ClassDecl::default();
    let mut i = 0;
    while let Some(Tok::Word(w)) = toks.get(i) {
        if KINDS.contains(&w.as_str()) {
            d.kind = w.clone();
            i += 1;
            break;
        }
        d.mods.push(w.clone());
        i += 1;
    }
    if d.kind.is_empty() {
        return Err("no class, interface, enum, record or @interface in the declaration".into());
    }
    match toks.get(i) {
        Some(Tok::Word(n)) => d.name = n.clone(),
        _ => return Err("no type name in the declaration".into()),
    }
    i += 1;
    if toks.get(i) == Some(&Tok::P('<')) {
        let end = matching(toks, i).ok_or("unbalanced <> in the type parameters")?;
        d.type_params = split_top(&toks[i + 1..end - 1]);
        i = end;
    }
    if toks.get(i) == Some(&Tok::P('(')) {
        i = matching(toks, i).ok_or("unbalanced () in the record components")?;
    }
    let mut depth = 0i32;
    let mut lists: (Vec<Tok>, Vec<Tok>) = (Vec::new(), Vec::new());
    let mut which = 0u8;
    for t in &toks[i..] {
        match t {
            Tok::P('<') => depth += 1,
            Tok::P('>') => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            if let Tok::Word(w) = t {
                match w.as_str() {
                    "extends" => {
                        which = 1;
                        continue;
                    }
                    "implements" => {
                        which = 2;
                        continue;
                    }
                    "permits" => {
                        which = 3;
                        continue;
                    }
                    _ => {}
                }
            }
        }
        match which {
            1 => lists.0.push(t.clone()),
            2 => lists.1.push(t.clone()),
            _ => {}
        }
    }
    d.extends = split_top(&lists.0);
    d.implements = split_top(&lists.1);
    Ok(d)
}

/// A member declaration: method, constructor or field.
#[derive(Debug, Default)]
pub(crate) struct MemberDecl {
    /// Modifiers.
    pub mods: Vec<String>,
    /// Type-parameter declarations.
    pub type_params: Vec<Vec<Tok>>,
    /// The type (fields) or return type (methods); empty for constructors.
    pub ty: Vec<Tok>,
    /// The name.
    pub name: String,
    /// Parameters (`None` for a field): each parameter's type and name.
    pub params: Option<Vec<(Vec<Tok>, Option<String>)>>,
    /// Declared exceptions.
    pub throws: Vec<Vec<Tok>>,
}

/// Parses a member declaration (annotations already dropped).
pub(crate) fn parse_member_decl(toks: &[Tok]) -> Result<MemberDecl, String> {
    let mut d = MemberDecl::default();
    let mut i = 0;
    while let Some(Tok::Word(w)) = toks.get(i) {
        if !MODIFIERS.contains(&w.as_str()) {
            break;
        }
        d.mods.push(w.clone());
        i += 1;
    }
    if toks.get(i) == Some(&Tok::P('<')) {
        let end = matching(toks, i).ok_or("unbalanced <> in the type parameters")?;
        d.type_params = split_top(&toks[i + 1..end - 1]);
        i = end;
    }
    // the parameter list: the first `(` outside `<>`
    let mut depth = 0i32;
    let mut open = None;
    for (k, t) in toks.iter().enumerate().skip(i) {
        match t {
            Tok::P('<') => depth += 1,
            Tok::P('>') => depth -= 1,
            Tok::P('(') if depth == 0 => {
                open = Some(k);
                break;
            }
            _ => {}
        }
    }
    match open {
        Some(k) => {
            let Some(Tok::Word(name)) = k.checked_sub(1).and_then(|j| toks.get(j)) else {
                return Err("no member name before `(`".into());
            };
            if k == 0 || k - 1 < i {
                return Err("no member name before `(`".into());
            }
            d.name = name.clone();
            d.ty = toks[i..k - 1].to_vec();
            let end = matching(toks, k).ok_or("unbalanced () in the parameters")?;
            let mut params = Vec::new();
            for p in split_top(&toks[k + 1..end - 1]) {
                let mut p = p;
                let name = match (p.len(), p.last()) {
                    (n, Some(Tok::Word(w))) if n > 1 => {
                        let w = w.clone();
                        p.pop();
                        Some(w)
                    }
                    _ => None,
                };
                if p.is_empty() {
                    return Err("an empty parameter".into());
                }
                params.push((p, name));
            }
            d.params = Some(params);
            let rest = &toks[end..];
            if let Some(Tok::Word(w)) = rest.first() {
                if w == "throws" {
                    d.throws = split_top(&rest[1..])
                        .into_iter()
                        .filter(|t| !t.is_empty())
                        .collect();
                }
            }
        }
        None => {
            // a field or an annotation element: the last word is the name
            let rest = &toks[i..];
            let cut = rest
                .iter()
                .position(|t| matches!(t, Tok::Word(w) if w == "default") || *t == Tok::P('='))
                .unwrap_or(rest.len());
            let rest = &rest[..cut];
            let Some(Tok::Word(name)) = rest.last() else {
                return Err("no member name".into());
            };
            if rest.len() < 2 {
                return Err("no type before the member name".into());
            }
            d.name = name.clone();
            d.ty = rest[..rest.len() - 1].to_vec();
        }
    }
    if d.name.is_empty() {
        return Err("no member name".into());
    }
    Ok(d)
}

/// The notes of a javadoc class page (`dl.notes` or the JDK 8 `dl` under the description):
/// whether it says "Functional Interface", and the interfaces listed under "All Implemented
/// Interfaces" / "All Superinterfaces" (flattened).
pub(crate) fn class_notes(
    doc: &scraper::Html,
    notes_dt: &scraper::Selector,
    code: &scraper::Selector,
) -> (bool, Vec<String>) {
    let functional = doc.select(notes_dt).any(|dt| {
        dt.text()
            .collect::<String>()
            .contains("Functional Interface")
    });
    let mut all_interfaces = Vec::new();
    for dt in doc.select(notes_dt) {
        let t: String = dt.text().collect();
        if !(t.contains("All Implemented Interfaces") || t.contains("All Superinterfaces")) {
            continue;
        }
        let dd = dt
            .next_siblings()
            .filter_map(ElementRef::wrap)
            .find(|e| e.value().name() == "dd");
        if let Some(dd) = dd {
            all_interfaces.extend(dd.select(code).map(|c| flatten(c, &[])));
        }
    }
    (functional, all_interfaces)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        drop_annotations(tokenize(s))
    }

    #[test]
    fn renders_types_like_the_bytecode_extractor() {
        let t = toks("java.util.Map < K , ? extends T extends java.lang.Comparable<? super T> >");
        assert_eq!(render(&t, false, &[]), "java.util.Map<K,? extends T>");
        let t = toks("T extends Comparable<? super T>");
        assert_eq!(
            render(&t, true, &[]),
            "T extends java.lang.Comparable<? super T>"
        );
        let t = toks("K extends Number & Comparable<K>");
        assert_eq!(
            render(&t, true, &[]),
            "K extends java.lang.Number & java.lang.Comparable<K>"
        );
        let t = toks("@CheckForNull Object[] ...");
        assert_eq!(render(&t, false, &[]), "java.lang.Object[]...");
    }

    #[test]
    fn parses_members_and_classes() {
        let d = parse_member_decl(&toks(
            "public static <R extends CharSequence> R map\u{200b}(Function<? super T, ? extends R> f, int... xs) throws java.io.IOException, InterruptedException",
        ))
        .unwrap();
        assert_eq!(d.name, "map");
        assert_eq!(d.mods, ["public", "static"]);
        let ps = d.params.unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[1].1.as_deref(), Some("xs"));
        assert_eq!(render(&ps[1].0, false, &[]), "int...");
        assert_eq!(d.throws.len(), 2);
        let c = parse_class_decl(&toks(
            "@Deprecated public record Point(int x, List<String> y) extends Record implements Comparable<Point>",
        ))
        .unwrap();
        assert_eq!(c.kind, "record");
        assert_eq!(c.name, "Point");
        assert_eq!(c.extends.len(), 1);
        assert_eq!(c.implements.len(), 1);
        let c = parse_class_decl(&toks("public @interface Marker")).unwrap();
        assert_eq!(c.kind, "@interface");
    }
}
