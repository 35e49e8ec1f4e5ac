//! Literals in every target language: the escapes of quoted literals and the spelling of
//! numbers, chars and strings, parameterized by what differs between languages
//! ([`LiteralSyntax`]: string quote, `\f` and `\$` escapes, how control characters are
//! escaped, `Integer.MIN_VALUE`, the `double` suffix, `byte`/`short` conversions, Groovy's
//! `as char`). Each translator declares its own [`LiteralSyntax`] constant.

use std::fmt::Write as _;

use super::Dialect;
use crate::ir::{Lit, PrimTy};
use crate::TranslateError;

/// How ASCII control characters without a named escape (`\n`, `\t`, ...) are written inside
/// a quoted literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ControlEscape {
    /// Three-digit octal, `\000` (Java: Java translates `\uXXXX` escapes before lexing, so
    /// `'\u000a'` would be a line break inside the literal; three digits, so that a following
    /// digit is not absorbed).
    Octal,
    /// `\uXXXX`, as every other character outside printable ASCII.
    Unicode,
}

/// The escapes of a language's quoted literals. Output is pure ASCII: characters outside it
/// become `\uXXXX` escapes, one per UTF-16 code unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Escapes {
    /// The quote of string literals: `"`, or `'` for Groovy's plain (never GString) strings.
    /// Char literals are always quoted with `'`.
    pub string_quote: char,
    /// Whether `\f` is an escape (Kotlin has none: a form feed is `\u000C` there).
    pub form_feed: bool,
    /// Whether `$` is escaped (`\$`) in string literals (Kotlin's string templates).
    pub dollar: bool,
    /// How the other ASCII control characters are written.
    pub control: ControlEscape,
}

impl Escapes {
    /// Appends `c` escaped for a literal quoted with `quote`; `in_string` tells a string
    /// literal from a char literal.
    fn escape(&self, c: char, quote: char, in_string: bool, out: &mut String) {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' if self.form_feed => out.push_str("\\f"),
            '$' if self.dollar && in_string => out.push_str("\\$"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_control() && self.control == ControlEscape::Octal => {
                let _ = write!(out, "\\{:03o}", u32::from(c));
            }
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => out.push_str(&utf16_escape(c)),
        }
    }

    /// `s` as a string literal (pure ASCII).
    pub(crate) fn string_literal(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len() + 2);
        out.push(self.string_quote);
        for c in s.chars() {
            self.escape(c, self.string_quote, true, &mut out);
        }
        out.push(self.string_quote);
        out
    }

    /// `c` as a `'`-quoted literal (pure ASCII), or `None` if `c` needs two UTF-16 code
    /// units (a JVM `char` is one).
    pub(crate) fn char_literal(&self, c: char) -> Option<String> {
        if c.len_utf16() != 1 {
            return None;
        }
        let mut out = String::from("'");
        self.escape(c, '\'', false, &mut out);
        out.push('\'');
        Some(out)
    }
}

/// How `byte` and `short` literals are written (no language has literals of these types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Narrowing {
    /// A cast of the int literal: `((byte) -1)` (Java, Groovy).
    Cast,
    /// A conversion method of the int literal, `(-1).toByte`, followed by this text: `""`
    /// (Scala) or `"()"` (Kotlin).
    Method(&'static str),
}

/// How a language writes literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LiteralSyntax {
    /// Escapes of string and char literals.
    pub escapes: Escapes,
    /// What stands for `Integer.MIN_VALUE` where `(-2147483648)` does not read as an `int`
    /// (Kotlin and Groovy read `2147483648` as a `long`); `None`: the digits.
    pub int_min: Option<&'static str>,
    /// Likewise for `Long.MIN_VALUE`.
    pub long_min: Option<&'static str>,
    /// The class whose constants `NaN`, `POSITIVE_INFINITY`, `NEGATIVE_INFINITY` are the
    /// non-finite `float`s (`java.lang.Float`, `kotlin.Float`).
    pub float_class: &'static str,
    /// Likewise for `double`s.
    pub double_class: &'static str,
    /// The suffix of `double` literals: `d`, or nothing in Kotlin, which has none (its
    /// shortest digits always contain `.` or an exponent, so they read as a `Double`).
    pub double_suffix: &'static str,
    /// How `byte` and `short` literals are written.
    pub narrowing: Narrowing,
    /// Whether a char literal is a one-character string converted with `as char` (Groovy,
    /// where `'a'` is a `String`): `('a' as char)`.
    pub char_as_string: bool,
}

