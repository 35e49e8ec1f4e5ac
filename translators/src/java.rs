//! The Java translator.
//!
//! A program becomes one file `Test_<id>.java`:
//!
//! ```java
//! package thalia.<id>;
//!
//! public final class Test_<id> {
//!     public static void test() throws Throwable {
//!         ...statements...
//!     }
//! }
//! ```
//!
//! Every class is written fully qualified and there are no imports. The output is pure ASCII
//! (other characters become `\uXXXX` escapes), so it compiles under any `-encoding`.
//!
//! Mapping of the IR:
//! - `New { type_args: None }` is the diamond `new C<>(..)`, `Some(vec![])` is `new C(..)` and
//!   `Some(v)` is `new C<A, B>(..)`.
//! - `Bottom(T)` is `((T) null)`, or the default value of `T` if `T` is primitive.
//! - Primitive type arguments are boxed (`List<int>` is written `java.util.List<java.lang.Integer>`);
//!   `Nullable(T)` is `T` (boxed if primitive); `Top` is `java.lang.Object`; the bottom type
//!   is `java.lang.Void`.
//! - An expression statement that Java does not accept as a statement (anything but a call or
//!   `new`) is assigned to a fresh `java.lang.Object` local; a literal statement is dropped.
//! - A lambda whose body is `Unit` is `(x) -> {}` (for `void` functional interfaces).
//! - `NewArray` of a non-reifiable element type `E` (e.g. `List<String>`) is written as an
//!   unchecked cast of an array of `E`'s wildcard form: `((List<String>[]) new List<?>[] {..})`.
//!
//! Rejected with a [`TranslateError`]: function types, calls and field reads without a receiver
//! (Java has no top-level functions), wildcards outside type arguments, `void` anywhere but a
//! call's result, `Unit` anywhere but as a lambda's body, lambdas mixing typed and untyped
//! parameters, `char` literals outside the BMP, and names that are not Java identifiers or are
//! reserved words.

use std::fmt::Write as _;

use crate::common::{
    self, f32_digits, f64_digits, utf16_escape, BodyCx, CodeWriter, Dialect, ProgramNames,
};
use crate::ir::{Expr, Lit, PrimTy, Program, Receiver, Stmt, Ty};
use crate::{Language, TranslateError, Translator};

/// Translates programs to Java source.
#[derive(Debug, Clone, Copy, Default)]
pub struct JavaTranslator;

impl Translator for JavaTranslator {
    fn language(&self) -> Language {
        Language::Java
    }

    fn file_name(&self, p: &Program) -> String {
        common::file_name(&p.id, Language::Java)
    }

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        common::translate(self, p).map(|src| ascii_only(&src))
    }
}

/// Java's reserved keywords, the literals `true`/`false`/`null`, and `_` (none can name a
/// variable or member). Contextual keywords (`var`, `record`, `yield`, ...) are allowed.
const RESERVED: &[&str] = &[
    "_",
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
];

/// Where a type is written; type arguments admit wildcards and box primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TyPos {
    /// A value's type: local declaration, cast, array element, lambda parameter.
    Value,
    /// A type argument.
    Arg,
}

impl Dialect for JavaTranslator {
    fn language(&self) -> Language {
        Language::Java
    }

    fn is_reserved(&self, name: &str) -> bool {
        RESERVED.contains(&name)
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        w.line(&format!("package {};", names.package));
        w.line("");
        w.line(&format!("public final class {} {{", names.class));
        w.indent();
        w.line("public static void test() throws Throwable {");
        w.indent();
    }

    fn stmt(&self, s: &Stmt, cx: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        match s {
            Stmt::Local { name, ty, init } => {
                if matches!(ty, Ty::Prim(PrimTy::Void)) {
                    return Err(TranslateError::VoidLocal { name: name.clone() });
                }
                let ty = self.ty(ty, TyPos::Value)?;
                w.line(&format!("{ty} {name} = {};", self.expr(init)?));
            }
            Stmt::Expr(e) => {
                common::java_like_expr_stmt(e, cx, w, |e| self.expr(e), |l| self.lit(l))?;
            }
        }
        Ok(())
    }

