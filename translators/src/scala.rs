//! The Scala translators: Scala 3 and, as a dialect, Scala 2.13.
//!
//! A program becomes one file `Test_<id>.scala`:
//!
//! ```scala
//! package thalia.<id>
//!
//! object Test_<id> {
//!   def test(): Unit = {    // def test[T <: A & B, U](): Unit = { with type parameters
//!     ...statements...
//!   }
//! }
//! ```
//!
//! The test function's type parameters (`Program::type_params`) are `[T <: A & B, U]` in
//! Scala 3 and `[T <: A with B, U]` in Scala 2.13.
//!
//! Classes are written fully qualified (Java's classes are Scala's: `java.lang.String`,
//! `java.util.List[T]`, boxed `java.lang.Integer`), and there are no imports.
//!
//! Mapping of the IR:
//! - primitives → `Int`, `Boolean`, ..., `Unit`; a primitive *type argument* is boxed
//!   (`java.util.List[java.lang.Integer]`, as Java means it); arrays `Array[Int]`, `Array[T]`;
//!   `Nullable(T)` → `T` (boxed if primitive); `Top` → `Any`, `Bottom` → `Nothing`; function
//!   types `(A, B) => R`.
//! - wildcards: `? <: T`, `? >: T`, `?` in Scala 3; `_ <: T`, `_ >: T`, `_` in Scala 2.13.
//! - `Bottom(T)` is `null.asInstanceOf[T]`: exactly of type `T`, for reference and primitive
//!   `T` alike (the primitive's default value at run time), and unlike `???` it leaves the
//!   following statements reachable.
//! - `New { type_args: None }` is `new C(args)` (Scala infers the class's type arguments, also
//!   from the expected type); calls `recv.m[A, B](args)`, Java statics `C.m[A](args)`.
//! - Lambdas `(a, b) => body`, `(a: T) => body`, `() => body`, `(x) => ()` for a `Unit` body;
//!   Scala converts them to Java functional interfaces (SAM conversion), also when nested.
//!   Where the IR says the position does not convert a bare lambda (an argument of an
//!   overloaded method, which Scala 2 types before it picks the overload, or for a
//!   type-variable parameter; a lambda returned by a lambda), and for a local of a wildcard
//!   type (Scala's function type takes `Any` for `?`, Java's the bound), the lambda is
//!   ascribed its target: `((() => x): java.util.concurrent.Callable[T])`. A block body is
//!   `(a: T) => { val x: A = init; val y = init; f(x); body }` (`; ()` last for a `Unit`
//!   body); its statements are written as at the top level (fresh names `__unused_bN`).
//!   `LambdaForm::AnonymousFunction` and `LambdaForm::Arrow` are the usual form.
//! - Function references (`Expr::Ref`): a static or bound method with parameters is
//!   eta-expanded in Scala 3 (`java.lang.Integer.parseInt`, `s.concat`,
//!   `java.lang.System.out.println`: the expected SAM type picks the overload), and written
//!   with placeholders typed by the function's parameters (`Expr::Ref::fn_params`) in Scala
//!   2.13, which does not eta-expand a bare method to a SAM type:
//!   `(java.lang.Integer.parseInt(_: java.lang.String))`, `(s.concat(_: java.lang.String))`.
//!   Both write an unbound method with a typed receiver placeholder
//!   `((_: java.lang.String).charAt(_: Int))` (the receiver typed as the reference names it,
//!   so that its members are looked up there), a constructor `(new C(_: A))` or
//!   `(new C[T](_: A))` with explicit type arguments, an array constructor
//!   `(new Array[T](_: Int))`, and a function without parameters as a lambda
//!   `(() => C.m())`, `(() => s.length())`, `(() => new C())` (a placeholder needs a
//!   parameter; a bare nullary method would be called). Placeholder forms are
//!   parenthesized, which bounds the function they stand for. Where the position does not
//!   convert a bare function (`implicit` false) or the local's type has wildcards, the
//!   reference is ascribed its target as a lambda is: `((java.lang.Integer.parseInt): F)`.
//! - A cast of a lambda or reference is an ascription, `(((a) => e): F)` (`asInstanceOf`
//!   would give a lambda no parameter types and a Scala function type); through the target
//!   first when the type has wildcards, `((((a) => e): F[A]): F[? <: A])`.
//! - A local declared without a type (`Stmt::Local::inferred`) is `val x = init`; a lambda or
//!   reference initializing it is ascribed its target (else the local's meant type).
//! - An inner class is created on its outer instance as `new o.Inner[A](args)`, where `o` must
//!   be a local (a stable identifier: its type `o.Inner` is path-dependent); any other outer
//!   expression is `Unsupported`.
//! - Inner (non-static member) classes that the program lists are type projections,
//!   `Outer#Inner`; static nested classes are members of the companion, `Outer.Nested`.
//! - Varargs arrays `a*` (Scala 3) or `a: _*` (Scala 2.13).
//! - Casts `e.asInstanceOf[T]` (numeric conversions between primitives included).
//! - Literals: `1L`, `1.5f`, `2.25d`, `(-1).toByte`, `1.toShort`, `'a'`; strings are ASCII-only
//!   with `\uXXXX` escapes. `Int`, `Long`, `Float` and `Char` literals passed to a call are
//!   ascribed their type, `f((1.5f: Float))`, so that Scala adapts them as Java does.
//! - Names that are Scala keywords (of either version) are quoted with backquotes:
//!   ``x.`type`()``.
//! - An expression statement other than a call or `new` is bound to a fresh
//!   `val __unused_N: Any = ...`; a literal statement is dropped. Conditionals are
//!   `(if (c) a else b)`, which Scala 3 reads too; a lambda branch is parenthesized
//!   (`if (c) (a) => e` would read `(c)(a)`).
//!
//! Known gaps: raw Java types cannot be written in Scala (`java.util.List` needs its type
//! argument, and the IR does not say how many): they are written as they are and scalac
//! rejects them (synthesis does not use them for Scala). Scala arrays are invariant, so a Java program that relies on array covariance
//! (`String[]` passed where `Object[]` is expected) is ill-typed in Scala.

use std::cell::RefCell;

