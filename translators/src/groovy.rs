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
//!     static <T extends A & B, U> void test() {
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
//! written as they are (UTF-8: compile with `--encoding=UTF-8`). The test method's type
//! parameters are the program's `type_params` (none: `static void test()`); `Ty::Var` is the
//! variable's name.
//!
//! Locals are used by name, never cast: the Groovy program is exactly the IR. Groovy's flow
//! typing types a local by its initializer rather than its declared type (`Object r = 'x';
//! r.length()` compiles, where Java rejects it), so where the declared type matters (the
//! ill-typed oracle's broken receivers and arguments) the synthesizer writes the cast in the
//! IR, `((java.lang.Object) r).length()`, and nowhere else: a well-typed program's flow types
//! are subtypes of the declared ones, so a cast on every use would only hide the inference
//! that the flow typing does (an earlier version of this translator cast every use).
//!
//! Statements: `T x = init;`, a local with `inferred` as `def x = init;` (flow-typed), and
//! expression statements (below).
//!
//! Expressions:
//! - `Bottom(T)` is `((T) null)`, or the default value if `T` is primitive.
//! - Lambdas of the usual form (and `AnonymousFunction`, Kotlin's) are closures, which Groovy
//!   coerces to functional interfaces: `{ a, b -> body }`, `{ -> body }` without parameters
//!   (never the implicit `it`), `{ a -> }` for a `Unit` body, typed parameters
//!   `{ java.lang.String a -> body }` (typed and untyped may mix); a `block` comes before the
//!   body, one line: `{ a -> T x = ..; def y = ..; body }`. A closure nested in an expression
//!   is parenthesized (`{ x -> ({ y -> y }) }`) so that it cannot read as a block.
//! - `form: Arrow` is Groovy 3+'s Java-style lambda: `(a, b) -> body`, `() -> body`,
//!   `(java.lang.String a, b) -> body`, `(a) -> {}` for a `Unit` body, and with a block
//!   `(a) -> { T x = ..; return body; }` (no `return` for `Unit`; the body of a `void`
//!   function, `ret: Some(void)`, is a statement).
//! - A lambda whose position does not convert it implicitly (`implicit: false` with a
//!   `target`: an argument of an overloaded method or for a type-variable parameter, a lambda
//!   returned by a lambda, a `def` initializer) is cast to its target interface,
//!   `((java.util.concurrent.Callable<T>) { -> x })`: groovyc would prefer an overload that
//!   `Closure` itself implements (`Runnable`), and does not coerce a returned closure. The
//!   initializer of a local declared with the target type is not cast (assignment coerces).
//! - Function references are Java's (`C::m`, `e::m`, `C::m` unbound, `C::new`, `T[]::new`),
//!   cast to their target where the position does not convert them (as lambdas), with two
//!   differences forced by groovyc's grammar, which has no type arguments before `::`: an
//!   unbound reference names its receiver's class raw (`java.util.List::size` for
//!   `List<String>::size`: groovyc then checks the receiver's type arguments against the
//!   target alone), and an array constructor of a non-reifiable element type is its erasure
//!   (`java.util.List[]::new`; a type variable's array `T[]::new` is fine: Groovy erases it).
//!   With `method_pointer`, a static or bound reference is the method pointer `C.&m` /
//!   `e.&m`, a `Closure`: as an argument it is coerced like a closure; where `implicit` is
//!   false it is cast to its target, even as the initializer of a local of that type
//!   (groovyc 4 does not coerce a method pointer to a generic interface on assignment). The
//!   other kinds have no method-pointer form and keep `::`.
//! - `Cast` of a lambda or reference: `((F) { x -> e })`, `((F) (x) -> e)`, `((F) C::m)`
//!   (never cast twice); with `coerce`, Groovy's `as`: `({ x -> e } as F)`, `(e as T)`.
//! - `New { outer: Some(o) }` is `o.new a.b.Outer.Inner(args)`: groovyc resolves the simple
//!   name after `new` against the imports only, so the inner class is fully qualified.
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
//! anywhere but as a lambda's body, constructor references with explicit type arguments
//! (`C<A>::new` is not Groovy; the inferred `C::new` is), unbound references to members of
//! primitives, `char` literals outside the BMP.

