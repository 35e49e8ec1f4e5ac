//! The source-level passes of `thalia reduce`, run once the IR passes are done: imports and
//! short names instead of fully qualified ones ([`shorten`]), and a compact layout without
//! the package declaration and blank lines ([`compact`]). Both are checked by the compiler
//! like any step; a rewrite that changes the finding is not kept.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use thalia_translators::Language;

/// A qualified name found in a source: where it starts, and where its top-level class's
/// name ends (packages and class, `java.util.Map` of `java.util.Map.Entry`).
struct Qualified {
    start: usize,
    class_end: usize,
}

/// The byte ranges of `src` that are code (not string or character literals, not comments).
pub(super) fn code_ranges(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut from) = (0, 0);
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                out.push((from, i));
                let triple = q == b'"' && b[i..].starts_with(b"\"\"\"");
                if triple {
                    i += 3;
                    while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                        i += 1;
                    }
                    i = (i + 3).min(b.len());
                } else {
                    i += 1;
                    while i < b.len() && b[i] != q && b[i] != b'\n' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i = (i + 1).min(b.len());
                }
                from = i;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push((from, i));
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                from = i;
            }
            _ => i += 1,
        }
    }
    out.push((from, b.len()));
    out
}

/// Whether `c` may be part of an identifier.
fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The qualified class names of `src`'s code (`a.b.C`, `a.b.C.D`: lower-case package
/// segments, then an upper-case class), outside `package` and `import` lines; and the
/// capitalized names written without a qualifier.
fn scan(src: &str) -> (Vec<Qualified>, HashSet<String>) {
    let b = src.as_bytes();
    let mut found = Vec::new();
    let mut bare = HashSet::new();
    let skipped_line = |at: usize| {
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = src[line_start..].trim_start();
        line.starts_with("package ") || line.starts_with("import ")
    };
    for (from, to) in code_ranges(src) {
        let mut i = from;
        while i < to {
            if !ident_byte(b[i]) || (i > from && (ident_byte(b[i - 1]) || b[i - 1] == b'.')) {
                i += 1;
                continue;
            }
            // a dotted name starting at i
            let mut segs: Vec<(usize, usize)> = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < to && ident_byte(b[j]) {
                    j += 1;
                }
                if s == j {
                    break;
                }
                segs.push((s, j));
                if j + 1 < to && b[j] == b'.' && ident_byte(b[j + 1]) {
                    j += 1;
                } else {
                    break;
                }
            }
            let end = segs.last().map_or(i + 1, |s| s.1);
            let upper = |s: &(usize, usize)| b[s.0].is_ascii_uppercase();
            let lower = |s: &(usize, usize)| b[s.0].is_ascii_lowercase();
            match segs.iter().position(upper) {
                Some(k) if k > 0 && segs[..k].iter().all(lower) && !skipped_line(i) => {
                    found.push(Qualified {
                        start: i,
                        class_end: segs[k].1,
                    });
                }
                Some(0) => {
                    bare.insert(src[segs[0].0..segs[0].1].to_string());
                }
                _ => {}
            }
            i = end.max(i + 1);
        }
    }
    (found, bare)
}

/// Whether `lang` sees the classes of `package` without an import.
fn default_package(lang: Language, package: &str) -> bool {
    match lang {
        Language::Java => package == "java.lang",
        Language::Groovy => matches!(
            package,
            "java.lang" | "java.util" | "java.io" | "java.net" | "groovy.lang" | "groovy.util"
        ),
        _ => false,
    }
}

/// The simple names Kotlin's default imports (`kotlin.*`, `kotlin.collections.*`,
/// `kotlin.annotation.*`, ...) bind to Kotlin's own types, which a Java class of the same
/// name written short would not be.
const KOTLIN_DEFAULT_NAMES: [&str; 36] = [
    "Any",
    "Annotation",
    "Array",
    "Boolean",
    "Byte",
    "Char",
    "CharSequence",
    "Collection",
    "Comparable",
    "Deprecated",
    "Double",
    "Enum",
    "Float",
    "Function",
    "Int",
    "Iterable",
    "Iterator",
    "Lazy",
    "List",
    "ListIterator",
    "Long",
    "Map",
    "Nothing",
    "Number",
    "Pair",
    "Regex",
    "Repeatable",
    "Result",
    "Retention",
    "Sequence",
    "Set",
    "Short",
    "String",
    "Target",
    "Throwable",
    "Unit",
];

/// How a source imports the classes it names by simple names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Imports {
    /// One on-demand import per package (`import java.security.*`).
    Packages,
    /// One import per class (`import java.security.Key`).
    Classes,
}