use crate::common::literal::{ControlEscape, Escapes, LiteralSyntax, Narrowing};
use crate::common::{
    self, prim_name, BodyCx, CodeWriter, Dialect, LocalParts, ProgramNames, TyPos,
    BLOCK_UNUSED_STEM,
};
use crate::ir::{
    ArgLists, Expr, Lit, Method, PrimTy, Program, Receiver, RefKind, Stmt, Ty, TypeAlias, TypeParam,
};
use crate::{Language, TranslateError, Translator};

/// The Scala version written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScalaVersion {
    /// Scala 3 (`?` wildcards, `a*` varargs).
    #[default]
    Scala3,
    /// Scala 2.13 (`_` wildcards, `a: _*` varargs).
    Scala2,
}

/// Translates programs to Scala source of the given version.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScalaTranslator {
    /// Which Scala is written.
    pub version: ScalaVersion,
}

impl ScalaTranslator {
    /// The Scala 3 translator.
    pub const SCALA3: ScalaTranslator = ScalaTranslator {
        version: ScalaVersion::Scala3,
    };

    /// The Scala 2.13 translator.
    pub const SCALA2: ScalaTranslator = ScalaTranslator {
        version: ScalaVersion::Scala2,
    };
}

impl Translator for ScalaTranslator {
    fn language(&self) -> Language {
        match self.version {
            ScalaVersion::Scala3 => Language::Scala3,
            ScalaVersion::Scala2 => Language::Scala2,
        }
    }

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        common::translate(&Emitter::new(*self, p)?, p)
    }
}

/// The translation of one program: the Scala version, the program's inner classes, its test
/// function's header and the fresh names of its lambda blocks.
struct Emitter<'p> {
    /// Which Scala is written.
    version: ScalaVersion,
    /// Non-static member classes of Java classes, written `Outer#Inner` (type projection):
    /// Scala sees Java's static nested classes as members of the companion object
    /// (`Outer.Nested`) and inner ones as members of the class's instances.
    inner: &'p [String],
    /// The test function's header line.
    function: String,
    /// Whether the object is an experimental scope (Scala 3 only: Scala 2 has no
    /// `@experimental`).
    experimental: bool,
    /// Fresh names of the locals that hold expression statements of lambda blocks.
    block_cx: RefCell<BodyCx>,
    /// The program's type aliases, through which its locals are declared.
    aliases: &'p [TypeAlias],
    /// The aliases' declarations, members of the test object before the test function.
    alias_lines: Vec<String>,
}

impl<'p> Emitter<'p> {
    fn new(t: ScalaTranslator, p: &'p Program) -> Result<Self, TranslateError> {
        let mut e = Emitter {
            version: t.version,
            inner: &p.inner_classes,
            function: String::new(),
            experimental: p.experimental && t.version == ScalaVersion::Scala3,
            block_cx: RefCell::new(BodyCx::new(p)),
            aliases: &p.aliases,
            alias_lines: Vec::new(),
        };
        e.function = e.function_header(&p.type_params)?;
        // `type Declared0[T0] = java.util.List[T0]`
        for a in &p.aliases {
            e.check_name(&a.name)?;
            let params = common::bracketed(&a.expansion_params(), "[", "]", |v| {
                e.check_name(v)?;
                Ok(name(v))
            })?;
            let line = format!(
                "type {}{params} = {}",
                name(&a.name),
                e.ty(&a.expansion(), TyPos::Value)?
            );
            e.alias_lines.push(line);
        }
        Ok(e)
    }

    /// `t` as a local's declared type: through the program's alias of its class where one
    /// applies ([`TypeAlias`]).
    fn declared_ty(&self, t: &Ty) -> Result<String, TranslateError> {
        for a in self.aliases {
            if let Some(args) = a.args_for(t) {
                return Ok(format!("{}{}", name(&a.name), self.ty_args_opt(args)?));
            }
        }
        self.ty(t, TyPos::Value)
    }

    /// `def test[T <: A & B, U](): Unit = {` (Scala 2.13: `A with B`).
    fn function_header(&self, type_params: &[TypeParam]) -> Result<String, TranslateError> {
        let and = match self.version {
            ScalaVersion::Scala3 => " & ",
            ScalaVersion::Scala2 => " with ",
        };
        let params = common::bracketed(type_params, "[", "]", |tp| {
            self.check_name(&tp.name)?;
            let bounds = tp
                .bounds
                .iter()
                .map(|b| self.ty(b, TyPos::Value))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if bounds.is_empty() {
                name(&tp.name)
            } else {
                format!("{} <: {}", name(&tp.name), bounds.join(and))
            })
        })?;
        Ok(format!("def test{params}(): Unit = {{"))
    }

    /// A class name in Scala syntax.
    fn class_name(&self, class: &str) -> String {
        match class.rsplit_once('.') {
            Some((outer, inner)) if self.inner.iter().any(|c| c == class) => {
                format!("{}#{}", qualified(outer), name(inner))
            }
            _ => qualified(class),
        }
    }
}

/// Reserved words of Scala 2.13 and Scala 3 (`enum`, `export`, `given`, `then` are Scala 3's);
/// they can name something only when backquoted.
/// The `val` that binds an inner class's enclosing instance when it is no local
/// (`{ val thaliaOuter = f(); new thaliaOuter.Inner() }`): a name no program declares.
const OUTER_VAL: &str = "thaliaOuter";

const KEYWORDS: &[&str] = &[
    "_",
    "abstract",
    "case",
    "catch",
    "class",
    "def",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "final",
    "finally",
    "for",
    "forSome",
    "given",
    "if",
    "implicit",
    "import",
    "lazy",
    "macro",
    "match",
    "new",
    "null",
    "object",
    "override",
    "package",
    "private",
    "protected",
    "return",
    "sealed",
    "super",
    "then",
    "this",
    "throw",
    "trait",
    "true",
    "try",
    "type",
    "val",
    "var",
    "while",
    "with",
    "yield",
];

/// The characters of a Scala operator identifier (`::`, `+:`, `<:<`).
const OPERATOR_CHARS: &str = "<>:=+-*/!#%&|^~?@\\";