use std::cell::RefCell;

use crate::common::java_family::{cast_target, JavaFamily, JAVA_RESERVED};
use crate::common::literal::{ControlEscape, Escapes, LiteralSyntax, Narrowing};
use crate::common::{self, open_test, BodyCx, CodeWriter, Dialect, ProgramNames, UNUSED_STEM};
use crate::ir::{Expr, LambdaForm, Lit, Program, Receiver, RefKind, Stmt, Ty};
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
    /// The mode of the `--groovy-type-checked` flag: `TypeChecked` when set.
    pub fn of_flag(type_checked: bool) -> GroovyMode {
        if type_checked {
            GroovyMode::TypeChecked
        } else {
            GroovyMode::CompileStatic
        }
    }

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

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        let mut emitter = Emitter {
            mode: self.mode,
            type_params_decl: String::new(),
            names: RefCell::new(BodyCx::new(p)),
            imports: RefCell::new(Vec::new()),
        };
        emitter.type_params_decl = emitter.type_params(&p.type_params)?;
        let text = common::translate(&emitter, p)?;
        let imports = emitter.imports.into_inner();
        if imports.is_empty() {
            return Ok(text);
        }
        // the aliases of the classes `static_qualifier` named, after the package line
        let lines: String = imports
            .iter()
            .enumerate()
            .map(|(i, c)| format!("import {c} as {}\n", import_alias(i)))
            .collect();
        Ok(match text.split_once("\n\n") {
            Some((package, rest)) => format!("{package}\n\n{lines}\n{rest}"),
            None => format!("{lines}{text}"),
        })
    }
}

/// The alias under which a program imports its `i`-th class of a lowercase simple name.
fn import_alias(i: usize) -> String {
    format!("ThaliaImported{i}")
}

/// The translation of one program: the mode, the test method's type parameters and the
/// names taken so far.
struct Emitter {
    mode: GroovyMode,
    /// `<T extends A, U> ` (with a trailing space), or nothing.
    type_params_decl: String,
    /// Fresh names for expression statements, unique across the program and its closures.
    names: RefCell<BodyCx>,
    /// Classes of a lowercase simple name used as static qualifiers, imported under an alias
    /// (see `static_qualifier`).
    imports: RefCell<Vec<String>>,
}

/// Groovy's keywords beyond Java's ([`JAVA_RESERVED`]).
const GROOVY_RESERVED: &[&str] = &["as", "def", "in", "threadsafe", "trait", "var"];

/// How Groovy writes literals: Groovy's `1.0` is a `BigDecimal`, `'a'` a `String` and
/// `2147483648` a `long`, so doubles are `1.0d`, chars `('a' as char)`, and the minimal `int`
/// and `long` are the constants; strings are single-quoted (never GStrings, so `$` needs no
/// escape).
pub(crate) const LITERALS: LiteralSyntax = LiteralSyntax {
    escapes: Escapes {
        string_quote: '\'',
        form_feed: true,
        dollar: false,
        control: ControlEscape::Unicode,
    },
    int_min: Some("java.lang.Integer.MIN_VALUE"),
    long_min: Some("java.lang.Long.MIN_VALUE"),
    float_class: "java.lang.Float",
    double_class: "java.lang.Double",
    double_suffix: "d",
    narrowing: Narrowing::Cast,
    char_as_string: true,
};

impl Dialect for Emitter {
    fn language(&self) -> Language {
        Language::Groovy
    }

