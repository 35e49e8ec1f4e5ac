//! Deduplication signatures of findings: two findings with the same signature are taken to be
//! the same compiler bug, counted but stored once.
//!
//! A signature is the compiler, the finding's kind and a detail that abstracts away what
//! varies between programs hitting the same bug:
//!
//! - an unexpected rejection: the first diagnostic's message with its location stripped and
//!   names abstracted (quoted text becomes `'_'`, type and qualified names `T`, called
//!   names `m`, numbers `N`, type arguments dropped);
//! - a crash: the exception's class and the top [`CRASH_FRAMES`] stack frames (methods
//!   without line numbers, JDK and reflection frames skipped); without a stack trace, the
//!   normalized crash line;
//! - an unexpected acceptance (no diagnostic to go by): the shape of the injected fault (the
//!   broken position, the member's kind, whether the call is polymorphic and erased, the
//!   kinds of the formal and the incompatible type, and whether the member is written as a
//!   reference or called inside a lambda);
//! - a performance finding: the member's declaring class and name.

use crate::synth::ProgramRecord;

use super::finding::FindingKind;
use crate::compile::Verdict;
use crate::toolchain::Tool;

/// Stack frames of a crash that make its signature.
pub const CRASH_FRAMES: usize = 5;

/// The longest detail kept in a signature (characters).
const MAX_DETAIL: usize = 200;

/// A finding's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The signature: compiler, kind and abstracted detail.
    pub text: String,
    /// A directory name for it: `<kind>-<compiler>-<16 hex digits of its hash>`.
    pub dir: String,
}

/// The signature of a finding of `kind` by `tool`, from the verdict and the program record.
pub fn signature(
    tool: Tool,
    kind: FindingKind,
    verdict: &Verdict,
    record: &ProgramRecord,
) -> Signature {
    let detail = match (kind, verdict) {
        (
            FindingKind::UnexpectedRejection | FindingKind::RejectedElsewhere,
            Verdict::Rejected { diagnostics },
        ) => diagnostics
            .first()
            .map(|d| diagnostic_detail(tool, d))
            .unwrap_or_default(),
        (FindingKind::Crash, Verdict::Crash { exit, output }) => crash_detail(output, *exit),
        (FindingKind::Performance, _) => member_detail(record),
        (FindingKind::UnexpectedAcceptance, _) => acceptance_detail(record),
        _ => String::new(),
    };
    let detail: String = detail.chars().take(MAX_DETAIL).collect();
    let text = format!("{} {}: {}", tool.name(), kind.as_str(), detail);
    let dir = format!(
        "{}-{}-{:016x}",
        kind.as_str(),
        tool.name(),
        crate::hash::fnv1a64(text.as_bytes())
    );
    Signature { text, dir }
}

/// The abstracted message of one attributed diagnostic, without its location: the compiler's
/// [`crate::profile::DiagnosticFormat`] takes the message (and title) out, Scala's type
/// arguments are dropped, and the message is [`normalize`]d (the title stays as it is).
fn diagnostic_detail(tool: Tool, diag: &str) -> String {
    let format = tool.profile().diagnostics;
    let parts = format.message(diag);
    let message = if format.square_type_arguments() {
        drop_brackets(&parts.message)
    } else {
        parts.message
    };
    match parts.title {
        Some(title) => format!("{title}: {}", normalize(&message)),
        None => normalize(&message),
    }
}

/// Scala's type arguments (`List[Long]` → `List`), innermost first; an unbalanced `[` or `]`
/// stays.
fn drop_brackets(msg: &str) -> String {
    drop_enclosed(msg, '[', ']')
}

/// `s` without its `open ... close` spans, innermost first (a `close` with no `open` before
/// it, as the `>` of `->`, stays).
fn drop_enclosed(s: &str, open: char, close: char) -> String {
    let mut s = s.to_string();
    while let Some((o, c)) = innermost(&s, open, close) {
        s.replace_range(o..=c, "");
    }
    s
}

/// Primitive type names, abstracted like the other type names.
const PRIMITIVES: [&str; 8] = [
    "boolean", "byte", "char", "short", "int", "long", "float", "double",
];