/// True for a Scala identifier with operator characters: an operator (`::`, `+:`, `<:<`)
/// or an alphanumeric name ending in `_` and an operator (`unary_-`, `lineStream_!`).
fn is_operator(n: &str) -> bool {
    let ops = |s: &str| !s.is_empty() && s.chars().all(|c| OPERATOR_CHARS.contains(c));
    ops(n)
        || n.rsplit_once('_').is_some_and(|(head, tail)| {
            ops(tail) && common::is_plain_identifier(&format!("{head}_"))
        })
}

/// `name`, backquoted if it is a keyword or an operator (`xs.`::`(x)`).
fn name(n: &str) -> String {
    if KEYWORDS.contains(&n) || is_operator(n) {
        // a backquoted identifier reads escape sequences: `:\` is written `:\\`
        format!("`{}`", n.replace('\\', "\\\\"))
    } else {
        n.to_owned()
    }
}

/// A dot-separated qualified name with each segment quoted as needed.
fn qualified(n: &str) -> String {
    common::qualified(n, name)
}

/// Whether a wildcard occurs in `t`.
fn has_wildcard(t: &Ty) -> bool {
    let mut found = false;
    t.walk(&mut |t| found |= t.is_wildcard());
    found
}

/// How Scala writes literals: `1L`, `1.5f`, `2.25d`, `(-1).toByte`, `'a'`; Scala has no
/// octal escapes, so control characters are `\uXXXX` escapes, which Scala 2.13 and 3 read
/// inside literals only.
pub(crate) const LITERALS: LiteralSyntax = LiteralSyntax {
    escapes: Escapes {
        string_quote: '"',
        form_feed: true,
        dollar: false,
        control: ControlEscape::Unicode,
    },
    int_min: None,
    long_min: None,
    float_class: "java.lang.Float",
    double_class: "java.lang.Double",
    double_suffix: "d",
    narrowing: Narrowing::Method(""),
    char_as_string: false,
};

impl Dialect for Emitter<'_> {
    fn language(&self) -> Language {
        Translator::language(&ScalaTranslator {
            version: self.version,
        })
    }

    fn is_identifier(&self, n: &str) -> bool {
        common::is_plain_identifier(n) || is_operator(n)
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        let annotation = self
            .experimental
            .then_some("@scala.annotation.experimental");
        if self.alias_lines.is_empty() {
            common::open_object(w, names, name, annotation, &self.function);
            return;
        }
        // the aliases are members of the test object, before the test function
        let mut first = self.alias_lines.iter();
        let Some(head) = first.next() else {
            return;
        };
        let package = format!("package {}", common::qualified(&names.package, name));
        let object = format!("object {} {{", names.class);
        let mut header = vec![package.as_str(), ""];
        header.extend(annotation);
        header.push(&object);
        common::open_test(w, &header, head);
        w.dedent();
        for line in first {
            w.line(line);
        }
        w.line(&self.function);
        w.indent();
    }

    fn stmt(&self, s: &Stmt, cx: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        common::val_stmt(
            s,
            "Any",
            cx,
            w,
            |n, ty, init, inferred| self.local_parts(n, ty, init, inferred),
            |e| self.expr(e),
            |l| self.lit(l),
        )
    }
}

