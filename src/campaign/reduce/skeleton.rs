//! The skeleton passes of `thalia reduce`, run on the reduced source last: what is left of a
//! reduced program is mostly the test class around the call, so its modifiers that no
//! language needs go (`final`, and Java's `public` where nothing runs the program) and its
//! class and locals get the shortest names free in the program (`T`, `x`, `y`). Each is a
//! rewrite of the text (the same on the program and its Java twin, so they stay one program)
//! that the compiler and the finding's oracle check like any step.
//!
//! The test method keeps its name `test`: the campaign finds the call under test by it
//! (`thalia_translators::call_lines`, for the kind and signature of a rejection, for
//! `thalia recheck`), and `thalia run-program` runs it.

use std::collections::{BTreeSet, HashSet};

use thalia_translators::ir::{Expr, Program, Stmt};
use thalia_translators::Language;

use super::text::code_ranges;

/// Whether `c` may be part of an identifier.
fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The identifiers of `src`'s code (not in string or character literals, not in comments),
/// each with its byte range, in order.
fn tokens(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    for (from, to) in code_ranges(src) {
        let mut i = from;
        while i < to {
            if !ident_byte(b[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < to && ident_byte(b[i]) {
                i += 1;
            }
            // a number is no identifier
            if !b[start].is_ascii_digit() {
                out.push((start, i));
            }
        }
    }
    out
}

/// Every identifier written in the code of `sources`.
pub fn identifiers(sources: &[&str]) -> HashSet<String> {
    sources
        .iter()
        .flat_map(|s| tokens(s).into_iter().map(move |(a, b)| s[a..b].to_string()))
        .collect()
}

/// Whether the identifier at `start` is a member's name (after `.`, `?.` or `::`).
fn is_member(src: &str, start: usize) -> bool {
    let before = &src.as_bytes()[..start];
    before.ends_with(b".") || before.ends_with(b"::")
}

/// `src` with each identifier of `map`'s keys written as its value, except where it is a
/// member's name (after `.` or `::`); strings and comments stay as they are.
pub fn rename(src: &str, map: &[(String, String)]) -> String {
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (a, b) in tokens(src) {
        let Some((_, to)) = map.iter().find(|(from, _)| *from == src[a..b]) else {
            continue;
        };
        if is_member(src, a) {
            continue;
        }
        out.push_str(&src[at..a]);
        out.push_str(to);
        at = b;
    }
    out.push_str(&src[at..]);
    out
}

/// The first name of `pool` (then `pool[0]` with a number) that is not in `taken`.
pub fn fresh(pool: &[&str], taken: &HashSet<String>) -> String {
    pool.iter()
        .map(|s| s.to_string())
        .chain((1..).map(|i| format!("{}{i}", pool.first().copied().unwrap_or("x"))))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| "x".into())
}

/// The names a short class may have, shortest first (`T` is often a type parameter).
pub const CLASS_NAMES: [&str; 6] = ["T", "C", "A", "B", "K", "X"];

/// The names short locals may have, in order.
pub const LOCAL_NAMES: [&str; 12] = ["x", "y", "z", "a", "b", "c", "d", "e", "f", "g", "h", "k"];

/// The locals of `p` (its statements' and its lambdas' block locals and parameters), and the
/// names the translators give the values of expression statements (`__unused_0`) in `src`,
/// in the order `src` first writes them.
pub fn locals(p: &Program, src: &str) -> Vec<String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    let add_block = |stmts: &[Stmt], names: &mut BTreeSet<String>| {
        for s in stmts {
            if let Stmt::Local { name, .. } = s {
                names.insert(name.clone());
            }
        }
    };
    add_block(&p.stmts, &mut names);
    p.walk_exprs(&mut |e| {
        if let Expr::Lambda { params, block, .. } = e {
            for (n, _) in params {
                names.insert(n.clone());
            }
            add_block(block, &mut names);
        }
    });
    let mut out: Vec<String> = Vec::new();
    for (a, b) in tokens(src) {
        let t = &src[a..b];
        let known = names.contains(t) || t.starts_with("__unused_");
        if known && !is_member(src, a) && !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    }
    out
}