/// Abstracts names, numbers, quoted text and type arguments out of a message.
pub fn normalize(msg: &str) -> String {
    // quoted spans
    let mut unquoted = String::with_capacity(msg.len());
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '\'' | '`' | '"') {
            let rest: String = chars.clone().collect();
            if let Some(end) = rest.find(c) {
                unquoted.push_str("'_'");
                for _ in 0..rest[..end].chars().count() + 1 {
                    chars.next();
                }
                continue;
            }
        }
        unquoted.push(c);
    }
    // identifier-like runs
    let ident = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '.');
    let mut out = String::with_capacity(unquoted.len());
    let chars: Vec<char> = unquoted.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !ident(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && ident(chars[i]) {
            i += 1;
        }
        let mut run: String = chars[start..i].iter().collect();
        let mut trailing = String::new();
        while run.ends_with('.') {
            run.pop();
            trailing.push('.');
        }
        let next = chars[i..].iter().find(|c| !c.is_whitespace()).copied();
        let before = out.trim_end();
        // a capitalized word that opens the message, a `[tag]` or a `- clause`, or labels
        // what follows (`Found:`), is English, not a type name
        // (a capitalized word after a full stop opens a sentence: `... exists. Please check`)
        let word = run.chars().all(char::is_alphabetic)
            && (before.is_empty()
                || before.ends_with(['[', '-'])
                || before.ends_with('.') && run.chars().next().is_some_and(char::is_uppercase)
                || next == Some(':') && chars.get(i) == Some(&':'));
        let token = if run.is_empty() {
            String::new()
        } else if word {
            run
        } else if run.chars().all(|c| c.is_ascii_digit()) {
            "N".into()
        } else if next == Some('(') {
            "m".into()
        } else if run.contains('.')
            || PRIMITIVES.contains(&run.as_str())
            || run.starts_with(|c: char| c.is_uppercase())
            || run
                .chars()
                .any(|c| c.is_ascii_digit() || c == '_' || c == '$')
        {
            "T".into()
        } else {
            run
        };
        out.push_str(&token);
        out.push_str(&trailing);
    }
    // Java and Kotlin type arguments
    let out = drop_enclosed(&out, '<', '>');
    let mut out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // lists of abstracted names keep no count: one cause with 2 or 3 arguments
    // (`T#m(T, T)`, `T#m(T, T, T)`) is one signature
    for (list, one) in [
        ("T[], T[]", "T[]"),
        ("T, T", "T"),
        ("N, N", "N"),
        ("T[],T[]", "T[]"),
        ("T,T", "T"),
        ("N,N", "N"),
    ] {
        while out.contains(list) {
            out = out.replace(list, one);
        }
    }
    out
}

/// The byte range of the first `open ... close` span that holds no other `open` or `close`.
fn innermost(s: &str, open: char, close: char) -> Option<(usize, usize)> {
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c == open {
            start = Some(i);
        } else if c == close {
            if let Some(o) = start {
                return Some((o, i));
            }
        }
    }
    None
}

/// The exception class and top frames of a crash report.
fn crash_detail(output: &str, exit: Option<i32>) -> String {
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    // the innermost cause is the most specific
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Caused by:"))
        .or_else(|| lines.iter().position(|l| exception_class(l).is_some()));
    let Some(start) = start else {
        let line = lines
            .iter()
            .find(|l| !l.is_empty())
            .map(|l| normalize(l))
            .unwrap_or_default();
        return match exit {
            Some(code) => format!("exit {code}: {line}"),
            None => format!("killed: {line}"),
        };
    };
    let class = exception_class(lines[start]).unwrap_or("?");
    let frames: Vec<&str> = lines[start + 1..]
        .iter()
        .filter_map(|l| l.strip_prefix("at "))
        .map(|f| f.split('(').next().unwrap_or(f).trim())
        .filter(|f| {
            ![
                "java.",
                "jdk.",
                "sun.",
                "javax.",
                "CompileServer",
                "scala.runtime.",
            ]
            .iter()
            .any(|p| f.starts_with(p))
        })
        .take(CRASH_FRAMES)
        .collect();
    format!("{class} at {}", frames.join(" < "))
}

/// The throwable's class named on a line (`java.lang.NullPointerException: ...`).
fn exception_class(line: &str) -> Option<&str> {
    line.split(|c: char| c.is_whitespace() || c == ':')
        .filter(|w| !w.is_empty())
        .find(|w| {
            let last = w.rsplit('.').next().unwrap_or(w);
            w.contains('.')
                && (last.ends_with("Exception") || last.ends_with("Error"))
                && w.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '.' | '$' | '_'))
        })
}

/// The member's declaring class and name.
fn member_detail(record: &ProgramRecord) -> String {
    let member = record.member.as_str();
    let name = member
        .split('(')
        .next()
        .unwrap_or(member)
        .rsplit([' ', '.'])
        .next()
        .unwrap_or_default();
    format!("{}.{name}", record.class)
}

