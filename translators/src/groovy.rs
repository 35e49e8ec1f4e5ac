//! The Groovy translator, statically checked with `@CompileStatic` (the default) or
//! `@TypeChecked`.
//!
//! A program becomes one file `Test_<id>.groovy`:
//!
//! ```groovy
//! package thalia.<id>
//!
//! @groovy.transform.CompileStatic
//! final class Test_<id> {
//!     static void test() {
//!         ...statements...
//!     }
//! }
//! ```
//!
//! Types and calls use Java's syntax, fully qualified, with no imports: `java.util.List<T>`,
//! wildcards, explicit type arguments `recv.<A>m()`, the diamond `new C<>()`; primitive type
//! arguments are boxed, `Nullable(T)` is `T` (boxed if primitive), `Top` is `java.lang.Object`
//! and the bottom type `java.lang.Void`. String literals are pure ASCII (`\uXXXX` escapes);
//! unlike Java, Groovy reads such escapes only inside literals, so non-ASCII identifiers are
//! written as they are (UTF-8: compile with `--encoding=UTF-8`).
//!
//! Groovy's flow typing types a local by its initializer rather than its declared type
//! (`Object r = 'x'; r.length()` compiles), so every use of a local is cast to its declared
//! type: `((java.lang.Object) r).length()` is rejected, as in Java.
//!
//! Expressions:
//! - `Bottom(T)` is `((T) null)`, or the default value if `T` is primitive.
//! - Lambdas are closures, which Groovy coerces to functional interfaces: `{ a, b -> body }`,
//!   `{ -> body }` without parameters (never the implicit `it`), `{ a -> }` for a `Unit` body,
//!   typed parameters `{ java.lang.String a -> body }`; a closure nested in an expression is
//!   parenthesized (`{ x -> ({ y -> y }) }`) so that it cannot read as a block. A closure whose
//!   position does not convert it implicitly (an argument of an overloaded method or for a
//!   type-variable parameter, a closure returned by a closure) is cast to its target
//!   interface, `((java.util.concurrent.Callable<T>) { -> x })`: groovyc would prefer an
//!   overload that `Closure` itself implements (`Runnable`), and does not coerce a returned
//!   closure.
//! - Literals: Groovy's `1.0` is a `BigDecimal` and `'a'` a `String`, so doubles are `1.0d`,
//!   floats `1.5f`, chars `('a' as char)`, bytes `((byte) 1)`, shorts `((short) 1)`, longs `1L`;
//!   `Integer.MIN_VALUE` and `Long.MIN_VALUE` are written as those constants (Groovy reads
//!   `2147483648` as a `long`); strings are single-quoted (never GStrings).
//! - Instance fields are read with `recv.@f` (Groovy's `recv.f` calls a getter `getF()` if there
//!   is one), except `length` (arrays); static fields with `C.f`.
//! - Varargs arrays are passed as they are; arrays are created with Java's
//!   `new T[] {..}` (an unchecked cast of a wildcard array for non-reifiable `T`).
//! - Member names that are Groovy keywords (`in`, `as`, `def`, `trait`, ...) are quoted:
//!   `x.'in'()`; such names cannot be locals or class names (an error).
//! - An expression statement other than a call or `new` is bound to a fresh
//!   `java.lang.Object __unused_N = ...;`; a literal statement is dropped.
//!
//! Rejected with a [`TranslateError`]: function types, calls and field reads without a
//! receiver, wildcards outside type arguments, `void` anywhere but a call's result, `Unit`
//! anywhere but as a lambda's body, `char` literals outside the BMP.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::common::{self, f32_digits, f64_digits, BodyCx, CodeWriter, Dialect, ProgramNames};
use crate::ir::{Expr, Lit, PrimTy, Program, Receiver, Stmt, Ty};
use crate::{Language, TranslateError, Translator};

/// How Groovy type-checks the generated class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GroovyMode {
    /// `@groovy.transform.CompileStatic`: static type checking and static compilation.
    #[default]
    CompileStatic,
    /// `@groovy.transform.TypeChecked`: static type checking, dynamic dispatch.
    TypeChecked,
}

impl GroovyMode {
    /// The annotation on the class.
    pub fn annotation(self) -> &'static str {
        match self {
            GroovyMode::CompileStatic => "@groovy.transform.CompileStatic",
            GroovyMode::TypeChecked => "@groovy.transform.TypeChecked",
        }
    }
}

/// Translates programs to statically checked Groovy source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroovyTranslator {
    /// Which static checking the class is annotated with.
    pub mode: GroovyMode,
}