/// `src` without the modifiers `lang` does not need on the test class and method: Groovy's
/// and Java's `final` on the class, and, unless `keep_public` (a program that runs: the
/// runner calls it), Java's `public` on the class and the method. `None` when nothing goes.
pub fn drop_modifiers(src: &str, lang: Language, keep_public: bool) -> Option<String> {
    let rewrites: &[(&str, &str)] = match (lang, keep_public) {
        (Language::Groovy, _) => &[("final class ", "class ")],
        (Language::Java, true) => &[("public final class ", "public class ")],
        (Language::Java, false) => &[
            ("public final class ", "class "),
            ("public static ", "static "),
        ],
        // Kotlin's and Scala's test objects have no modifier
        _ => &[],
    };
    let mut out = src.to_string();
    for (from, to) in rewrites {
        // the first occurrence at a line's start (after the indentation, or after Groovy's
        // checking annotation on the class's line): the class or method header
        let at = out.lines().scan(0usize, |off, l| {
            let start = *off;
            *off += l.len() + 1;
            Some((start, l))
        });
        let found = at.into_iter().find_map(|(start, l)| {
            let t = l.trim_start();
            let t = match t.strip_prefix('@') {
                Some(rest) => rest.split_once(' ').map_or("", |(_, r)| r),
                None => t,
            };
            t.starts_with(from)
                .then(|| start + l.len() - t.len())
                .filter(|_| !l.trim_start().starts_with("//"))
        });
        if let Some(i) = found {
            out.replace_range(i..i + from.len(), to);
        }
    }
    (out != src).then_some(out)
}

/// `src` with the value of the local `name` written as an expression statement, when
/// nothing reads it and it is declared with the top type (or none), so that no target type
/// shapes it: Groovy's `Object x = e` and `def x = e`, Kotlin's `val x: Any? = e`, Scala's
/// `val x: Any = e` become `e` (Java takes few expressions as statements: never there).
/// `None` when `src` binds no such value.
pub fn unbind(src: &str, lang: Language, name: &str) -> Option<String> {
    let prefixes: Vec<String> = match lang {
        Language::Groovy => ["Object", "java.lang.Object", "def"]
            .iter()
            .map(|t| format!("{t} {name} = "))
            .collect(),
        Language::Kotlin => ["val {} = ", "val {}: Any? = ", "val {}: Any = "]
            .iter()
            .map(|p| p.replace("{}", name))
            .collect(),
        Language::Scala3 | Language::Scala2 => ["val {} = ", "val {}: Any = "]
            .iter()
            .map(|p| p.replace("{}", name))
            .collect(),
        Language::Java => return None,
    };
    let uses = tokens(src)
        .into_iter()
        .filter(|&(a, b)| &src[a..b] == name && !is_member(src, a))
        .count();
    if uses != 1 {
        return None;
    }
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if let Some(p) = prefixes.iter().find(|p| t.starts_with(p.as_str())) {
            let at = offset + indent;
            let mut out = src.to_string();
            out.replace_range(at..at + p.len(), "");
            return Some(out);
        }
        offset += line.len();
    }
    None
}