    fn close(&self, w: &mut CodeWriter) {
        w.dedent();
        w.line("}");
        w.dedent();
        w.line("}");
    }
}

impl JavaTranslator {
    /// `t` in Java syntax, as written at position `pos`.
    fn ty(&self, t: &Ty, pos: TyPos) -> Result<String, TranslateError> {
        Ok(match t {
            Ty::Prim(p) => match (pos, p) {
                (TyPos::Arg, _) => p.boxed_class().to_owned(),
                (TyPos::Value, PrimTy::Void) => {
                    return Err(self.unsupported("`void` as the type of a value"))
                }
                (TyPos::Value, _) => p.java_name().to_owned(),
            },
            Ty::Class { name, args } => {
                self.check_qualified_name(name)?;
                if args.is_empty() {
                    name.clone()
                } else {
                    format!("{name}<{}>", self.ty_args(args)?)
                }
            }
            Ty::Var(name) => {
                self.check_name(name)?;
                name.clone()
            }
            Ty::WildcardStar | Ty::WildcardExtends(_) | Ty::WildcardSuper(_)
                if pos != TyPos::Arg =>
            {
                return Err(self.unsupported("a wildcard outside a type argument"))
            }
            Ty::WildcardStar => "?".to_owned(),
            Ty::WildcardExtends(b) => format!("? extends {}", self.ty(b, TyPos::Arg)?),
            Ty::WildcardSuper(b) => format!("? super {}", self.ty(b, TyPos::Arg)?),
            Ty::Array(elem) => format!("{}[]", self.ty(elem, TyPos::Value)?),
            Ty::Nullable(inner) => match inner.as_ref() {
                Ty::Prim(p) => p.boxed_class().to_owned(),
                inner => self.ty(inner, pos)?,
            },
            Ty::Function { .. } => return Err(self.unsupported("function types")),
            Ty::Top => "java.lang.Object".to_owned(),
            Ty::Bottom => "java.lang.Void".to_owned(),
        })
    }