impl Translator for GroovyTranslator {
    fn language(&self) -> Language {
        Language::Groovy
    }

    fn file_name(&self, p: &Program) -> String {
        common::file_name(&p.id, Language::Groovy)
    }

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        let emitter = Emitter {
            mode: self.mode,
            locals: RefCell::default(),
        };
        common::translate(&emitter, p)
    }
}

/// The translation of one program: the mode plus the declared types of the locals declared so
/// far.
struct Emitter {
    mode: GroovyMode,
    /// Local (not lambda parameter) → declared type.
    locals: RefCell<HashMap<String, Ty>>,
}

/// Groovy's keywords (Java's plus `as`, `def`, `in`, `trait`, `var`, `threadsafe`), the
/// literals `true`/`false`/`null`, and `_`.
const RESERVED: &[&str] = &[
    "_",
    "abstract",
    "as",
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
    "def",
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
    "in",
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
    "threadsafe",
    "throw",
    "throws",
    "trait",
    "transient",
    "true",
    "try",
    "var",
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

impl Dialect for Emitter {
    fn language(&self) -> Language {
        Language::Groovy
    }

    fn is_reserved(&self, name: &str) -> bool {
        RESERVED.contains(&name)
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        w.line(&format!("package {}", names.package));
        w.line("");
        w.line(self.mode.annotation());
        w.line(&format!("final class {} {{", names.class));
        w.indent();
        w.line("static void test() {");
        w.indent();
    }

    fn stmt(&self, s: &Stmt, cx: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        match s {
            Stmt::Local { name, ty, init } => {
                if matches!(ty, Ty::Prim(PrimTy::Void)) {
                    return Err(TranslateError::VoidLocal { name: name.clone() });
                }
                let ty_s = self.ty(ty, TyPos::Value)?;
                // the declared type is the closure's target: coerced on assignment
                w.line(&format!("{ty_s} {name} = {};", self.closure(init)?));
                self.locals.borrow_mut().insert(name.clone(), ty.clone());
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

impl Emitter {
    /// `t` in Groovy (Java) syntax, as written at position `pos`.
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

    /// A member name after `.`: quoted if it is a keyword.
    fn member(&self, name: &str) -> Result<String, TranslateError> {
        if !common::is_plain_identifier(name) {
            return Err(TranslateError::InvalidIdentifier {
                language: Language::Groovy,
                name: name.to_owned(),
            });
        }
        Ok(if self.is_reserved(name) {
            format!("'{name}'")
        } else {
            name.to_owned()
        })
    }

    /// `e` in Groovy syntax; compound forms come parenthesized.
    fn expr(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match e {
            Expr::Lit(lit) => self.lit(lit)?,
            Expr::Bottom(t) => self.bottom(t)?,
            // Groovy's flow typing gives a local the type of its initializer, not the declared
            // one (`Object r = 'x'; r.length()` compiles); a cast to the declared type restores
            // Java's view.
            Expr::Local(name) => match self.locals.borrow().get(name) {
                Some(t) => format!("(({}) {name})", self.ty(t, TyPos::Value)?),
                None => name.clone(),
            },
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
                let member = self.member(name)?;
                let receiver = self.receiver(receiver, "a call", name)?;
                let targs = if type_args.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", self.ty_args(type_args)?)
                };
                format!("{receiver}.{targs}{member}({})", self.args(args)?)
            }
            Expr::Field { receiver, name } => {
                let member = self.member(name)?;
                let recv = self.receiver(receiver, "a field read", name)?;
                // `recv.f` reads the property, i.e. calls `getF()` if there is one (a
                // `java.awt.Point`'s `x` is an `int` field but `getX()` returns `double`);
                // `recv.@f` reads the field. An array's `length` is not a field.
                match receiver {
                    Receiver::Expr(_) if name != "length" => format!("{recv}.@{member}"),
                    _ => format!("{recv}.{member}"),
                }
            }
            Expr::Lambda {
                target: Some(t),
                implicit: false,
                ..
            } => {
                // a closure passed to an overloaded method, or for a parameter of a type
                // variable's type, or returned by another closure, is cast to its interface:
                // groovyc prefers an overload that `Closure` implements (`Runnable`) and does
                // not coerce a returned closure
                format!("(({}) {})", self.ty(t, TyPos::Value)?, self.closure(e)?)
            }
            Expr::Lambda { .. } => self.closure(e)?,
            Expr::NewArray { elem, elems } => {
                let elems = common::comma_separated(elems, |e| self.nested(e))?;
                let elem_ty = self.ty(elem, TyPos::Value)?;
                if is_reifiable(elem) {
                    format!("new {elem_ty}[] {{{elems}}}")
                } else {
                    let erased = self.ty(&reifiable_form(elem), TyPos::Value)?;
                    format!("(({elem_ty}[]) new {erased}[] {{{elems}}})")
                }
            }
            Expr::Cast { ty, expr } => {
                format!("(({}) {})", self.ty(ty, TyPos::Value)?, self.nested(expr)?)
            }
            Expr::Spread(inner) => self.expr(inner)?,
            Expr::Cond { cond, then, els } => format!(
                "({} ? {} : {})",
                self.nested(cond)?,
                self.nested(then)?,
                self.nested(els)?
            ),
        })
    }

    /// Lambda `e` as a closure: `{ a, b -> body }`.
    fn closure(&self, e: &Expr) -> Result<String, TranslateError> {
        let Expr::Lambda { params, body, .. } = e else {
            return self.expr(e);
        };
        let params = common::comma_separated(params, |(name, t)| match t {
            Some(t) => Ok(format!("{} {name}", self.ty(t, TyPos::Value)?)),
            None => Ok(name.clone()),
        })?;
        let arrow = if params.is_empty() {
            "->".to_owned()
        } else {
            format!("{params} ->")
        };
        Ok(match body.as_ref() {
            Expr::Unit => format!("{{ {arrow} }}"),
            body => format!("{{ {arrow} {} }}", self.nested(body)?),
        })
    }

    /// `e` inside another expression: a closure is parenthesized, so that it cannot be read as
    /// a block or as a trailing closure argument.
    fn nested(&self, e: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(e)?;
        Ok(if matches!(e, Expr::Lambda { .. }) && !s.starts_with('(') {
            format!("({s})")
        } else {
            s
        })
    }

    /// Comma-separated arguments.
    fn args(&self, args: &[Expr]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.nested(a))
    }

    /// The qualifier before `.member`; `what` and `member` describe the access for errors.
    fn receiver(&self, r: &Receiver, what: &str, member: &str) -> Result<String, TranslateError> {
        match r {
            Receiver::None => Err(self.unsupported(format!(
                "{what} of `{member}` without receiver (give a static receiver)"
            ))),
            Receiver::Static(class) => {
                self.check_qualified_name(class)?;
                Ok(class.clone())
            }
            Receiver::Expr(e) => {
                let s = self.expr(e)?;
                Ok(match e.as_ref() {
                    Expr::Lit(Lit::Str(_) | Lit::Null | Lit::Bool(_)) => s,
                    Expr::Lit(_) | Expr::Lambda { .. } if !s.starts_with('(') => format!("({s})"),
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
            Ty::Prim(PrimTy::Char) => "((char) 0)",
            Ty::Prim(PrimTy::Short) => "((short) 0)",
            Ty::Prim(PrimTy::Int) => "0",
            Ty::Prim(PrimTy::Long) => "0L",
            Ty::Prim(PrimTy::Float) => "0.0f",
            Ty::Prim(PrimTy::Double) => "0.0d",
            t => return Ok(format!("(({}) null)", self.ty(t, TyPos::Value)?)),
        };
        Ok(default.to_owned())
    }

    /// A literal in Groovy syntax; negative numbers are parenthesized.
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
            Lit::Int(i32::MIN) => "java.lang.Integer.MIN_VALUE".to_owned(),
            Lit::Int(i) => signed(i < 0, i.unsigned_abs().to_string()),
            Lit::Long(i64::MIN) => "java.lang.Long.MIN_VALUE".to_owned(),
            Lit::Long(i) => signed(i < 0, format!("{}L", i.unsigned_abs())),
            Lit::Float(f) if f.is_nan() => "java.lang.Float.NaN".to_owned(),
            Lit::Float(f) if f.is_infinite() => infinity("java.lang.Float", f > 0.0),
            Lit::Float(f) => signed(f.is_sign_negative(), format!("{}f", f32_digits(f))),
            Lit::Double(f) if f.is_nan() => "java.lang.Double.NaN".to_owned(),
            Lit::Double(f) if f.is_infinite() => infinity("java.lang.Double", f > 0.0),
            Lit::Double(f) => signed(f.is_sign_negative(), format!("{}d", f64_digits(f))),
            Lit::Char(c) => {
                if c.len_utf16() != 1 {
                    return Err(self.unsupported(format!(
                        "the char literal U+{:X} (outside the Basic Multilingual Plane)",
                        u32::from(c)
                    )));
                }
                format!("({} as char)", string_literal(&c.to_string()))
            }
            Lit::Byte(b) => format!("((byte) {b})"),
            Lit::Short(s) => format!("((short) {s})"),
            Lit::Str(ref s) => string_literal(s),
            Lit::Null => "null".to_owned(),
        })
    }
}

/// Whether arrays of `t` can be created with `new t[]` (no type arguments other than `?`).
fn is_reifiable(t: &Ty) -> bool {
    match t {
        Ty::Class { args, .. } => args.iter().all(|a| matches!(a, Ty::WildcardStar)),
        Ty::Array(elem) | Ty::Nullable(elem) => is_reifiable(elem),
        _ => true,
    }
}

/// The reifiable type whose arrays can hold `t`'s values: type arguments become `?`.
fn reifiable_form(t: &Ty) -> Ty {
    match t {
        Ty::Class { name, args } => Ty::Class {
            name: name.clone(),
            args: vec![Ty::WildcardStar; args.len()],
        },
        Ty::Array(elem) => Ty::array(reifiable_form(elem)),
        Ty::Nullable(inner) => reifiable_form(inner),
        t => t.clone(),
    }
}

/// `java.lang.Float.POSITIVE_INFINITY` and friends.
fn infinity(class: &str, positive: bool) -> String {
    let sign = if positive { "POSITIVE" } else { "NEGATIVE" };
    format!("{class}.{sign}_INFINITY")
}

/// `s` as a single-quoted Groovy string literal (a plain `java.lang.String`, pure ASCII; never
/// a GString, so `$` needs no escape).
pub(crate) fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => out.push_str(&common::utf16_escape(c)),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Program, Stmt, Ty};

    fn body(t: GroovyTranslator, stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        let src = t.translate(&Program::new("t", stmts))?;
        let lines: Vec<&str> = src.lines().collect();
        Ok(lines[5..lines.len() - 2]
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join("\n"))
    }

    fn cs(stmts: Vec<Stmt>) -> String {
        body(GroovyTranslator::default(), stmts).expect("translates")
    }

    fn lit(l: Lit) -> String {
        let e = Emitter {
            mode: GroovyMode::CompileStatic,
            locals: RefCell::default(),
        };
        e.lit(&l).expect("expressible")
    }

    #[test]
    fn file_layout_and_modes() {
        let p = Program::new("p7", vec![]);
        assert_eq!(
            GroovyTranslator::default()
                .translate(&p)
                .expect("translates"),
            "package thalia.p7\n\n@groovy.transform.CompileStatic\nfinal class Test_p7 {\n    \
             static void test() {\n    }\n}\n"
        );
        let tc = GroovyTranslator {
            mode: GroovyMode::TypeChecked,
        };
        assert!(tc
            .translate(&p)
            .expect("translates")
            .contains("\n@groovy.transform.TypeChecked\nfinal class"));
        assert_eq!(tc.file_name(&p), "Test_p7.groovy");
    }

    #[test]
    fn literals() {
        assert_eq!(lit(Lit::Int(i32::MIN)), "java.lang.Integer.MIN_VALUE");
        assert_eq!(lit(Lit::Long(i64::MIN)), "java.lang.Long.MIN_VALUE");
        assert_eq!(lit(Lit::Long(-2)), "(-2L)");
        assert_eq!(lit(Lit::Double(1.0)), "1.0d");
        assert_eq!(lit(Lit::Float(1.5)), "1.5f");
        assert_eq!(lit(Lit::Char('a')), "('a' as char)");
        assert_eq!(lit(Lit::Char('\'')), "('\\'' as char)");
        assert_eq!(lit(Lit::Byte(-3)), "((byte) -3)");
        assert_eq!(lit(Lit::Short(3)), "((short) 3)");
        assert_eq!(
            lit(Lit::Str("$x \"'\\\u{0}é".into())),
            r#"'$x "\'\\\u0000\u00E9'"#
        );
    }

    #[test]
    fn closures() {
        let consumer = Ty::class("java.util.function.Consumer", vec![Ty::string()]);
        assert_eq!(
            cs(vec![
                Stmt::local(
                    "c",
                    consumer,
                    Expr::lambda(vec![("s".into(), Some(Ty::string()))], Expr::unit())
                ),
                Stmt::local(
                    "r",
                    Ty::class("java.lang.Runnable", vec![]),
                    Expr::lambda(vec![], Expr::unit())
                ),
                Stmt::expr(Expr::static_call(
                    "a.B",
                    "m",
                    vec![Ty::INT],
                    vec![Expr::lambda(
                        vec![("x".into(), None)],
                        Expr::lambda(vec![], Expr::local("x"))
                    )]
                )),
            ]),
            "java.util.function.Consumer<java.lang.String> c = { java.lang.String s -> };\n\
             java.lang.Runnable r = { -> };\n\
             a.B.<java.lang.Integer>m(({ x -> ({ -> x }) }));"
        );
    }

    #[test]
    fn locals_fields_and_keywords() {
        assert_eq!(
            cs(vec![
                Stmt::local("o", Ty::object(), Expr::str("x")),
                Stmt::local(
                    "s",
                    Ty::string(),
                    Expr::local("o").method("toString", vec![])
                ),
                Stmt::local(
                    "p",
                    Ty::class("java.awt.Point", vec![]),
                    Expr::new_instance("java.awt.Point", Some(vec![]), vec![])
                ),
                Stmt::local(
                    "x",
                    Ty::INT,
                    Expr::field(Receiver::expr(Expr::local("p")), "x")
                ),
                Stmt::local(
                    "a",
                    Ty::array(Ty::INT),
                    Expr::new_array(Ty::INT, vec![Expr::int(1)])
                ),
                Stmt::local(
                    "n",
                    Ty::INT,
                    Expr::field(Receiver::expr(Expr::local("a")), "length")
                ),
                Stmt::expr(Expr::static_field("java.lang.System", "in")),
            ]),
            "java.lang.Object o = 'x';\n\
             java.lang.String s = ((java.lang.Object) o).toString();\n\
             java.awt.Point p = new java.awt.Point();\n\
             int x = ((java.awt.Point) p).@x;\n\
             int[] a = new int[] {1};\n\
             int n = ((int[]) a).length;\n\
             java.lang.Object __unused_0 = java.lang.System.'in';"
        );
        assert!(matches!(
            body(
                GroovyTranslator::default(),
                vec![Stmt::local("def", Ty::INT, Expr::int(1))]
            ),
            Err(TranslateError::ReservedWord { .. })
        ));
        assert!(body(
            GroovyTranslator::default(),
            vec![Stmt::expr(Expr::call(Receiver::None, "f", vec![], vec![]))]
        )
        .is_err());
    }

    #[test]
    fn bottoms_and_arrays() {
        assert_eq!(
            cs(vec![
                Stmt::local("c", Ty::CHAR, Expr::bottom(Ty::CHAR)),
                Stmt::local("s", Ty::string(), Expr::bottom(Ty::string())),
                Stmt::local(
                    "ls",
                    Ty::array(Ty::class("java.util.List", vec![Ty::string()])),
                    Expr::new_array(Ty::class("java.util.List", vec![Ty::string()]), vec![])
                ),
            ]),
            "char c = ((char) 0);\n\
             java.lang.String s = ((java.lang.String) null);\n\
             java.util.List<java.lang.String>[] ls = ((java.util.List<java.lang.String>[]) new java.util.List<?>[] {});"
        );
    }

    #[test]
    fn closures_without_implicit_conversion_are_cast_to_their_interface() {
        let callable = Ty::class("java.util.concurrent.Callable", vec![Ty::string()]);
        let lambda = |implicit: bool| Expr::Lambda {
            params: vec![],
            body: Box::new(Expr::str("a")),
            target: Some(callable.clone()),
            implicit,
        };
        let call = |l: Expr| {
            Stmt::expr(Expr::static_call(
                "java.util.concurrent.ForkJoinTask",
                "adapt",
                vec![Ty::string()],
                vec![l],
            ))
        };
        assert_eq!(
            cs(vec![call(lambda(false))]),
            "java.util.concurrent.ForkJoinTask.<java.lang.String>adapt(((java.util.concurrent.Callable<java.lang.String>) { -> 'a' }));"
        );
        assert_eq!(
            cs(vec![call(lambda(true))]),
            "java.util.concurrent.ForkJoinTask.<java.lang.String>adapt(({ -> 'a' }));"
        );
        // a local's declared type is the closure's target
        assert_eq!(
            cs(vec![Stmt::local("c", callable.clone(), lambda(false))]),
            "java.util.concurrent.Callable<java.lang.String> c = { -> 'a' };"
        );
    }
}