/// Variants of `src` with fully qualified classes written by their simple names and
/// imported (on one line after the package declaration), most compact first: one import per
/// package, then one per class. A class is written short when its simple name is
/// unambiguous (no other class of the program, no name written without a qualifier and no
/// existing import has it) and when that does not make the source longer: always for the
/// packages the language imports by default, else when its uses save more than its import
/// costs. Empty when nothing would change.
pub fn shorten(src: &str, lang: Language) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for how in [Imports::Packages, Imports::Classes] {
        if let Some(v) = shorten_with(src, lang, how) {
            if !out.contains(&v) && v.len() < src.len() {
                out.push(v);
            }
        }
    }
    out
}

/// The import of `name` (a class, or a package's classes when `package`) in `lang`.
fn import_line(lang: Language, name: &str, package: bool) -> String {
    let star = match (package, lang) {
        (false, _) => "",
        (true, Language::Scala2) => "._",
        (true, _) => ".*",
    };
    match lang {
        Language::Java => format!("import {name}{star};"),
        _ => format!("import {name}{star}"),
    }
}

/// [`shorten`] with one way of importing.
fn shorten_with(src: &str, lang: Language, how: Imports) -> Option<String> {
    let (found, bare) = scan(src);
    if found.is_empty() {
        return None;
    }
    // the names the file already declares or imports
    let mut taken: HashSet<String> = bare;
    for line in src.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("import ") {
            let rest = rest.trim_end_matches(';').trim();
            let name = rest.rsplit([' ', '.']).next().unwrap_or(rest);
            taken.insert(name.to_string());
        }
        for kw in ["class ", "object ", "typealias ", "interface "] {
            if let Some(at) = t.find(kw) {
                let name: String = t[at + kw.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                taken.insert(name);
            }
        }
    }
    // Kotlin's default imports bind these before any on-demand import: `Map` stays
    // `kotlin.collections.Map` under `import java.util.*`, without `java.util.Map`'s statics
    if lang == Language::Kotlin {
        taken.extend(KOTLIN_DEFAULT_NAMES.iter().map(|n| n.to_string()));
    }
    let mut by_simple: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for q in &found {
        let class = &src[q.start..q.class_end];
        let simple = class.rsplit('.').next().unwrap_or(class);
        by_simple.entry(simple).or_default().insert(class);
        *uses.entry(class).or_default() += 1;
    }
    let package = |c: &str| {
        c.rsplit_once('.')
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let candidates: Vec<(&str, &str)> = by_simple
        .iter()
        .filter(|(simple, classes)| classes.len() == 1 && !taken.contains(**simple))
        .filter_map(|(simple, classes)| classes.iter().next().map(|c| (*c, *simple)))
        .collect();
    // what writing short saves, per package or per class, against what its import costs
    let mut saved: BTreeMap<String, usize> = BTreeMap::new();
    for (c, _) in &candidates {
        let key = match how {
            Imports::Packages => package(c),
            Imports::Classes => c.to_string(),
        };
        *saved.entry(key).or_default() += uses[c] * (package(c).len() + 1);
    }
    let mut imports: BTreeSet<String> = BTreeSet::new();
    let mut short: BTreeMap<&str, &str> = BTreeMap::new();
    for (c, simple) in &candidates {
        let p = package(c);
        if default_package(lang, &p) {
            short.insert(c, simple);
            continue;
        }
        let (key, line) = match how {
            Imports::Packages => (p.clone(), import_line(lang, &p, true)),
            Imports::Classes => (c.to_string(), import_line(lang, c, false)),
        };
        if saved.get(&key).copied().unwrap_or(0) > line.len() + 2 {
            short.insert(c, simple);
            imports.insert(line);
        }
    }
    if short.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for q in &found {
        let class = &src[q.start..q.class_end];
        if let Some(simple) = short.get(class) {
            out.push_str(&src[at..q.start]);
            out.push_str(simple);
            at = q.class_end;
        }
    }
    out.push_str(&src[at..]);
    if imports.is_empty() {
        return Some(out);
    }
    let imports: Vec<String> = imports.into_iter().collect();
    let line = match lang {
        Language::Java => imports.join(" "),
        _ => imports.join("; "),
    };
    Some(insert_after_package(&out, &line))
}

/// `src` with `line` inserted after its package declaration (or its file annotations when
/// it has none).
fn insert_after_package(src: &str, line: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let at = match lines
        .iter()
        .position(|l| l.trim_start().starts_with("package "))
    {
        Some(i) => i + 1,
        None => lines
            .iter()
            .take_while(|l| l.trim_start().starts_with("@file:") || l.trim().is_empty())
            .count(),
    };
    let mut out: Vec<&str> = lines[..at].to_vec();
    out.push(line);
    out.extend(&lines[at..]);
    out.join("\n") + "\n"
}

/// `src` without its package declaration and blank lines, and with Groovy's checking
/// annotation on the class's line: the layout of a report.
pub fn compact(src: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut pending_annotation: Option<&str> = None;
    for line in src.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("package ") {
            continue;
        }
        if t.starts_with("@groovy.transform.") || t == "@CompileStatic" || t == "@TypeChecked" {
            pending_annotation = Some(t);
            continue;
        }
        match pending_annotation.take() {
            Some(a) => out.push(format!("{a} {t}")),
            None => out.push(line.to_string()),
        }
    }
    if let Some(a) = pending_annotation {
        out.push(a.to_string());
    }
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROOVY: &str = "package thalia.p1\n\n@groovy.transform.CompileStatic\nfinal class Test_p1 {\n    static void test() {\n        java.security.Key a0 = (true ? ((javax.crypto.interfaces.DHPublicKey) null) : ((javax.crypto.interfaces.PBEKey) null));\n        java.util.Map.Entry<java.lang.String, java.lang.Integer> e = null; m('java.util.List')\n    }\n}\n";

    #[test]
    fn qualified_names_become_simple_names_with_imports() {
        let v = shorten(GROOVY, Language::Groovy);
        assert_eq!(v.len(), 2, "{v:#?}");
        let s = &v[0];
        // two classes of one package: one on-demand import pays
        assert!(
            s.contains("java.security.Key a0 = (true ? ((DHPublicKey) null) : ((PBEKey) null));"),
            "{s}"
        );
        // nested classes keep their outer class; Groovy's default packages need no import
        assert!(s.contains("Map.Entry<String, Integer> e"), "{s}");
        assert!(!s.contains("import java.util"), "{s}");
        // string literals stay as they are
        assert!(s.contains("m('java.util.List')"), "{s}");
        // one import line, after the package declaration
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "package thalia.p1");
        assert_eq!(lines[1], "import javax.crypto.interfaces.*");
        // one import per class: each of them costs more than its one use saves
        let s = &v[1];
        assert!(s.contains("((javax.crypto.interfaces.PBEKey) null)"), "{s}");
        assert!(s.contains("Map.Entry<String, Integer> e"), "{s}");
        assert!(!s.contains("import "), "{s}");
        assert!(v.iter().all(|x| x.len() < GROOVY.len()));
    }

    #[test]
    fn kotlins_default_names_stay_qualified_in_kotlin() {
        let src = "object T {\n    fun test() {\n        java.util.Map.of<Any, Any>(java.util.Map.of<Any, Any>(), java.util.Map.of<Any, Any>(), java.util.Collections.emptyList<Any>(), java.util.Collections.emptyList<Any>(), java.util.Collections.emptyList<Any>(), java.util.Collections.emptyList<Any>())\n    }\n}\n";
        let v = shorten(src, Language::Kotlin);
        assert!(!v.is_empty());
        for s in &v {
            // `Map` under `import java.util.*` would be Kotlin's, without `of`
            assert!(s.contains("java.util.Map.of<Any, Any>("), "{s}");
            assert!(s.contains("Collections.emptyList"), "{s}");
        }
    }

    #[test]
    fn ambiguous_or_taken_simple_names_stay_qualified() {
        let src = "package p;\npublic final class Test_p1 {\n    static void test() {\n        java.util.List a = null; java.awt.List b = null; a.b.Key k = null; Key x;\n        java.util.Set s = (java.util.Set) (java.util.Set) null;\n    }\n}\n";
        let s = &shorten(src, Language::Java)[0];
        assert!(
            s.contains("java.util.List a") && s.contains("java.awt.List b"),
            "{s}"
        );
        assert!(s.contains("a.b.Key k"), "{s}");
        assert!(
            s.contains("import java.util.*;") && s.contains(" Set s = (Set) (Set) null;"),
            "{s}"
        );
        assert!(shorten("class A { int x; }", Language::Java).is_empty());
    }

    #[test]
    fn the_compact_layout_drops_the_package_and_blank_lines() {
        let s = compact(&shorten(GROOVY, Language::Groovy)[0]);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 7, "{s}");
        assert!(lines[0].starts_with("import "));
        assert_eq!(
            lines[1],
            "@groovy.transform.CompileStatic final class Test_p1 {"
        );
        // the call under test is still found where the translators put it
        assert_eq!(
            thalia_translators::call_lines(&s).map(|l| (l.first, l.last)),
            Some((5, 5))
        );
    }
}