impl Emitter<'_> {
    /// A local's name, declared type (`None` if `inferred`) and initializer. The declared
    /// type is a lambda's or reference's expected type: no ascription, unless it has
    /// wildcards, for which Scala's function type takes `Any` where Java's (JLS 9.9) takes the
    /// bound, `Object`; a local without a declared type ascribes its lambda or reference the
    /// target (else the meant type).
    fn local_parts(
        &self,
        local: &str,
        ty: &Ty,
        init: &Expr,
        inferred: bool,
    ) -> Result<LocalParts, TranslateError> {
        let ty_s = self.declared_ty(ty)?;
        let init = match init {
            Expr::Lambda { target, .. } | Expr::Ref { target, .. } if inferred => {
                self.ascribed(init, target.as_ref().unwrap_or(ty))?
            }
            Expr::Lambda {
                target: Some(t), ..
            }
            | Expr::Ref {
                target: Some(t), ..
            } if has_wildcard(ty) => self.ascribed(init, t)?,
            _ => self.fun_text(init)?,
        };
        Ok((name(local), (!inferred).then_some(ty_s), init))
    }

    /// Lambda or reference `e` without an ascription (any other expression as
    /// [`Emitter::expr`] writes it).
    fn fun_text(&self, e: &Expr) -> Result<String, TranslateError> {
        match e {
            Expr::Ref { .. } => self.reference(e),
            _ => self.lambda(e),
        }
    }

    /// Lambda or reference `e` ascribed type `t`: `((x) => e): T)`.
    fn ascribed(&self, e: &Expr, t: &Ty) -> Result<String, TranslateError> {
        Ok(format!(
            "(({}): {})",
            self.fun_text(e)?,
            self.ty(t, TyPos::Value)?
        ))
    }

    /// The statements of a lambda block, each as text.
    fn block_stmts(&self, block: &[Stmt]) -> Result<Vec<String>, TranslateError> {
        let mut out = Vec::new();
        for s in block {
            out.extend(common::val_stmt_text(
                s,
                "Any",
                || self.block_cx.borrow_mut().fresh(BLOCK_UNUSED_STEM),
                |n, ty, init, inferred| self.local_parts(n, ty, init, inferred),
                |e| self.expr(e),
                |l| self.lit(l),
            )?);
        }
        Ok(out)
    }

    /// Function reference `e` without an ascription: Scala 3 eta-expands a static or bound
    /// method with parameters (`java.lang.Integer.parseInt`, `s.charAt`); Scala 2.13 writes
    /// them with placeholders typed by the function's parameters
    /// (`(java.lang.Integer.parseInt(_: java.lang.String))`); both write an unbound method
    /// `((_: java.lang.String).length())`, a constructor `(new C(_: A))`, an array
    /// constructor `(new Array[T](_: Int))` and a function without parameters
    /// `(() => C.m())`, `(() => new C())`.
    fn reference(&self, e: &Expr) -> Result<String, TranslateError> {
        let Expr::Ref {
            kind, fn_params, ..
        } = e
        else {
            return self.expr(e);
        };
        let holes = |ps: &[Ty]| {
            common::comma_separated(ps, |t| Ok(format!("_: {}", self.ty(t, TyPos::Value)?)))
        };
        let method = |recv: String, m: &str| -> Result<String, TranslateError> {
            self.check_name(m)?;
            let m = name(m);
            Ok(if fn_params.is_empty() {
                format!("(() => {recv}.{m}())")
            } else if self.version == ScalaVersion::Scala3 {
                format!("{recv}.{m}")
            } else {
                format!("({recv}.{m}({}))", holes(fn_params)?)
            })
        };
        match kind {
            RefKind::Static { class, name: m } => {
                self.check_qualified_name(class)?;
                method(qualified(class), m)
            }
            RefKind::Bound { receiver, name: m } => method(self.operand(receiver)?, m),
            RefKind::Unbound { ty, name: m } => {
                self.check_name(m)?;
                let Some((_, rest)) = fn_params.split_first() else {
                    return Err(
                        self.unsupported("an unbound reference without a receiver parameter")
                    );
                };
                Ok(format!(
                    "((_: {}).{}({}))",
                    self.ty(ty, TyPos::Value)?,
                    name(m),
                    holes(rest)?
                ))
            }
            RefKind::Constructor { class, type_args } => {
                self.check_qualified_name(class)?;
                let targs = self.ty_args_opt(type_args.as_deref().unwrap_or_default())?;
                let class = qualified(class);
                Ok(if fn_params.is_empty() {
                    format!("(() => new {class}{targs}())")
                } else {
                    format!("(new {class}{targs}({}))", holes(fn_params)?)
                })
            }
            RefKind::ArrayConstructor { elem } => Ok(format!(
                "(new Array[{}]({}))",
                self.array_elem(elem)?,
                holes(fn_params)?
            )),
            RefKind::PackageFunction { package, name, .. } => Err(self.unsupported(format!(
                "a reference to the Kotlin package function {package}.{name}"
            ))),
        }
    }

    /// The wildcard marker: `?` (Scala 3) or `_` (Scala 2).
    fn wildcard(&self) -> &'static str {
        match self.version {
            ScalaVersion::Scala3 => "?",
            ScalaVersion::Scala2 => "_",
        }
    }

    /// `t` in Scala syntax, as written at position `pos`.
    fn ty(&self, t: &Ty, pos: TyPos) -> Result<String, TranslateError> {
        self.check_wildcard(t, pos)?;
        Ok(match t {
            Ty::Prim(p) => match pos {
                TyPos::Arg => p.boxed_class().to_owned(),
                TyPos::Value if *p == PrimTy::Void => {
                    return Err(self.unsupported("`void` as the type of a value"))
                }
                TyPos::Value => prim_name(*p).to_owned(),
            },
            Ty::Class { name: class, args } => {
                self.check_qualified_name(class)?;
                if args.is_empty() {
                    self.class_name(class)
                } else {
                    format!("{}[{}]", self.class_name(class), self.ty_args(args)?)
                }
            }
            Ty::Var(v) => {
                self.check_name(v)?;
                name(v)
            }
            Ty::WildcardStar => self.wildcard().to_owned(),
            Ty::WildcardExtends(b) => {
                format!("{} <: {}", self.wildcard(), self.ty(b, TyPos::Arg)?)
            }
            Ty::WildcardSuper(b) => format!("{} >: {}", self.wildcard(), self.ty(b, TyPos::Arg)?),
            Ty::Array(elem) => format!("Array[{}]", self.array_elem(elem)?),
            Ty::Nullable(inner) => match inner.as_ref() {
                Ty::Prim(p) if *p != PrimTy::Void => p.boxed_class().to_owned(),
                inner => self.ty(inner, pos)?,
            },
            Ty::Function {
                receiver: Some(_), ..
            } => return Err(self.unsupported("function types with a receiver")),
            Ty::Function {
                receiver: None,
                params,
                ret,
            } => {
                let (params, ret) =
                    common::function_type_parts(params, ret, |t| self.ty(t, TyPos::Value))?;
                format!("(({params}) => {ret})")
            }
            Ty::Top => "Any".to_owned(),
            Ty::Bottom => "Nothing".to_owned(),
        })
    }

    /// An array's element type (primitives stay primitive: `Array[Int]` is `int[]`).
    fn array_elem(&self, elem: &Ty) -> Result<String, TranslateError> {
        match elem {
            Ty::Prim(PrimTy::Void) => Err(self.unsupported("an array of `void`")),
            Ty::Prim(_) => self.ty(elem, TyPos::Value),
            _ => {
                self.check_wildcard(elem, TyPos::Value)?;
                self.ty(elem, TyPos::Arg)
            }
        }
    }

    /// Comma-separated type arguments.
    fn ty_args(&self, args: &[Ty]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.ty(a, TyPos::Arg))
    }

    /// `[A, B]` or nothing.
    fn ty_args_opt(&self, args: &[Ty]) -> Result<String, TranslateError> {
        common::bracketed(args, "[", "]", |a| self.ty(a, TyPos::Arg))
    }

    /// `e` in Scala syntax; compound forms come parenthesized.
    fn expr(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match e {
            Expr::Lit(lit) => self.lit(lit)?,
            Expr::Bottom(t) => {
                if matches!(t, Ty::Prim(PrimTy::Void)) {
                    return Err(self.unsupported("a bottom constant of type `void`"));
                }
                format!("null.asInstanceOf[{}]", self.ty(t, TyPos::Value)?)
            }
            Expr::Local(n) => name(n),
            Expr::Unit => "()".to_owned(),
            Expr::New {
                class,
                type_args,
                args,
                outer: Some(outer),
            } => {
                // `new o.Inner(args)`: the outer instance must be a stable identifier, so
                // any other expression is bound to a block's `val` first (the block's type is
                // then `Outer#Inner`, the type the program writes for the class)
                self.check_qualified_name(class)?;
                let inner = class.rsplit('.').next().unwrap_or(class);
                let targs = self.ty_args_opt(type_args.as_deref().unwrap_or_default())?;
                let args = self.args(args)?;
                match outer.as_ref() {
                    Expr::Local(o) => format!("new {}.{}{targs}({args})", name(o), name(inner)),
                    o => format!(
                        "{{ val {OUTER_VAL} = {}; new {OUTER_VAL}.{}{targs}({args}) }}",
                        self.expr(o)?,
                        name(inner)
                    ),
                }
            }
            Expr::Ref {
                target: Some(t),
                implicit: false,
                ..
            } => self.ascribed(e, t)?,
            Expr::Ref { .. } => self.reference(e)?,
            Expr::New {
                class,
                type_args,
                args,
                outer: None,
            } => {
                self.check_qualified_name(class)?;
                let targs = self.ty_args_opt(type_args.as_deref().unwrap_or_default())?;
                format!("new {}{targs}({})", qualified(class), self.args(args)?)
            }
            Expr::Call {
                receiver,
                name: method,
                type_args,
                args,
                lists,
                ..
            } => {
                self.check_name(method)?;
                let targs = self.ty_args_opt(type_args)?;
                let args = match lists {
                    None => format!("({})", self.args(args)?),
                    Some(l) => self.arg_lists(args, l)?,
                };
                match self.receiver(receiver)? {
                    Some(r) => format!("{r}.{}{targs}{args}", name(method)),
                    None => format!("{}{targs}{args}", name(method)),
                }
            }
            Expr::Field {
                receiver,
                name: field,
            } => {
                self.check_name(field)?;
                match self.receiver(receiver)? {
                    Some(r) => format!("{r}.{}", name(field)),
                    None => name(field),
                }
            }
            Expr::Lambda {
                target: Some(t),
                implicit: false,
                ..
            } => {
                // Scala 2 converts a lambda passed to an overloaded method, or for a
                // parameter of type-variable type, only with its type ascribed
                self.ascribed(e, t)?
            }
            Expr::Lambda { .. } => self.lambda(e)?,
            Expr::NewArray { elem, elems } => {
                let elems = common::comma_separated(elems, |a| self.expr(a))?;
                format!("Array[{}]({elems})", self.array_elem(elem)?)
            }
            Expr::Spread(inner) => {
                let inner = self.operand(inner)?;
                match self.version {
                    ScalaVersion::Scala3 => format!("{inner}*"),
                    ScalaVersion::Scala2 => format!("{inner}: _*"),
                }
            }
            Expr::Cast { ty, expr, .. }
                if matches!(**expr, Expr::Lambda { .. } | Expr::Ref { .. }) =>
            {
                // a lambda or reference is given its type by ascription (`asInstanceOf` would
                // give it none), through its target first where the type has wildcards
                match &**expr {
                    Expr::Lambda {
                        target: Some(t), ..
                    }
                    | Expr::Ref {
                        target: Some(t), ..
                    } if has_wildcard(ty) => {
                        format!(
                            "({}: {})",
                            self.ascribed(expr, t)?,
                            self.ty(ty, TyPos::Value)?
                        )
                    }
                    _ => self.ascribed(expr, ty)?,
                }
            }
            Expr::Cast { ty, expr, .. } => format!(
                "{}.asInstanceOf[{}]",
                self.operand(expr)?,
                self.ty(ty, TyPos::Value)?
            ),
            Expr::Cond { cond, then, els } => common::if_else(cond, then, els, |e| {
                // a lambda branch is parenthesized: `if (c) (a) => x` would read `(c)(a)`
                let s = self.expr(e)?;
                Ok(match e {
                    Expr::Lambda { .. } => format!("({s})"),
                    _ => s,
                })
            })?,
            Expr::Anonymous {
                ty,
                super_args,
                methods,
            } => self.anonymous(ty, super_args.as_deref(), methods)?,
        })
    }

    /// An anonymous class on one line: `(new I[A] { override def m(p: P): R = e })`,
    /// `def run(): Unit = ()` for a `void` method with an empty body, a class's
    /// constructor arguments after its type (`new C[A](x) { .. }`).
    fn anonymous(
        &self,
        ty: &Ty,
        super_args: Option<&[Expr]>,
        methods: &[Method],
    ) -> Result<String, TranslateError> {
        if !matches!(ty, Ty::Class { .. }) {
            return Err(self.unsupported("an anonymous class of a type that is no class type"));
        }
        let mut decls = Vec::with_capacity(methods.len());
        for m in methods {
            self.check_name(&m.name)?;
            let params = common::comma_separated(&m.params, |(n, t)| {
                Ok(format!("{}: {}", name(n), self.ty(t, TyPos::Value)?))
            })?;
            // `override` also where the method implements an abstract one: Scala wants it
            // where a Java class declares abstract again what a supertype implements
            // (`Clock.withZone`, a default method of `InstantSource`)
            let head = format!("override def {}({params})", name(&m.name));
            decls.push(match (&m.ret, &m.body) {
                (Ty::Prim(PrimTy::Void), Expr::Unit) => format!("{head}: Unit = ()"),
                (Ty::Prim(PrimTy::Void), body) => {
                    format!("{head}: Unit = {{ {}; () }}", self.expr(body)?)
                }
                (ret, body) => {
                    let (_, t, b) = self.local_parts("result", ret, body, false)?;
                    format!("{head}: {} = {b}", t.unwrap_or_default())
                }
            });
        }
        let call = match super_args {
            Some(args) => format!("({})", self.args(args)?),
            None => String::new(),
        };
        Ok(format!(
            "(new {}{call} {{ {} }})",
            self.ty(ty, TyPos::Value)?,
            decls.join("; ")
        ))
    }

    /// Lambda `e` without a type ascription: `(a, b) => body`, `(a: T) => { stmts; body }`
    /// with a block (any other expression as [`Emitter::expr`] writes it).
    fn lambda(&self, e: &Expr) -> Result<String, TranslateError> {
        let Expr::Lambda {
            params,
            body,
            block,
            ..
        } = e
        else {
            return self.expr(e);
        };
        self.check_uniform_params(params)?;
        let params = common::colon_params(params, name, |t| self.ty(t, TyPos::Value))?;
        let stmts = self.block_stmts(block)?;
        let body = self.expr(body)?;
        Ok(if stmts.is_empty() {
            format!("({params}) => {body}")
        } else {
            format!("({params}) => {{ {}; {body} }}", stmts.join("; "))
        })
    }

    /// Comma-separated arguments of a call.
    fn args(&self, args: &[Expr]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.arg(a))
    }

    /// A call's argument; an `Int`, `Long`, `Float` or `Char` literal with its own type
    /// ascribed: Scala 3 adapts a constant to the parameter's numeric type and its box where
    /// Java does not (`1` for a `java.lang.Long`, `1` for a `byte`, `1.5f` for a
    /// `java.lang.Double`), so an overloaded call with boxes of two numeric types is
    /// ambiguous (`toScaledBigDecimal(1.5f)`) and a break by a literal goes unseen; `(1.5f:
    /// Float)` is a value of type `Float`, adapted as Java would.
    fn arg(&self, a: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(a)?;
        Ok(match a {
            Expr::Lit(Lit::Int(_)) => format!("({s}: Int)"),
            Expr::Lit(Lit::Long(_)) => format!("({s}: Long)"),
            Expr::Lit(Lit::Float(_)) => format!("({s}: Float)"),
            Expr::Lit(Lit::Char(_)) => format!("({s}: Char)"),
            _ => s,
        })
    }

    /// A call's arguments split into its parameter lists (`(a, b)(c)`), the implicit ones
    /// last as Scala 3's `(using ev)` or Scala 2's `(ev)`; nothing for a call without lists.
    fn arg_lists(&self, args: &[Expr], lists: &ArgLists) -> Result<String, TranslateError> {
        if lists.len() != args.len() {
            return Err(self.unsupported(format!(
                "a call with {} arguments for parameter lists of {} in all",
                args.len(),
                lists.len()
            )));
        }
        let mut out = String::new();
        let mut rest = args;
        for &n in &lists.explicit {
            let (now, later) = rest.split_at(n);
            out.push_str(&format!("({})", self.args(now)?));
            rest = later;
        }
        if lists.implicit > 0 {
            let using = match self.version {
                ScalaVersion::Scala3 => "using ",
                ScalaVersion::Scala2 => "",
            };
            out.push_str(&format!("({using}{})", self.args(rest)?));
        }
        Ok(out)
    }

    /// The qualifier before `.member`, `None` for no receiver.
    fn receiver(&self, r: &Receiver) -> Result<Option<String>, TranslateError> {
        Ok(match r {
            Receiver::None => None,
            Receiver::Static(class) => {
                self.check_qualified_name(class)?;
                Some(qualified(class))
            }
            Receiver::Expr(e) => Some(self.operand(e)?),
        })
    }

    /// `e` as the operand of a postfix form (`.m`, `*`, `: _*`), parenthesized where needed.
    fn operand(&self, e: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(e)?;
        Ok(match e {
            Expr::Lit(Lit::Str(_) | Lit::Null | Lit::Bool(_) | Lit::Char(_)) => s,
            Expr::Lit(_)
            | Expr::Lambda { .. }
            | Expr::Ref { .. }
            | Expr::Bottom(_)
            | Expr::Cast { .. }
                if !s.starts_with('(') || !s.ends_with(')') =>
            {
                format!("({s})")
            }
            _ => s,
        })
    }

    /// A literal in Scala syntax.
    fn lit(&self, lit: &Lit) -> Result<String, TranslateError> {
        LITERALS.literal(self, lit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::test_support::{self, adapt, callable, callable_lambda};
    use crate::ir::{Expr, Program, Stmt, Ty};

    /// The body line(s) of a program for `t`.
    fn body(t: ScalaTranslator, stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        test_support::body(&t, stmts)
    }

    fn both(stmts: Vec<Stmt>) -> (String, String) {
        (
            body(ScalaTranslator::SCALA3, stmts.clone()).expect("translates"),
            body(ScalaTranslator::SCALA2, stmts).expect("translates"),
        )
    }

    #[test]
    fn backquoted_operators_escape_backslashes() {
        // scalac reads escape sequences in a backquoted identifier: `:\` needs `\\`
        assert_eq!(name(":\\"), "`:\\\\`");
        assert_eq!(name("::"), "`::`");
        assert_eq!(name("type"), "`type`");
        assert_eq!(name("map"), "map");
    }

    #[test]
    fn an_experimental_program_is_an_experimental_scope_in_scala_3_only() {
        let mut p = Program::new("p7", vec![]);
        p.experimental = true;
        assert_eq!(
            ScalaTranslator::SCALA3.translate(&p).expect("translates"),
            "package thalia.p7\n\n@scala.annotation.experimental\nobject Test_p7 {\n    def test(): Unit = {\n    }\n}\n"
        );
        // Scala 2 has no `@experimental` (nor experimental definitions)
        assert!(!ScalaTranslator::SCALA2
            .translate(&p)
            .expect("translates")
            .contains("experimental"));
    }

    #[test]
    fn file_layout_and_languages() {
        let p = Program::new("p7", vec![]);
        assert_eq!(
            ScalaTranslator::SCALA3.translate(&p).expect("translates"),
            "package thalia.p7\n\nobject Test_p7 {\n    def test(): Unit = {\n    }\n}\n"
        );
        assert_eq!(
            Translator::language(&ScalaTranslator::SCALA3),
            Language::Scala3
        );
        assert_eq!(
            Translator::language(&ScalaTranslator::SCALA2),
            Language::Scala2
        );
        assert_eq!(ScalaTranslator::default(), ScalaTranslator::SCALA3);
        assert_eq!(ScalaTranslator::SCALA2.file_name(&p), "Test_p7.scala");
    }

    #[test]
    fn wildcards_per_version() {
        let t = Ty::class(
            "java.util.Map",
            vec![Ty::extends(Ty::INT), Ty::super_of(Ty::string())],
        );
        let u = Ty::class("java.util.List", vec![Ty::WildcardStar]);
        assert_eq!(
            both(vec![
                Stmt::local("m", t, Expr::null()),
                Stmt::local("l", u, Expr::null())
            ]),
            (
                "val m: java.util.Map[? <: java.lang.Integer, ? >: java.lang.String] = null\n\
                 val l: java.util.List[?] = null"
                    .to_owned(),
                "val m: java.util.Map[_ <: java.lang.Integer, _ >: java.lang.String] = null\n\
                 val l: java.util.List[_] = null"
                    .to_owned()
            )
        );
    }

    /// A call of `name` on `recv` with `args` split into `lists`.
    fn listed(recv: Expr, name: &str, targs: Vec<Ty>, args: Vec<Expr>, lists: ArgLists) -> Stmt {
        let mut call = Expr::call(Receiver::expr(recv), name, targs, args);
        if let Expr::Call { lists: l, .. } = &mut call {
            *l = Some(lists);
        }
        Stmt::expr(call)
    }

    #[test]
    fn curried_calls_and_implicit_arguments_per_version() {
        let xs = || Expr::local("xs");
        let ord = || Expr::local("ord");
        let lists = |explicit: &[usize], implicit| ArgLists {
            explicit: explicit.to_vec(),
            implicit,
            searched: 0,
        };
        let obj = || Ty::class("java.lang.Object", vec![]);
        let mut stmts: Vec<Stmt> = ["xs", "ord", "op", "f"]
            .iter()
            .map(|n| Stmt::local(*n, obj(), Expr::null()))
            .collect();
        let decls = stmts.len();
        stmts.extend([
            // `foldLeft[B](z: B)(op: (B, A) => B)`
            listed(
                xs(),
                "foldLeft",
                vec![Ty::INT],
                vec![Expr::int(0), Expr::local("op")],
                lists(&[1, 1], 0),
            ),
            // `sorted[B >: A]()(implicit ord: Ordering[B])`: an empty list, then the implicit one
            listed(xs(), "sorted", vec![Ty::INT], vec![ord()], lists(&[0], 1)),
            // `max[B >: A](implicit ord)`: one list, the implicit one
            listed(xs(), "max", vec![], vec![ord()], lists(&[], 1)),
            // `empty[A]`: no list
            Stmt::expr({
                let mut c = Expr::static_call(
                    "scala.collection.immutable.Queue",
                    "empty",
                    vec![Ty::INT],
                    vec![],
                );
                if let Expr::Call { lists: l, .. } = &mut c {
                    *l = Some(lists(&[], 0));
                }
                c
            }),
            // `iterate(start, len)(f)` with an implicit list after both
            listed(
                xs(),
                "iterate",
                vec![],
                vec![Expr::int(1), Expr::int(2), Expr::local("f"), ord()],
                lists(&[2, 1], 1),
            ),
        ]);
        let calls = |s: String| s.lines().skip(decls).collect::<Vec<_>>().join("\n");
        let (s3, s2) = both(stmts);
        assert_eq!(
            (calls(s3), calls(s2)),
            (
                "xs.foldLeft[java.lang.Integer]((0: Int))(op)\n\
                 xs.sorted[java.lang.Integer]()(using ord)\n\
                 xs.max(using ord)\n\
                 scala.collection.immutable.Queue.empty[java.lang.Integer]\n\
                 xs.iterate((1: Int), (2: Int))(f)(using ord)"
                    .to_owned(),
                "xs.foldLeft[java.lang.Integer]((0: Int))(op)\n\
                 xs.sorted[java.lang.Integer]()(ord)\n\
                 xs.max(ord)\n\
                 scala.collection.immutable.Queue.empty[java.lang.Integer]\n\
                 xs.iterate((1: Int), (2: Int))(f)(ord)"
                    .to_owned()
            )
        );
        // arguments that do not fill the lists are no program
        let bad = listed(
            Expr::null(),
            "f",
            vec![],
            vec![Expr::null()],
            lists(&[1], 1),
        );
        assert!(body(ScalaTranslator::SCALA3, vec![bad]).is_err());
    }

    #[test]
    fn varargs_spread_per_version() {
        let stmts = vec![
            Stmt::local(
                "a",
                Ty::array(Ty::string()),
                Expr::new_array(Ty::string(), vec![]),
            ),
            Stmt::expr(Expr::static_call(
                "java.util.Arrays",
                "asList",
                vec![],
                vec![Expr::Spread(Box::new(Expr::local("a")))],
            )),
            Stmt::expr(Expr::static_call(
                "java.util.Arrays",
                "asList",
                vec![],
                vec![Expr::Spread(Box::new(Expr::bottom(
                    Ty::array(Ty::string()),
                )))],
            )),
        ];
        let (s3, s2) = both(stmts);
        assert_eq!(
            s3,
            "val a: Array[java.lang.String] = Array[java.lang.String]()\n\
             java.util.Arrays.asList(a*)\n\
             java.util.Arrays.asList((null.asInstanceOf[Array[java.lang.String]])*)"
        );
        assert!(s2.contains("java.util.Arrays.asList(a: _*)"), "{s2}");
    }

    #[test]
    fn numeric_literal_arguments_are_ascribed_their_type() {
        // `toScaledBigDecimal(1.5f)` is ambiguous in Scala 3 between its `java.lang.Float`
        // and `java.lang.Double` overloads; `(1.5f: Float)` is not
        let call = Expr::static_call(
            "p.N",
            "f",
            vec![],
            vec![
                Lit::Float(1.5).into(),
                Expr::int(8),
                Lit::Long(2).into(),
                Lit::Char('c').into(),
                Lit::Double(2.5).into(),
                Expr::str("s"),
            ],
        );
        let array = Expr::NewArray {
            elem: Ty::INT,
            elems: vec![Expr::int(1)],
        };
        let (s3, s2) = both(vec![
            Stmt::expr(call),
            Stmt::local("a", Ty::array(Ty::INT), array),
        ]);
        let want = "p.N.f((1.5f: Float), (8: Int), (2L: Long), ('c': Char), 2.5d, \"s\")\n\
                    val a: Array[Int] = Array[Int](1)";
        assert_eq!((s3.as_str(), s2.as_str()), (want, want));
    }

    #[test]
    fn expressions() {
        let (s3, _) = both(vec![
            Stmt::local("i", Ty::INT, Expr::bottom(Ty::INT)),
            Stmt::local("l", Ty::LONG, Expr::cast(Ty::LONG, Expr::local("i"))),
            Stmt::local(
                "r",
                Ty::class("java.lang.Runnable", vec![]),
                Expr::lambda(vec![], Expr::unit()),
            ),
            Stmt::local(
                "f",
                Ty::class(
                    "java.util.function.BiFunction",
                    vec![Ty::INT, Ty::INT, Ty::INT],
                ),
                Expr::lambda(
                    vec![("a".into(), Some(Ty::INT)), ("b".into(), Some(Ty::INT))],
                    Expr::cond(Lit::Bool(true).into(), Expr::local("a"), Expr::local("b")),
                ),
            ),
            Stmt::local(
                "n",
                Ty::class("java.util.ArrayList", vec![Ty::string()]),
                Expr::new_instance("java.util.ArrayList", None, vec![]),
            ),
            Stmt::expr(Expr::static_field("java.lang.System", "out")),
            Stmt::expr(Expr::int(3)),
            Stmt::local(
                "type",
                Ty::string(),
                Expr::int(3).method("toString", vec![]),
            ),
        ]);
        assert_eq!(
            s3,
            "val i: Int = null.asInstanceOf[Int]\n\
             val l: Long = i.asInstanceOf[Long]\n\
             val r: java.lang.Runnable = () => ()\n\
             val f: java.util.function.BiFunction[java.lang.Integer, java.lang.Integer, java.lang.Integer] = (a: Int, b: Int) => (if (true) a else b)\n\
             val n: java.util.ArrayList[java.lang.String] = new java.util.ArrayList()\n\
             val __unused_0: Any = java.lang.System.out\n\
             val `type`: java.lang.String = (3).toString()"
        );
    }

    #[test]
    fn rejections() {
        let err = |s: Stmt| body(ScalaTranslator::SCALA3, vec![s]).is_err();
        assert!(err(Stmt::local("v", Ty::VOID, Expr::null())));
        assert!(err(Stmt::expr(Expr::bottom(Ty::VOID))));
        assert!(err(Stmt::local("w", Ty::WildcardStar, Expr::null())));
        assert!(err(Stmt::local(
            "l",
            Ty::object(),
            Expr::lambda(
                vec![("a".into(), Some(Ty::INT)), ("b".into(), None)],
                Expr::null()
            )
        )));
        assert!(err(Stmt::local(
            "f",
            Ty::Function {
                receiver: Some(Box::new(Ty::INT)),
                params: vec![],
                ret: Box::new(Ty::INT)
            },
            Expr::null()
        )));
    }

    #[test]
    fn inner_classes_are_type_projections() {
        let inner = "java.util.concurrent.locks.AbstractQueuedLongSynchronizer.ConditionObject";
        let nested = "java.util.Map.Entry";
        let mut p = Program::new(
            "t",
            vec![
                Stmt::local(
                    "a",
                    Ty::class(inner, vec![]),
                    Expr::bottom(Ty::class(inner, vec![])),
                ),
                Stmt::local(
                    "b",
                    Ty::class(nested, vec![Ty::string(), Ty::string()]),
                    Expr::null(),
                ),
            ],
        );
        p.inner_classes = vec![inner.to_string()];
        let src = ScalaTranslator::SCALA3.translate(&p).expect("translates");
        assert!(
            src.contains("val a: java.util.concurrent.locks.AbstractQueuedLongSynchronizer#ConditionObject = null.asInstanceOf[java.util.concurrent.locks.AbstractQueuedLongSynchronizer#ConditionObject]"),
            "{src}"
        );
        assert!(
            src.contains("val b: java.util.Map.Entry[java.lang.String, java.lang.String]"),
            "{src}"
        );
    }

    #[test]
    fn lambdas_without_implicit_conversion_get_their_type_ascribed() {
        assert_eq!(
            both(vec![adapt(callable_lambda(false))]).1,
            "java.util.concurrent.ForkJoinTask.adapt[java.lang.String](((() => \"a\"): java.util.concurrent.Callable[java.lang.String]))"
        );
        assert_eq!(
            both(vec![adapt(callable_lambda(true))]).1,
            "java.util.concurrent.ForkJoinTask.adapt[java.lang.String](() => \"a\")"
        );
        // a local's declared type is the lambda's expected type
        assert_eq!(
            both(vec![Stmt::local("c", callable(), callable_lambda(false))]).0,
            "val c: java.util.concurrent.Callable[java.lang.String] = () => \"a\""
        );
        // unless it has wildcards: Scala's function type would take `Any` for them
        let wild = Ty::class(
            "java.util.concurrent.Callable",
            vec![Ty::extends(Ty::string())],
        );
        assert_eq!(
            both(vec![Stmt::local("c", wild, callable_lambda(false))]).0,
            "val c: java.util.concurrent.Callable[? <: java.lang.String] = ((() => \"a\"): java.util.concurrent.Callable[java.lang.String])"
        );
    }

    #[test]
    fn blocks_casts_and_inferred_locals() {
        let f = Ty::class(
            "java.util.function.Function",
            vec![Ty::string(), Ty::class("java.lang.Integer", vec![])],
        );
        let lambda = |block: Vec<Stmt>, body: Expr, target: Option<Ty>| Expr::Lambda {
            params: vec![("a".into(), None)],
            body: Box::new(body),
            target,
            implicit: true,
            block,
            form: crate::ir::LambdaForm::Usual,
            ret: None,
        };
        // a non-call expression statement of a block gets a fresh block name
        let (s3, _) = both(vec![Stmt::local(
            "g",
            f.clone(),
            lambda(
                vec![
                    Stmt::inferred_local("n", Ty::INT, Expr::int(1)),
                    Stmt::expr(Expr::local("n")),
                ],
                Expr::local("n"),
                Some(f.clone()),
            ),
        )]);
        assert_eq!(
            s3,
            "val g: java.util.function.Function[java.lang.String, java.lang.Integer] = \
             (a) => { val n = 1; val __unused_b0: Any = n; n }"
        );
        // a cast to a wildcard type goes through the target; an inferred local without a
        // target is ascribed its meant type
        let wild = Ty::class(
            "java.util.function.Function",
            vec![
                Ty::super_of(Ty::string()),
                Ty::extends(Ty::class("java.lang.Integer", vec![])),
            ],
        );
        let (s3, s2) = both(vec![
            Stmt::local(
                "w",
                wild.clone(),
                Expr::cast(wild, lambda(vec![], Expr::int(1), Some(f.clone()))),
            ),
            Stmt::inferred_local("v", f, lambda(vec![], Expr::int(2), None)),
        ]);
        assert_eq!(
            s3,
            "val w: java.util.function.Function[? >: java.lang.String, ? <: java.lang.Integer] \
             = ((((a) => 1): java.util.function.Function[java.lang.String, java.lang.Integer]): \
             java.util.function.Function[? >: java.lang.String, ? <: java.lang.Integer])\n\
             val v = (((a) => 2): java.util.function.Function[java.lang.String, java.lang.Integer])"
        );
        assert!(s2.contains("Function[_ >: java.lang.String"), "{s2}");
    }
}