/// The test class's name in a source of the translators or of reduction (`Test_<id>`, or
/// a short name given before): the name after the first `class ` or `object ` that starts a
/// line's code.
pub fn class_name(src: &str) -> Option<String> {
    src.lines().find_map(|l| {
        let t = l.trim_start();
        let t = match t.strip_prefix('@') {
            Some(rest) => rest.split_once(' ').map_or("", |(_, r)| r),
            None => t,
        };
        let t = ["public ", "final ", "private "]
            .iter()
            .fold(t, |t, m| t.strip_prefix(m).unwrap_or(t));
        let rest = t
            .strip_prefix("class ")
            .or_else(|| t.strip_prefix("object "))?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        (!name.is_empty()).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use thalia_translators::ir::{Receiver, Ty};
    use thalia_translators::{translator, JavaTranslator, Translator};

    /// `Object a0 = (Object) null; lib.U.m(a0, "a0")`: a local, a string naming it, a member
    /// of its name.
    fn program() -> Program {
        let object = Ty::class("java.lang.Object", Vec::new());
        Program::new(
            "p000042",
            vec![
                Stmt::local("a0", object.clone(), Expr::Bottom(object)),
                Stmt::expr(Expr::field(
                    Receiver::expr(Expr::static_call(
                        "lib.U",
                        "a0",
                        Vec::new(),
                        vec![Expr::local("a0"), Expr::str("a0")],
                    )),
                    "length",
                )),
            ],
        )
    }

    const LANGS: [Language; 5] = [
        Language::Java,
        Language::Groovy,
        Language::Kotlin,
        Language::Scala3,
        Language::Scala2,
    ];

    #[test]
    fn every_languages_test_class_and_locals_are_found_and_renamed() {
        let p = program();
        for lang in LANGS {
            let t = translator(lang).expect("a translator");
            let src = t.translate(&p).expect("translates");
            assert_eq!(class_name(&src).as_deref(), Some("Test_p000042"), "{src}");
            let names = locals(&p, &src);
            // the local, and the translators' name of the expression statement's value
            // where the language needs one
            assert_eq!(
                names.first().map(String::as_str),
                Some("a0"),
                "{lang:?}: {src}"
            );
            assert!(
                names.iter().skip(1).all(|n| n.starts_with("__unused_")),
                "{lang:?}: {names:?}"
            );
            let taken = identifiers(&[&src]);
            let class = fresh(&CLASS_NAMES, &taken);
            let mut map = vec![("Test_p000042".to_string(), class.clone())];
            let mut taken_now = taken.clone();
            for n in &names {
                let short = fresh(&LOCAL_NAMES, &taken_now);
                taken_now.insert(short.clone());
                map.push((n.clone(), short));
            }
            let short = rename(&src, &map);
            assert_eq!(class_name(&short), Some(class), "{short}");
            // the member named like the local and the string stay; the local is `x`
            assert!(short.contains(".a0(x, "), "{lang:?}: {short}");
            assert!(
                short.contains("\"a0\"") || short.contains("'a0'"),
                "{short}"
            );
            assert!(!short.contains("__unused_"), "{short}");
            // the call under test is where it was: the method keeps its name
            assert_eq!(
                thalia_translators::call_lines(&short),
                thalia_translators::call_lines(&src)
            );
        }
    }

    #[test]
    fn only_the_modifiers_a_language_does_not_need_go() {
        let p = program();
        let groovy = translator(Language::Groovy)
            .expect("groovy")
            .translate(&p)
            .expect("translates");
        let g = drop_modifiers(
            &super::super::text::compact(&groovy),
            Language::Groovy,
            false,
        )
        .expect("final goes");
        assert!(
            g.starts_with("@groovy.transform.CompileStatic class Test_p000042 {"),
            "{g}"
        );
        let java = JavaTranslator.translate(&p).expect("translates");
        let j = drop_modifiers(&java, Language::Java, false).expect("modifiers go");
        assert!(j.contains("\nclass Test_p000042 {"), "{j}");
        assert!(
            j.contains("    static void test() throws Throwable {"),
            "{j}"
        );
        // a program that runs keeps what the runner needs
        let kept = drop_modifiers(&java, Language::Java, true).expect("final goes");
        assert!(kept.contains("public class Test_p000042"), "{kept}");
        assert!(kept.contains("public static void test()"), "{kept}");
        for lang in [Language::Kotlin, Language::Scala3, Language::Scala2] {
            let src = translator(lang)
                .expect("translator")
                .translate(&p)
                .expect("translates");
            assert_eq!(drop_modifiers(&src, lang, false), None, "{src}");
        }
    }

    #[test]
    fn a_value_nothing_reads_loses_its_binding_where_the_language_allows() {
        let p = program();
        for lang in LANGS {
            let src = translator(lang)
                .expect("translator")
                .translate(&p)
                .expect("translates");
            let bound = locals(&p, &src)
                .into_iter()
                .find(|n| n.starts_with("__unused_"));
            let unbound = bound.as_deref().and_then(|n| unbind(&src, lang, n));
            match lang {
                Language::Java => assert_eq!(unbound, None, "{src}"),
                _ => {
                    let u = unbound.expect("the binding goes");
                    assert!(!u.contains("__unused_"), "{u}");
                    assert!(
                        u.lines()
                            .any(|l| l.trim_start().starts_with("lib.U.a0(a0, ")),
                        "{lang:?}: {u}"
                    );
                }
            }
            // a local that is read keeps its binding
            assert_eq!(unbind(&src, lang, "a0"), None, "{src}");
        }
    }

    #[test]
    fn fresh_names_avoid_every_identifier_written() {
        let taken = identifiers(&["static <T extends C> void test() { A x = y.B; }"]);
        assert_eq!(fresh(&CLASS_NAMES, &taken), "K");
        assert_eq!(fresh(&LOCAL_NAMES, &taken), "z");
        let all: HashSet<String> = LOCAL_NAMES.iter().map(|s| s.to_string()).collect();
        assert_eq!(fresh(&LOCAL_NAMES, &all), "x1");
    }
}