/// The kind of a printed type: `prim`, `array`, `generic`, `var`, `function` or `class`.
fn type_kind(t: &str) -> &'static str {
    const PRIMS: [&str; 9] = [
        "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
    ];
    let t = t.trim();
    if t.ends_with("[]") {
        "array"
    } else if PRIMS.contains(&t) {
        "prim"
    } else if t.contains("->") || t.contains("Function") {
        "function"
    } else if t.contains('<') {
        "generic"
    } else if !t.contains('.') && t.len() <= 2 {
        "var"
    } else {
        "class"
    }
}

/// The shape of an ill-typed program's injected fault.
fn acceptance_detail(record: &ProgramRecord) -> String {
    let (position, formal, actual) = match &record.broken {
        Some(b) => (b.position.as_str(), b.formal.as_str(), b.actual.as_str()),
        None => ("?", "", ""),
    };
    let position = if position.starts_with("arg") {
        "argument"
    } else {
        position
    };
    let poly = !record.substitution.is_empty();
    // the member written as a reference, or called inside a lambda, is checked by other
    // parts of a compiler than a plain call (`synth::wrap`)
    let held = match record.shape.wrapped.as_deref() {
        Some("reference") => ", as a reference",
        Some("closure") => ", inside a lambda",
        Some(_) => ", inside a lambda on its parameters",
        None => "",
    };
    format!(
        "{position} of a {}{} {}, {} given {}{held}",
        if poly { "polymorphic " } else { "" },
        record.kind.as_str(),
        if record.erased {
            "with erased type arguments"
        } else {
            "with explicit types"
        },
        type_kind(formal),
        type_kind(actual),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rejected(d: &str) -> Verdict {
        Verdict::Rejected {
            diagnostics: vec![d.to_string()],
        }
    }

    /// A program record with `fields` set over empty defaults.
    fn record(fields: serde_json::Value) -> ProgramRecord {
        let mut base = json!({
            "id": "p000000", "file": "", "member": "", "class": "", "kind": "method",
            "typing_sequence": {"receiver": null, "args": [], "result": null},
            "substitution": {}, "mode": "well-typed", "expected": "accept",
            "broken": null, "erased": false
        });
        if let (Some(b), Some(f)) = (base.as_object_mut(), fields.as_object()) {
            for (k, v) in f {
                b.insert(k.clone(), v.clone());
            }
        }
        serde_json::from_value(base).expect("a program record")
    }

    fn sig(tool: Tool, kind: FindingKind, v: &Verdict) -> Signature {
        signature(tool, kind, v, &record(json!({})))
    }

    #[test]
    fn diagnostics_differing_in_names_and_positions_share_a_signature() {
        let k = FindingKind::UnexpectedRejection;
        let a = sig(
            Tool::Kotlin,
            k,
            &rejected("/tmp/a/Test_p000001.kt:12:5: error: argument type mismatch: actual type is 'kotlin.String', but 'kotlin.Int' was expected."),
        );
        let b = sig(
            Tool::Kotlin,
            k,
            &rejected("/tmp/b/Test_p000777.kt:3:17: error: argument type mismatch: actual type is 'java.util.List<kotlin.Any>', but 'kotlin.Long' was expected."),
        );
        assert_eq!(a, b);
        assert!(a.dir.starts_with("unexpected-rejection-kotlin-"));
        let other = sig(
            Tool::Kotlin,
            k,
            &rejected("/tmp/a/Test_p000001.kt:12:5: error: unresolved reference 'foo'."),
        );
        assert_ne!(a, other);
    }

    #[test]
    fn javac_messages_abstract_type_and_method_names() {
        let k = FindingKind::UnexpectedRejection;
        let a = sig(
            Tool::Javac,
            k,
            &rejected("/x/Test_p1.java:4: error: incompatible types: List<String> cannot be converted to Collection<Integer>"),
        );
        let b = sig(
            Tool::Javac,
            k,
            &rejected("/y/Test_p2.java:9: error: incompatible types: java.lang.String cannot be converted to Map<K,V>"),
        );
        assert_eq!(a, b);
        assert!(
            a.text
                .ends_with("incompatible types: T cannot be converted to T"),
            "{}",
            a.text
        );
        let c = sig(
            Tool::Javac,
            k,
            &rejected("/y/Test_p2.java:9: error: no suitable method found for of(String,int)"),
        );
        assert!(
            c.text.ends_with("no suitable method found for m(T)"),
            "{}",
            c.text
        );
    }

    #[test]
    fn groovy_and_scala3_locations_are_stripped() {
        let k = FindingKind::UnexpectedRejection;
        let g1 = sig(Tool::Groovy, k, &rejected("/t/Test_p3.groovy: 12: [Static type checking] - Cannot assign value of type java.lang.String to variable of type int\n @ line 12, column 5."));
        let g2 = sig(Tool::Groovy, k, &rejected("/u/Test_p9.groovy: 7: [Static type checking] - Cannot assign value of type java.util.List<E> to variable of type java.lang.Long @ line 7, column 9."));
        assert_eq!(g1, g2);
        let s1 = sig(Tool::Scala3, k, &rejected("-- [E007] Type Mismatch Error: /t/Test_p3.scala:5:10 ---\n5 |  val x: Int = a0\n  |               ^^\n  |               Found:    (a0 : String)\n  |               Required: Int"));
        let s2 = sig(Tool::Scala3, k, &rejected("-- [E007] Type Mismatch Error: /q/Test_p8.scala:9:2 ---\n9 |  f(a1)\n  |    ^^\n  |    Found:    (a1 : java.util.List[Long])\n  |    Required: Int"));
        assert_eq!(s1, s2);
        assert!(
            s1.text
                .contains("[E007] Type Mismatch Error: Found: (T : T)"),
            "{}",
            s1.text
        );
        // another message under the same error number is another signature
        let s3 = sig(Tool::Scala3, k, &rejected("-- [E007] Type Mismatch Error: /q/Test_p9.scala:9:2 ---\n9 |  val a0: R = () => x\n  |              ^^^^^^^\n  |    Found:    () => Object\n  |    Required: java.security.cert.CertPathValidatorResult"));
        assert_ne!(s1, s3);
        // Scala 2: the line after `type mismatch;` says what mismatched
        let t1 = sig(Tool::Scala2, k, &rejected("/t/Test_p1.scala:5: error: type mismatch;\n found   : java.util.List[String]\n required: Int"));
        let t2 = sig(Tool::Scala2, k, &rejected("/u/Test_p7.scala:9: error: type mismatch;\n found   : java.util.Set[Long]\n required: String"));
        let t3 = sig(Tool::Scala2, k, &rejected("/u/Test_p7.scala:9: error: type mismatch;\n found   : () => Object\n required: String"));
        assert_eq!(t1, t2);
        assert_ne!(t1, t3);
        assert!(t1.text.ends_with("type mismatch; found : T"), "{}", t1.text);
    }

    #[test]
    fn each_compilers_diagnostic_format_gives_its_message() {
        let k = FindingKind::UnexpectedRejection;
        let cases = [
            (Tool::Javac, "/x/Test_p1.java:4: error: incompatible types: List<String> cannot be converted to Collection<Integer>\n        foo(a0);\n            ^", "javac unexpected-rejection: incompatible types: T cannot be converted to T"),
            (Tool::Kotlin, "/x/Test_p1.kt:4:9: error: argument type mismatch: actual type is 'kotlin.String', but 'kotlin.Int' was expected.\n    foo(a0)", "kotlin unexpected-rejection: argument type mismatch: actual type is 'T', but 'T' was expected."),
            (Tool::Kotlin, "error: unresolved reference: Foo", "kotlin unexpected-rejection: unresolved reference: T"),
            (Tool::Scala2, "/t/Test_p1.scala:5: error: type mismatch;\n found   : java.util.List[String]\n required: Int", "scala2 unexpected-rejection: type mismatch; found : T"),
            (Tool::Scala2, "/t/Test_p1.scala:5: error: value foo is not a member of java.util.Map[K,V]\n  a0.foo(1)", "scala2 unexpected-rejection: value foo is not a member of T"),
            (Tool::Scala3, "-- [E007] Type Mismatch Error: /t/Test_p3.scala:5:10 ---\n5 |  val x: Int = a0\n  |               ^^\n  |               Found:    (a0 : java.util.List[String])\n  |               Required: Int", "scala3 unexpected-rejection: [E007] Type Mismatch Error: Found: (T : T)"),
            (Tool::Groovy, "/t/Test_p3.groovy: 12: [Static type checking] - Cannot find matching method java.util.List#foo(int). Please check if the declared type is correct and if the method exists.\n @ line 12, column 5.", "groovy unexpected-rejection: [Static type checking] - Cannot find matching method T#m(T). Please check if the declared type is correct and if the method exists."),
        ];
        for (tool, diagnostic, want) in cases {
            let s = sig(tool, k, &rejected(diagnostic));
            assert_eq!(s.text, want);
        }
    }

    #[test]
    fn numbers_and_names_are_abstracted_but_english_stays() {
        assert_eq!(
            normalize("Found: 3 arguments but 12 expected by Foo.bar"),
            "Found: N arguments but N expected by T"
        );
    }

    #[test]
    fn crashes_are_keyed_by_exception_and_top_frames_without_line_numbers() {
        let k = FindingKind::Crash;
        let crash = |out: &str| Verdict::Crash {
            exit: Some(3),
            output: out.to_string(),
        };
        let a = sig(Tool::Kotlin, k, &crash("exception: java.lang.IllegalStateException: no type for x\n\tat org.jetbrains.kotlin.fir.Foo.bar(Foo.kt:10)\n\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1)\n\tat org.jetbrains.kotlin.fir.Baz.qux(Baz.kt:99)"));
        let b = sig(Tool::Kotlin, k, &crash("exception: java.lang.IllegalStateException: no type for yyy\n\tat org.jetbrains.kotlin.fir.Foo.bar(Foo.kt:12)\n\tat org.jetbrains.kotlin.fir.Baz.qux(Baz.kt:98)"));
        assert_eq!(a, b);
        assert!(
            a.text.contains("java.lang.IllegalStateException at org.jetbrains.kotlin.fir.Foo.bar < org.jetbrains.kotlin.fir.Baz.qux"),
            "{}",
            a.text
        );
        let c = sig(Tool::Kotlin, k, &crash("exception: java.lang.IllegalStateException: x\n\tat org.jetbrains.kotlin.fir.Other.bar(Other.kt:10)"));
        assert_ne!(a, c);
    }

    #[test]
    fn argument_counts_do_not_split_a_cause() {
        let k = FindingKind::UnexpectedRejection;
        let two = sig(
            Tool::Groovy,
            k,
            &rejected("/tmp/w/Test_p000001.groovy: 7: [Static type checking] - Cannot find matching method java.util.Map#put(char, char). Please check if the declared type is correct and if the method exists.\n @ line 7, column 9."),
        );
        let three = sig(
            Tool::Groovy,
            k,
            &rejected("/tmp/w/Test_p000002.groovy: 9: [Static type checking] - Cannot find matching method java.lang.Math#fma(char, double, float). Please check if the declared type is correct and if the method exists.\n @ line 9, column 3."),
        );
        assert_eq!(two, three, "{} / {}", two.text, three.text);
        assert!(two.text.contains("). Please check"), "{}", two.text);
        assert_eq!(normalize("m(int, long, java.lang.String)"), "m(T)");
        assert_eq!(normalize("m(int[], long[], char)"), "m(T[], T)");
    }

    #[test]
    fn acceptances_are_keyed_by_the_fault_shape() {
        let rec = |pos: &str, formal: &str, actual: &str| {
            record(
                json!({"kind": "method", "erased": false, "substitution": {"T": "java.lang.String"},
                   "broken": {"position": pos, "formal": formal, "actual": actual}}),
            )
        };
        let k = FindingKind::UnexpectedAcceptance;
        let a = signature(
            Tool::Groovy,
            k,
            &Verdict::Accepted,
            &rec(
                "arg0",
                "java.util.List<java.lang.String>",
                "java.lang.Integer",
            ),
        );
        let b = signature(
            Tool::Groovy,
            k,
            &Verdict::Accepted,
            &rec("arg2", "java.util.Set<java.lang.Long>", "java.lang.Object"),
        );
        let c = signature(
            Tool::Groovy,
            k,
            &Verdict::Accepted,
            &rec(
                "result",
                "java.util.Set<java.lang.Long>",
                "java.lang.Object",
            ),
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(
            a.text.contains("argument of a polymorphic method"),
            "{}",
            a.text
        );
        // the same fault in the member written as a reference is another cause
        let mut as_ref = rec(
            "result",
            "java.util.Set<java.lang.Long>",
            "java.lang.Object",
        );
        as_ref.shape.wrapped = Some("reference".into());
        let d = signature(Tool::Groovy, k, &Verdict::Accepted, &as_ref);
        assert_ne!(c, d);
        assert!(d.text.ends_with(", as a reference"), "{}", d.text);
    }
}