    /// Comma-separated type arguments.
    fn ty_args(&self, args: &[Ty]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.ty(a, TyPos::Arg))
    }

    /// `e` in Java syntax; compound forms come parenthesized, so they nest without precedence
    /// concerns.
    fn expr(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match e {
            Expr::Lit(lit) => self.lit(lit)?,
            Expr::Bottom(t) => self.bottom(t)?,
            Expr::Local(name) => name.clone(),
            Expr::Unit => {
                return Err(self.unsupported("the unit value anywhere but as a lambda's body"))
            }
            Expr::New {
                class,
                type_args,
                args,
            } => {
                self.check_qualified_name(class)?;
                let targs = match type_args {
                    None => "<>".to_owned(),
                    Some(ts) if ts.is_empty() => String::new(),
                    Some(ts) => format!("<{}>", self.ty_args(ts)?),
                };
                format!("new {class}{targs}({})", self.args(args)?)
            }
            Expr::Call {
                receiver,
                name,
                type_args,
                args,
                ..
            } => {
                self.check_name(name)?;
                let receiver = self.receiver(receiver, "a call", name)?;
                let targs = if type_args.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", self.ty_args(type_args)?)
                };
                format!("{receiver}.{targs}{name}({})", self.args(args)?)
            }
            Expr::Field { receiver, name } => {
                self.check_name(name)?;
                format!("{}.{name}", self.receiver(receiver, "a field read", name)?)
            }
            Expr::Lambda { params, body, .. } => {
                let typed = params.iter().filter(|(_, t)| t.is_some()).count();
                if typed != 0 && typed != params.len() {
                    return Err(self.unsupported("a lambda mixing typed and untyped parameters"));
                }
                let params = common::comma_separated(params, |(name, t)| match t {
                    Some(t) => Ok(format!("{} {name}", self.ty(t, TyPos::Value)?)),
                    None => Ok(name.clone()),
                })?;
                let body = match body.as_ref() {
                    Expr::Unit => "{}".to_owned(),
                    body => self.expr(body)?,
                };
                format!("({params}) -> {body}")
            }
            Expr::NewArray { elem, elems } => {
                let elems = self.args(elems)?;
                let elem_ty = self.ty(elem, TyPos::Value)?;
                if is_reifiable(elem) {
                    format!("new {elem_ty}[] {{{elems}}}")
                } else {
                    let erased = self.ty(&self.reifiable_form(elem)?, TyPos::Value)?;
                    format!("(({elem_ty}[]) new {erased}[] {{{elems}}})")
                }
            }
            Expr::Cast { ty, expr } => {
                format!("(({}) {})", self.ty(ty, TyPos::Value)?, self.expr(expr)?)
            }
            // Java passes an array to a varargs parameter as it is
            Expr::Spread(inner) => self.expr(inner)?,
            Expr::Cond { cond, then, els } => format!(
                "({} ? {} : {})",
                self.expr(cond)?,
                self.expr(then)?,
                self.expr(els)?
            ),
        })
    }

    /// Comma-separated arguments.
    fn args(&self, args: &[Expr]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.expr(a))
    }

    /// The qualifier before `.member`; `what` and `member` describe the access for errors.
    fn receiver(&self, r: &Receiver, what: &str, member: &str) -> Result<String, TranslateError> {
        match r {
            Receiver::None => Err(self.unsupported(format!(
                "{what} of `{member}` without receiver (Java has no top-level functions or \
                 fields; give a static receiver)"
            ))),
            Receiver::Static(class) => {
                self.check_qualified_name(class)?;
                Ok(class.clone())
            }
            Receiver::Expr(e) => {
                let s = self.expr(e)?;
                // `1.m()` lexes as `1.` then `m`; a lambda is not a primary expression.
                Ok(match e.as_ref() {
                    Expr::Lit(Lit::Str(_) | Lit::Null) => s,
                    Expr::Lit(_) | Expr::Lambda { .. } => format!("({s})"),
                    _ => s,
                })
            }
        }
    }

    /// The typed bottom constant of type `t`.
    fn bottom(&self, t: &Ty) -> Result<String, TranslateError> {
        let default = match t {
            Ty::Prim(PrimTy::Void) => {
                return Err(self.unsupported("a bottom constant of type `void`"))
            }
            Ty::Prim(PrimTy::Boolean) => "false",
            Ty::Prim(PrimTy::Byte) => "((byte) 0)",
            Ty::Prim(PrimTy::Char) => "'\\000'",
            Ty::Prim(PrimTy::Short) => "((short) 0)",
            Ty::Prim(PrimTy::Int) => "0",
            Ty::Prim(PrimTy::Long) => "0L",
            Ty::Prim(PrimTy::Float) => "0.0f",
            Ty::Prim(PrimTy::Double) => "0.0d",
            t => return Ok(format!("(({}) null)", self.ty(t, TyPos::Value)?)),
        };
        Ok(default.to_owned())
    }

    /// A literal in Java syntax; negative numbers are parenthesized.
    fn lit(&self, lit: &Lit) -> Result<String, TranslateError> {
        fn signed(negative: bool, digits: String) -> String {
            if negative {
                format!("(-{digits})")
            } else {
                digits
            }
        }
        Ok(match *lit {
            Lit::Bool(b) => b.to_string(),
            Lit::Int(i) => signed(i < 0, i.unsigned_abs().to_string()),
            Lit::Long(i) => signed(i < 0, format!("{}L", i.unsigned_abs())),
            Lit::Float(f) if f.is_nan() => "java.lang.Float.NaN".to_owned(),
            Lit::Float(f) if f.is_infinite() => infinity("java.lang.Float", f > 0.0),
            Lit::Float(f) => signed(f.is_sign_negative(), format!("{}f", f32_digits(f))),
            Lit::Double(f) if f.is_nan() => "java.lang.Double.NaN".to_owned(),
            Lit::Double(f) if f.is_infinite() => infinity("java.lang.Double", f > 0.0),
            Lit::Double(f) => signed(f.is_sign_negative(), format!("{}d", f64_digits(f))),
            Lit::Char(c) => char_literal(c).ok_or_else(|| {
                self.unsupported(format!(
                    "the char literal U+{:X} (outside the Basic Multilingual Plane)",
                    u32::from(c)
                ))
            })?,
            Lit::Byte(b) => format!("((byte) {b})"),
            Lit::Short(s) => format!("((short) {s})"),
            Lit::Str(ref s) => string_literal(s),
            Lit::Null => "null".to_owned(),
        })
    }

    /// The reifiable type whose arrays can hold `t`'s values: type arguments become `?`.
    fn reifiable_form(&self, t: &Ty) -> Result<Ty, TranslateError> {
        Ok(match t {
            Ty::Class { name, args } => Ty::Class {
                name: name.clone(),
                args: vec![Ty::WildcardStar; args.len()],
            },
            Ty::Array(elem) => Ty::array(self.reifiable_form(elem)?),
            Ty::Nullable(inner) => self.reifiable_form(inner)?,
            Ty::Var(name) => {
                return Err(self.unsupported(format!(
                    "an array creation with element type variable `{name}`"
                )))
            }
            t => t.clone(),
        })
    }
}