    /// Java's reserved words and Groovy's own keywords.
    fn is_reserved(&self, name: &str) -> bool {
        JAVA_RESERVED.contains(&name) || GROOVY_RESERVED.contains(&name)
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        let package = format!("package {}", names.package);
        let class = format!("final class {} {{", names.class);
        open_test(
            w,
            &[&package, "", self.mode.annotation(), &class],
            &format!("static {}void test() {{", self.type_params_decl),
        );
    }

    fn stmt(&self, s: &Stmt, _: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        self.java_stmt(s, w)
    }
}

impl JavaFamily for Emitter {
    const LITERALS: LiteralSyntax = LITERALS;
    const TYPE_VARIABLE_ARRAYS: bool = true;
    const NO_RECEIVER_HINT: &'static str = "give a static receiver";
    const REFERENCE_TYPE_ARGS: bool = false;

    fn fresh_unused(&self) -> String {
        self.names.borrow_mut().fresh(UNUSED_STEM)
    }

    /// `def x = init;`: flow typing gives `x` the initializer's type. A lambda or reference
    /// whose position does not convert it is cast to its target, as anywhere else.
    fn inferred_local(&self, name: &str, init: &Expr) -> Result<String, TranslateError> {
        Ok(format!("def {name} = {};", self.expr(init)?))
    }

    /// The qualified name: groovyc resolves `outer.new Inner()` against the imports only.
    /// groovyc resolves a dotted name in an expression as a class only when its last part
    /// starts with an uppercase letter (`clojure.core.reducers__init.const__51` is read as a
    /// property chain on a variable `clojure`): such a class is imported under an alias.
    fn static_qualifier(&self, class: &str) -> String {
        let simple = class.rsplit('.').next().unwrap_or(class);
        if !class.contains('.') || !simple.starts_with(|c: char| c.is_lowercase()) {
            return class.to_owned();
        }
        let mut imports = self.imports.borrow_mut();
        let i = match imports.iter().position(|c| c == class) {
            Some(i) => i,
            None => {
                imports.push(class.to_owned());
                imports.len() - 1
            }
        };
        import_alias(i)
    }

    fn inner_class_name(&self, class: &str) -> Result<String, TranslateError> {
        Ok(class.to_owned())
    }

    /// A use of a local by its name alone: where the declared type matters the IR holds a
    /// cast (see the module documentation).
    fn local(&self, name: &str) -> Result<String, TranslateError> {
        Ok(name.to_owned())
    }

    /// `recv.f` reads the property, i.e. calls `getF()` if there is one (a `java.awt.Point`'s
    /// `x` is an `int` field but `getX()` returns `double`); `recv.@f` reads the field. An
    /// array's `length` is not a field.
    fn field(&self, receiver: &Receiver, name: &str) -> Result<String, TranslateError> {
        let member = self.member(name)?;
        let recv = self.receiver(receiver, "a field read", name)?;
        Ok(match receiver {
            Receiver::Expr(_) if name != "length" => format!("{recv}.@{member}"),
            _ => format!("{recv}.{member}"),
        })
    }