impl LiteralSyntax {
    /// `lit` in this syntax; negative numbers are parenthesized. A char outside the Basic
    /// Multilingual Plane is an error of dialect `d`.
    pub(crate) fn literal(
        &self,
        d: &(impl Dialect + ?Sized),
        lit: &Lit,
    ) -> Result<String, TranslateError> {
        Ok(match *lit {
            Lit::Bool(b) => b.to_string(),
            Lit::Int(i) => match self.int_min {
                Some(min) if i == i32::MIN => min.to_owned(),
                _ => signed(i < 0, i.unsigned_abs().to_string()),
            },
            Lit::Long(i) => match self.long_min {
                Some(min) if i == i64::MIN => min.to_owned(),
                _ => signed(i < 0, format!("{}L", i.unsigned_abs())),
            },
            Lit::Float(f) if f.is_nan() => format!("{}.NaN", self.float_class),
            Lit::Float(f) if f.is_infinite() => infinity(self.float_class, f > 0.0),
            Lit::Float(f) => signed(f.is_sign_negative(), format!("{}f", f32_digits(f))),
            Lit::Double(f) if f.is_nan() => format!("{}.NaN", self.double_class),
            Lit::Double(f) if f.is_infinite() => infinity(self.double_class, f > 0.0),
            Lit::Double(f) => signed(
                f.is_sign_negative(),
                format!("{}{}", f64_digits(f), self.double_suffix),
            ),
            Lit::Char(c) => {
                let quoted = self.escapes.char_literal(c).ok_or_else(|| {
                    d.unsupported(format!(
                        "the char literal U+{:X} (outside the Basic Multilingual Plane)",
                        u32::from(c)
                    ))
                })?;
                if self.char_as_string {
                    format!("({quoted} as char)")
                } else {
                    quoted
                }
            }
            Lit::Byte(b) => self.narrow("byte", b < 0, b.unsigned_abs().into()),
            Lit::Short(s) => self.narrow("short", s < 0, s.unsigned_abs().into()),
            Lit::Str(ref s) => self.escapes.string_literal(s),
            Lit::Null => "null".to_owned(),
        })
    }

    /// The default value of primitive `p` (`0`, `false`, `'\0'`, ...) as a bottom constant;
    /// `void` has none (an error of dialect `d`).
    pub(crate) fn zero(
        &self,
        d: &(impl Dialect + ?Sized),
        p: PrimTy,
    ) -> Result<String, TranslateError> {
        match zero(p) {
            Some(z) => self.literal(d, &z),
            None => Err(d.unsupported("a bottom constant of type `void`")),
        }
    }

    /// A `byte` or `short` (Java's name `ty`) literal of the given sign and magnitude.
    fn narrow(&self, ty: &str, negative: bool, magnitude: u32) -> String {
        match self.narrowing {
            Narrowing::Cast => {
                let sign = if negative { "-" } else { "" };
                format!("(({ty}) {sign}{magnitude})")
            }
            Narrowing::Method(after) => {
                let method = if ty == "byte" { "toByte" } else { "toShort" };
                format!(
                    "{}.{method}{after}",
                    signed(negative, magnitude.to_string())
                )
            }
        }
    }
}

/// The literal of `p`'s default value (`0`, `false`, `'\0'`, ...), or `None` for `void`.
fn zero(p: PrimTy) -> Option<Lit> {
    Some(match p {
        PrimTy::Boolean => Lit::Bool(false),
        PrimTy::Byte => Lit::Byte(0),
        PrimTy::Char => Lit::Char('\0'),
        PrimTy::Short => Lit::Short(0),
        PrimTy::Int => Lit::Int(0),
        PrimTy::Long => Lit::Long(0),
        PrimTy::Float => Lit::Float(0.0),
        PrimTy::Double => Lit::Double(0.0),
        PrimTy::Void => return None,
    })
}