/// Whether arrays of `t` can be created with `new t[]` (JLS 4.7: no type arguments other than
/// unbounded wildcards, no type variables).
fn is_reifiable(t: &Ty) -> bool {
    match t {
        Ty::Class { args, .. } => args.iter().all(|a| matches!(a, Ty::WildcardStar)),
        Ty::Array(elem) | Ty::Nullable(elem) => is_reifiable(elem),
        Ty::Var(_) => false,
        _ => true,
    }
}

/// `java.lang.Float.POSITIVE_INFINITY` and friends.
fn infinity(class: &str, positive: bool) -> String {
    let sign = if positive { "POSITIVE" } else { "NEGATIVE" };
    format!("{class}.{sign}_INFINITY")
}

/// Escape of `c` inside a Java string (`quote = '"'`) or char (`quote = '\''`) literal. Control
/// characters use 3-digit octal escapes, never `\uXXXX`: Java translates unicode escapes before
/// lexing, so `'\u000a'` would be a line break inside the literal.
fn escape_char(c: char, quote: char, out: &mut String) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c if c == quote => {
            out.push('\\');
            out.push(c);
        }
        c if c.is_ascii_control() => {
            let _ = write!(out, "\\{:03o}", u32::from(c));
        }
        c if c.is_ascii() => out.push(c),
        c => out.push_str(&utf16_escape(c)),
    }
}

/// `s` as a Java string literal (pure ASCII).
pub(crate) fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        escape_char(c, '"', &mut out);
    }
    out.push('"');
    out
}

/// `c` as a Java char literal (pure ASCII), or `None` if `c` needs two UTF-16 code units.
pub(crate) fn char_literal(c: char) -> Option<String> {
    if c.len_utf16() != 1 {
        return None;
    }
    let mut out = String::from("'");
    escape_char(c, '\'', &mut out);
    out.push('\'');
    Some(out)
}