    /// A closure or Java-style lambda; one passed to an overloaded method, or for a
    /// parameter of a type variable's type, or returned by another lambda, is cast to its
    /// interface: groovyc prefers an overload that `Closure` implements (`Runnable`) and does
    /// not coerce a returned closure.
    fn lambda(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match cast_target(e) {
            Some(t) => format!(
                "(({}) {})",
                self.ty(t, common::TyPos::Value)?,
                self.bare_lambda(e)?
            ),
            None => self.bare_lambda(e)?,
        })
    }

    /// A function reference: `::` as in Java, or the method pointer `recv.&m` / `C.&m`.
    fn reference_text(&self, e: &Expr) -> Result<String, TranslateError> {
        match e {
            Expr::Ref {
                kind: RefKind::Static { class, name },
                method_pointer: true,
                ..
            } => {
                self.check_qualified_name(class)?;
                Ok(format!(
                    "{}.&{}",
                    self.static_qualifier(class),
                    self.member(name)?
                ))
            }
            Expr::Ref {
                kind: RefKind::Bound { receiver, name },
                method_pointer: true,
                ..
            } => Ok(format!(
                "{}.&{}",
                self.ref_receiver(receiver)?,
                self.member(name)?
            )),
            Expr::Ref { kind, .. } => self.double_colon(kind),
            e => self.expr(e),
        }
    }

    fn member_separator(&self) -> &'static str {
        "; "
    }

    /// `e` inside another expression: a closure not cast is parenthesized, so that it cannot
    /// be read as a block or as a trailing closure argument.
    fn operand(&self, e: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(e)?;
        Ok(if is_closure(e) && cast_target(e).is_none() {
            format!("({s})")
        } else {
            s
        })
    }

    /// `(e as T)`: the closure, lambda or reference bare, anything else as an operand.
    fn coerce(&self, ty: &Ty, e: &Expr) -> Result<String, TranslateError> {
        let inner = match e {
            Expr::Lambda { .. } => format!("({})", self.bare_lambda(e)?),
            Expr::Ref { .. } => self.reference_text(e)?,
            e => self.operand(e)?,
        };
        Ok(format!(
            "({inner} as {})",
            self.ty(ty, common::TyPos::Value)?
        ))
    }

    /// A lambda, as a closure or Java-style, and a reference, written bare after the cast
    /// to their target: `((F) { -> x })`, `((F) () -> x)`, `((F) C::m)`.
    fn uncast(&self, e: &Expr) -> Result<String, TranslateError> {
        match e {
            Expr::Lambda { .. } => self.bare_lambda(e),
            Expr::Ref { .. } => self.reference_text(e),
            e => self.operand(e),
        }
    }

    /// A closure, lambda or `::` reference whose target is the declared type is written
    /// bare: coerced on assignment. A method pointer is a `Closure` that groovyc 4 does not
    /// coerce to a generic interface there, so it is cast as anywhere else.
    fn initializer(&self, e: &Expr, declared: &Ty) -> Result<String, TranslateError> {
        let converted = cast_target(e).is_none_or(|t| t == declared);
        match e {
            Expr::Lambda { .. } if converted => self.bare_lambda(e),
            Expr::Ref {
                method_pointer: false,
                ..
            } if converted => self.reference_text(e),
            e => self.expr(e),
        }
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

    fn parenthesize_receiver(&self, e: &Expr, _: &str) -> bool {
        match e {
            Expr::Lit(Lit::Str(_) | Lit::Null | Lit::Bool(_)) => false,
            Expr::Lit(_) => true,
            Expr::Lambda { .. } | Expr::Ref { .. } => cast_target(e).is_none(),
            _ => false,
        }
    }

    /// `((char) 0)`: a `char` literal is a converted string in Groovy.
    fn char_zero(&self) -> Result<String, TranslateError> {
        Ok("((char) 0)".to_owned())
    }
}

/// Whether `e` is a lambda written as a closure (not Java-style).
fn is_closure(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Lambda {
            form: LambdaForm::Usual | LambdaForm::AnonymousFunction,
            ..
        }
    )
}