/// `digits`, negated and parenthesized if `negative`.
fn signed(negative: bool, digits: String) -> String {
    if negative {
        format!("(-{digits})")
    } else {
        digits
    }
}

/// `java.lang.Float.POSITIVE_INFINITY` and friends.
fn infinity(class: &str, positive: bool) -> String {
    let sign = if positive { "POSITIVE" } else { "NEGATIVE" };
    format!("{class}.{sign}_INFINITY")
}

/// Shortest decimal digits that read back as exactly `|v|` (`1.0`, `0.1`, `1e-7`, `3.4028235e38`);
/// the syntax is valid in Java, Kotlin, Scala and Groovy float literals. `v` must be finite.
pub(crate) fn f32_digits(v: f32) -> String {
    format!("{:?}", v.abs())
}

/// Shortest decimal digits that read back as exactly `|v|`; see [`f32_digits`].
pub(crate) fn f64_digits(v: f64) -> String {
    format!("{:?}", v.abs())
}

/// `c` as `\uXXXX` escapes, one per UTF-16 code unit (two for supplementary characters).
pub(crate) fn utf16_escape(c: char) -> String {
    let mut units = [0u16; 2];
    let mut out = String::with_capacity(12);
    for u in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{u:04X}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::{BodyCx, CodeWriter, ProgramNames};
    use crate::groovy::LITERALS as GROOVY;
    use crate::ir::Stmt;
    use crate::java::LITERALS as JAVA;
    use crate::kotlin::LITERALS as KOTLIN;
    use crate::scala::LITERALS as SCALA;
    use crate::Language;

    #[test]
    fn java_string_escapes() {
        let s = |s: &str| JAVA.escapes.string_literal(s);
        assert_eq!(s("plain"), r#""plain""#);
        assert_eq!(s("a\"b'c\\d"), r#""a\"b'c\\d""#);
        assert_eq!(s("\n\t\r\u{8}\u{c}"), r#""\n\t\r\b\f""#);
        // Octal escapes are always three digits, so a following digit is not absorbed.
        assert_eq!(s("\u{0}1\u{1b}\u{7f}"), r#""\0001\033\177""#);
        assert_eq!(s("é€😀"), r#""\u00E9\u20AC\uD83D\uDE00""#);
        // A backslash before `u` stays escaped, so it cannot start a unicode escape.
        assert_eq!(s("\\u000a"), r#""\\u000a""#);
        assert_eq!(s("\u{2028}"), r#""\u2028""#);
        assert_eq!(s("$x"), r#""$x""#);
    }

    #[test]
    fn java_char_escapes() {
        let c = |c: char| JAVA.escapes.char_literal(c);
        assert_eq!(c('a').as_deref(), Some("'a'"));
        assert_eq!(c('\'').as_deref(), Some(r"'\''"));
        assert_eq!(c('"').as_deref(), Some(r#"'"'"#));
        assert_eq!(c('\\').as_deref(), Some(r"'\\'"));
        assert_eq!(c('\n').as_deref(), Some(r"'\n'"));
        assert_eq!(c('\0').as_deref(), Some(r"'\000'"));
        assert_eq!(c('\u{ffff}').as_deref(), Some(r"'\uFFFF'"));
        assert_eq!(c('😀'), None);
    }

    #[test]
    fn escapes_per_language() {
        let text = "\"'$\\\u{0}\u{8}\u{c}\u{7f}é😀";
        assert_eq!(
            KOTLIN.escapes.string_literal(text),
            r#""\"'\$\\\u0000\b\u000C\u007F\u00E9\uD83D\uDE00""#
        );
        assert_eq!(
            SCALA.escapes.string_literal(text),
            r#""\"'$\\\u0000\b\f\u007F\u00E9\uD83D\uDE00""#
        );
        assert_eq!(
            GROOVY.escapes.string_literal(text),
            r#"'"\'$\\\u0000\b\f\u007F\u00E9\uD83D\uDE00'"#
        );
        // `$` is escaped in Kotlin's strings only, never in chars.
        assert_eq!(KOTLIN.escapes.char_literal('$').as_deref(), Some("'$'"));
        for syntax in [JAVA, KOTLIN, SCALA, GROOVY] {
            assert_eq!(syntax.escapes.char_literal('\'').as_deref(), Some(r"'\''"));
            assert_eq!(syntax.escapes.char_literal('😀'), None);
        }
    }

    /// A dialect that only names its language, for the errors of [`LiteralSyntax::literal`].
    struct In(Language);

    impl Dialect for In {
        fn language(&self) -> Language {
            self.0
        }
        fn open(&self, _: &ProgramNames, _: &mut CodeWriter) {}
        fn stmt(&self, _: &Stmt, _: &mut BodyCx, _: &mut CodeWriter) -> Result<(), TranslateError> {
            Ok(())
        }
    }

    #[test]
    fn literals_per_language() {
        // literal, then Java, Kotlin, Scala and Groovy
        let table: &[(Lit, [&str; 4])] = &[
            (Lit::Bool(true), ["true"; 4]),
            (Lit::Null, ["null"; 4]),
            (Lit::Int(0), ["0"; 4]),
            (Lit::Int(-5), ["(-5)"; 4]),
            (
                Lit::Int(i32::MIN),
                [
                    "(-2147483648)",
                    "(-2147483647 - 1)",
                    "(-2147483648)",
                    "java.lang.Integer.MIN_VALUE",
                ],
            ),
            (Lit::Long(3), ["3L"; 4]),
            (Lit::Long(-2), ["(-2L)"; 4]),
            (
                Lit::Long(i64::MIN),
                [
                    "(-9223372036854775808L)",
                    "(-9223372036854775807L - 1L)",
                    "(-9223372036854775808L)",
                    "java.lang.Long.MIN_VALUE",
                ],
            ),
            (Lit::Float(1.0), ["1.0f"; 4]),
            (Lit::Float(-1.5), ["(-1.5f)"; 4]),
            (Lit::Float(-0.0), ["(-0.0f)"; 4]),
            (Lit::Float(1e-45), ["1e-45f"; 4]),
            (
                Lit::Float(f32::NAN),
                [
                    "java.lang.Float.NaN",
                    "kotlin.Float.NaN",
                    "java.lang.Float.NaN",
                    "java.lang.Float.NaN",
                ],
            ),
            (
                Lit::Float(f32::NEG_INFINITY),
                [
                    "java.lang.Float.NEGATIVE_INFINITY",
                    "kotlin.Float.NEGATIVE_INFINITY",
                    "java.lang.Float.NEGATIVE_INFINITY",
                    "java.lang.Float.NEGATIVE_INFINITY",
                ],
            ),
            (
                Lit::Float(f32::INFINITY),
                [
                    "java.lang.Float.POSITIVE_INFINITY",
                    "kotlin.Float.POSITIVE_INFINITY",
                    "java.lang.Float.POSITIVE_INFINITY",
                    "java.lang.Float.POSITIVE_INFINITY",
                ],
            ),
            (Lit::Double(0.1), ["0.1d", "0.1", "0.1d", "0.1d"]),
            (Lit::Double(1.0), ["1.0d", "1.0", "1.0d", "1.0d"]),
            (Lit::Double(2.25), ["2.25d", "2.25", "2.25d", "2.25d"]),
            (Lit::Double(1e300), ["1e300d", "1e300", "1e300d", "1e300d"]),
            (
                Lit::Double(f64::NEG_INFINITY),
                [
                    "java.lang.Double.NEGATIVE_INFINITY",
                    "kotlin.Double.NEGATIVE_INFINITY",
                    "java.lang.Double.NEGATIVE_INFINITY",
                    "java.lang.Double.NEGATIVE_INFINITY",
                ],
            ),
            (
                Lit::Double(f64::INFINITY),
                [
                    "java.lang.Double.POSITIVE_INFINITY",
                    "kotlin.Double.POSITIVE_INFINITY",
                    "java.lang.Double.POSITIVE_INFINITY",
                    "java.lang.Double.POSITIVE_INFINITY",
                ],
            ),
            (
                Lit::Byte(-128),
                [
                    "((byte) -128)",
                    "(-128).toByte()",
                    "(-128).toByte",
                    "((byte) -128)",
                ],
            ),
            (
                Lit::Byte(-3),
                ["((byte) -3)", "(-3).toByte()", "(-3).toByte", "((byte) -3)"],
            ),
            (
                Lit::Short(7),
                ["((short) 7)", "7.toShort()", "7.toShort", "((short) 7)"],
            ),
            (Lit::Char('a'), ["'a'", "'a'", "'a'", "('a' as char)"]),
            (
                Lit::Char('\''),
                [r"'\''", r"'\''", r"'\''", r"('\'' as char)"],
            ),
            (
                Lit::Char('\0'),
                [r"'\000'", r"'\u0000'", r"'\u0000'", r"('\u0000' as char)"],
            ),
            (Lit::Char('$'), ["'$'", "'$'", "'$'", "('$' as char)"]),
            (
                Lit::Str("$x ${y} \"q\" \\ é\n".into()),
                [
                    r#""$x ${y} \"q\" \\ \u00E9\n""#,
                    r#""\$x \${y} \"q\" \\ \u00E9\n""#,
                    r#""$x ${y} \"q\" \\ \u00E9\n""#,
                    r#"'$x ${y} "q" \\ \u00E9\n'"#,
                ],
            ),
            (
                Lit::Str("\"$\\\u{7}é".into()),
                [
                    r#""\"$\\\007\u00E9""#,
                    r#""\"\$\\\u0007\u00E9""#,
                    r#""\"$\\\u0007\u00E9""#,
                    r#"'"$\\\u0007\u00E9'"#,
                ],
            ),
            (
                Lit::Str("$x \"'\\\u{0}é".into()),
                [
                    r#""$x \"'\\\000\u00E9""#,
                    r#""\$x \"'\\\u0000\u00E9""#,
                    r#""$x \"'\\\u0000\u00E9""#,
                    r#"'$x "\'\\\u0000\u00E9'"#,
                ],
            ),
        ];
        let languages = [
            (Language::Java, JAVA),
            (Language::Kotlin, KOTLIN),
            (Language::Scala3, SCALA),
            (Language::Groovy, GROOVY),
        ];
        for (lit, expected) in table {
            for ((language, syntax), expected) in languages.iter().zip(expected) {
                let written = syntax.literal(&In(*language), lit);
                assert_eq!(written.as_deref(), Ok(*expected), "{lit:?} in {language}");
            }
        }
        // a char is one UTF-16 code unit
        for (language, syntax) in languages {
            assert_eq!(
                syntax.literal(&In(language), &Lit::Char('😀')),
                Err(TranslateError::Unsupported {
                    language,
                    what: "the char literal U+1F600 (outside the Basic Multilingual Plane)"
                        .to_owned()
                })
            );
        }
    }

    #[test]
    fn zeros_are_the_default_values() {
        let java = |p| JAVA.zero(&In(Language::Java), p);
        let kotlin = |p| KOTLIN.zero(&In(Language::Kotlin), p);
        assert_eq!(java(PrimTy::Char).as_deref(), Ok(r"'\000'"));
        assert_eq!(java(PrimTy::Byte).as_deref(), Ok("((byte) 0)"));
        assert_eq!(java(PrimTy::Double).as_deref(), Ok("0.0d"));
        assert_eq!(java(PrimTy::Boolean).as_deref(), Ok("false"));
        assert_eq!(kotlin(PrimTy::Byte).as_deref(), Ok("0.toByte()"));
        assert_eq!(kotlin(PrimTy::Float).as_deref(), Ok("0.0f"));
        assert_eq!(kotlin(PrimTy::Double).as_deref(), Ok("0.0"));
        assert!(matches!(
            java(PrimTy::Void),
            Err(TranslateError::Unsupported { .. })
        ));
    }

    #[test]
    fn float_digits_are_shortest_round_trip() {
        assert_eq!(f32_digits(1.0), "1.0");
        assert_eq!(f32_digits(-0.1), "0.1");
        assert_eq!(f32_digits(f32::MAX), "3.4028235e38");
        assert_eq!(f32_digits(1e-7), "1e-7");
        assert_eq!(f64_digits(0.1), "0.1");
        assert_eq!(f64_digits(f64::MIN_POSITIVE), "2.2250738585072014e-308");
    }

    #[test]
    fn utf16_escapes() {
        assert_eq!(utf16_escape('é'), "\\u00E9");
        assert_eq!(utf16_escape('😀'), "\\uD83D\\uDE00");
    }
}