/// `src` with every non-ASCII character replaced by its `\uXXXX` escape(s), which Java reads
/// as the character itself anywhere in a source file (literals are escaped already; this
/// catches identifiers).
fn ascii_only(src: &str) -> String {
    if src.is_ascii() {
        return src.to_owned();
    }
    src.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                utf16_escape(c)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Program, Stmt, Ty};

    fn lit(l: Lit) -> String {
        JavaTranslator.lit(&l).expect("literal is expressible")
    }

    /// The body line(s) of a one-statement program.
    fn body(s: Stmt) -> Result<String, TranslateError> {
        let src = JavaTranslator.translate(&Program::new("t", vec![s]))?;
        let lines: Vec<&str> = src.lines().collect();
        Ok(lines[4..lines.len() - 2]
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join("\n"))
    }

    #[test]
    fn string_escapes() {
        assert_eq!(string_literal("plain"), r#""plain""#);
        assert_eq!(string_literal("a\"b'c\\d"), r#""a\"b'c\\d""#);
        assert_eq!(string_literal("\n\t\r\u{8}\u{c}"), r#""\n\t\r\b\f""#);
        // Octal escapes are always three digits, so a following digit is not absorbed.
        assert_eq!(string_literal("\u{0}1\u{1b}\u{7f}"), r#""\0001\033\177""#);
        assert_eq!(string_literal("é€😀"), r#""\u00E9\u20AC\uD83D\uDE00""#);
        // A backslash before `u` stays escaped, so it cannot start a unicode escape.
        assert_eq!(string_literal("\\u000a"), r#""\\u000a""#);
        assert_eq!(string_literal("\u{2028}"), r#""\u2028""#);
    }

    #[test]
    fn char_escapes() {
        assert_eq!(char_literal('a').as_deref(), Some("'a'"));
        assert_eq!(char_literal('\'').as_deref(), Some(r"'\''"));
        assert_eq!(char_literal('"').as_deref(), Some(r#"'"'"#));
        assert_eq!(char_literal('\\').as_deref(), Some(r"'\\'"));
        assert_eq!(char_literal('\n').as_deref(), Some(r"'\n'"));
        assert_eq!(char_literal('\0').as_deref(), Some(r"'\000'"));
        assert_eq!(char_literal('\u{ffff}').as_deref(), Some(r"'\uFFFF'"));
        assert_eq!(char_literal('😀'), None);
        assert!(matches!(
            JavaTranslator.lit(&Lit::Char('😀')),
            Err(TranslateError::Unsupported { .. })
        ));
    }

    #[test]
    fn number_literals() {
        assert_eq!(lit(Lit::Int(0)), "0");
        assert_eq!(lit(Lit::Int(-5)), "(-5)");
        assert_eq!(lit(Lit::Int(i32::MIN)), "(-2147483648)");
        assert_eq!(lit(Lit::Long(1)), "1L");
        assert_eq!(lit(Lit::Long(i64::MIN)), "(-9223372036854775808L)");
        assert_eq!(lit(Lit::Float(1.0)), "1.0f");
        assert_eq!(lit(Lit::Float(-0.0)), "(-0.0f)");
        assert_eq!(lit(Lit::Float(1e-45)), "1e-45f");
        assert_eq!(lit(Lit::Float(f32::NAN)), "java.lang.Float.NaN");
        assert_eq!(
            lit(Lit::Float(f32::NEG_INFINITY)),
            "java.lang.Float.NEGATIVE_INFINITY"
        );
        assert_eq!(lit(Lit::Double(0.1)), "0.1d");
        assert_eq!(lit(Lit::Double(1e300)), "1e300d");
        assert_eq!(
            lit(Lit::Double(f64::INFINITY)),
            "java.lang.Double.POSITIVE_INFINITY"
        );
        assert_eq!(lit(Lit::Byte(-128)), "((byte) -128)");
        assert_eq!(lit(Lit::Short(7)), "((short) 7)");
        assert_eq!(lit(Lit::Bool(true)), "true");
        assert_eq!(lit(Lit::Null), "null");
    }

    #[test]
    fn expression_statements() {
        assert_eq!(body(Stmt::expr(Expr::int(1))).as_deref(), Ok(""));
        assert_eq!(
            body(Stmt::expr(Expr::static_field(
                "java.lang.Integer",
                "MAX_VALUE"
            )))
            .as_deref(),
            Ok("java.lang.Object __unused_0 = java.lang.Integer.MAX_VALUE;")
        );
        assert_eq!(
            body(Stmt::expr(Expr::new_instance(
                "java.lang.Object",
                Some(vec![]),
                vec![]
            )))
            .as_deref(),
            Ok("new java.lang.Object();")
        );
        assert_eq!(
            body(Stmt::expr(Expr::int(3).method("toString", vec![]))).as_deref(),
            Ok("(3).toString();")
        );
    }

    #[test]
    fn rejections() {
        let unsupported = |r: Result<String, TranslateError>| {
            matches!(
                r,
                Err(TranslateError::Unsupported {
                    language: Language::Java,
                    ..
                })
            )
        };
        assert_eq!(
            body(Stmt::local("v", Ty::VOID, Expr::null())),
            Err(TranslateError::VoidLocal { name: "v".into() })
        );
        assert!(unsupported(body(Stmt::expr(Expr::call(
            Receiver::None,
            "f",
            vec![],
            vec![]
        )))));
        assert!(unsupported(body(Stmt::local(
            "f",
            Ty::function(vec![], Ty::INT),
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::local(
            "w",
            Ty::WildcardStar,
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::local(
            "a",
            Ty::array(Ty::extends(Ty::object())),
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::bottom(Ty::VOID)))));
        assert!(unsupported(body(Stmt::expr(Expr::cast(
            Ty::VOID,
            Expr::null()
        )))));
        assert!(unsupported(body(Stmt::local(
            "l",
            Ty::object(),
            Expr::lambda(
                vec![("a".into(), Some(Ty::INT)), ("b".into(), None)],
                Expr::null()
            )
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::unit()))));
        assert!(unsupported(body(Stmt::local(
            "u",
            Ty::object(),
            Expr::unit()
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::static_call(
            "java.util.Objects",
            "hash",
            vec![],
            vec![Expr::unit()]
        )))));
        // Only the lambda's body itself may be `Unit`, not an expression containing it.
        assert!(unsupported(body(Stmt::local(
            "c",
            Ty::object(),
            Expr::lambda(
                vec![("x".into(), None)],
                Expr::cond(Lit::Bool(true).into(), Expr::unit(), Expr::unit())
            )
        ))));
        assert_eq!(
            body(Stmt::local("default", Ty::INT, Expr::int(0))),
            Err(TranslateError::ReservedWord {
                language: Language::Java,
                name: "default".into()
            })
        );
        assert!(matches!(
            body(Stmt::expr(Expr::static_call(
                "java.lang.Object",
                "new",
                vec![],
                vec![]
            ))),
            Err(TranslateError::ReservedWord { .. })
        ));
        assert!(matches!(
            body(Stmt::expr(Expr::static_field("a.b-c.D", "x"))),
            Err(TranslateError::InvalidIdentifier { .. })
        ));
    }

    #[test]
    fn unit_lambda_bodies() {
        let consumer = Ty::class("java.util.function.Consumer", vec![Ty::string()]);
        assert_eq!(
            body(Stmt::local(
                "c",
                consumer.clone(),
                Expr::lambda(vec![("x".into(), None)], Expr::unit())
            ))
            .as_deref(),
            Ok("java.util.function.Consumer<java.lang.String> c = (x) -> {};")
        );
        assert_eq!(
            body(Stmt::local(
                "c",
                consumer,
                Expr::lambda(vec![("x".into(), Some(Ty::string()))], Expr::unit())
            ))
            .as_deref(),
            Ok("java.util.function.Consumer<java.lang.String> c = (java.lang.String x) -> {};")
        );
        assert_eq!(
            body(Stmt::local(
                "r",
                Ty::class("java.lang.Runnable", vec![]),
                Expr::lambda(vec![], Expr::unit())
            ))
            .as_deref(),
            Ok("java.lang.Runnable r = () -> {};")
        );
    }

    #[test]
    fn types() {
        let t = |ty: Ty| JavaTranslator.ty(&ty, TyPos::Value).expect("expressible");
        assert_eq!(
            t(Ty::class("java.util.List", vec![Ty::INT])),
            "java.util.List<java.lang.Integer>"
        );
        assert_eq!(t(Ty::nullable(Ty::CHAR)), "java.lang.Character");
        assert_eq!(t(Ty::array(Ty::array(Ty::BYTE))), "byte[][]");
        assert_eq!(t(Ty::Top), "java.lang.Object");
        assert_eq!(t(Ty::Bottom), "java.lang.Void");
        assert_eq!(
            t(Ty::class(
                "java.util.Map",
                vec![Ty::super_of(Ty::nullable(Ty::string())), Ty::WildcardStar]
            )),
            "java.util.Map<? super java.lang.String, ?>"
        );
    }

    #[test]
    fn non_ascii_identifiers_are_escaped() {
        let src = JavaTranslator
            .translate(&Program::new(
                "t",
                vec![Stmt::local("größe", Ty::INT, Expr::int(1))],
            ))
            .expect("translates");
        assert!(src.contains("int gr\\u00F6\\u00DFe = 1;"), "{src}");
        assert!(src.is_ascii());
    }
}