impl Emitter {
    /// Lambda `e` uncast: a closure `{ a, b -> body }` / `{ a -> T x = ..; body }`, or for
    /// [`LambdaForm::Arrow`] a Java-style lambda `(a, b) -> body` /
    /// `(a) -> { T x = ..; return body; }`.
    fn bare_lambda(&self, e: &Expr) -> Result<String, TranslateError> {
        let Expr::Lambda {
            params,
            body,
            block,
            form,
            ret,
            ..
        } = e
        else {
            return self.expr(e);
        };
        let params = self.params(params)?;
        if *form == LambdaForm::Arrow {
            let body = match body.as_ref() {
                body if !block.is_empty() => self.block_body(block, body, ret.as_ref())?,
                Expr::Unit => "{}".to_owned(),
                body => self.operand(body)?,
            };
            return Ok(format!("({params}) -> {body}"));
        }
        let arrow = if params.is_empty() {
            "->".to_owned()
        } else {
            format!("{params} ->")
        };
        let stmts = self.block_stmts(block)?;
        let mut parts: Vec<String> = vec![arrow];
        if !stmts.is_empty() {
            parts.push(stmts);
        }
        if !matches!(body.as_ref(), Expr::Unit) {
            parts.push(self.operand(body)?);
        }
        Ok(format!("{{ {} }}", parts.join(" ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::test_support::{self, adapt, callable, callable_lambda};
    use crate::ir::{Expr, Program, Stmt, Ty};

    fn body(t: GroovyTranslator, stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        test_support::body(&t, stmts)
    }

    fn cs(stmts: Vec<Stmt>) -> String {
        body(GroovyTranslator::default(), stmts).expect("translates")
    }

    #[test]
    fn classes_of_a_lowercase_simple_name_are_imported_for_static_access() {
        let p = Program::new(
            "p7",
            vec![
                Stmt::local(
                    "k",
                    Ty::class("clojure.lang.Keyword", vec![]),
                    Expr::static_field("clojure.core.reducers__init", "const__51"),
                ),
                Stmt::expr(Expr::static_call(
                    "clojure.core.reducers__init",
                    "load",
                    vec![],
                    vec![],
                )),
                Stmt::expr(Expr::static_call("a.B", "m", vec![], vec![])),
                // an unbound reference's class is a qualifier too
                Stmt::local(
                    "g",
                    Ty::class("java.util.function.Function", vec![]),
                    Expr::Ref {
                        kind: RefKind::Unbound {
                            ty: Ty::class("org.postgresql.translation.messages_de", vec![]),
                            name: "getParent".into(),
                        },
                        fn_params: vec![],
                        fn_ret: Ty::class("java.util.ResourceBundle", vec![]),
                        target: None,
                        implicit: true,
                        declared_in: vec![],
                        method_pointer: false,
                    },
                ),
            ],
        );
        assert_eq!(
            GroovyTranslator::default()
                .translate(&p)
                .expect("translates"),
            "package thalia.p7\n\nimport clojure.core.reducers__init as ThaliaImported0\n\
             import org.postgresql.translation.messages_de as ThaliaImported1\n\n\
             @groovy.transform.CompileStatic\nfinal class Test_p7 {\n    \
             static void test() {\n        \
             clojure.lang.Keyword k = ThaliaImported0.const__51;\n        \
             ThaliaImported0.load();\n        \
             a.B.m();\n        \
             java.util.function.Function g = ThaliaImported1::getParent;\n    }\n}\n"
        );
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
                // a cast where the IR has one, none elsewhere
                Stmt::local(
                    "h",
                    Ty::INT,
                    Expr::cast(Ty::object(), Expr::local("o")).method("hashCode", vec![])
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
             java.lang.String s = o.toString();\n\
             int h = ((java.lang.Object) o).hashCode();\n\
             java.awt.Point p = new java.awt.Point();\n\
             int x = p.@x;\n\
             int[] a = new int[] {1};\n\
             int n = a.length;\n\
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
        assert_eq!(
            cs(vec![adapt(callable_lambda(false))]),
            "java.util.concurrent.ForkJoinTask.<java.lang.String>adapt(((java.util.concurrent.Callable<java.lang.String>) { -> 'a' }));"
        );
        assert_eq!(
            cs(vec![adapt(callable_lambda(true))]),
            "java.util.concurrent.ForkJoinTask.<java.lang.String>adapt(({ -> 'a' }));"
        );
        // a local's declared type is the closure's target
        assert_eq!(
            cs(vec![Stmt::local("c", callable(), callable_lambda(false))]),
            "java.util.concurrent.Callable<java.lang.String> c = { -> 'a' };"
        );
    }
}
