//! Logic shared by all translators: program naming, name and scope checks, the statement walk
//! that assembles a file, small formatting helpers, and what Kotlin and Scala write alike.
//! Literals are in [`literal`], Java's syntax as Java and Groovy share it in [`java_family`].

pub(crate) mod java_family;
pub(crate) mod literal;

use std::collections::{HashMap, HashSet};

use crate::ir::{Expr, Lit, PrimTy, Program, Receiver, RefKind, RefOn, Stmt, Ty};
use crate::{Language, TranslateError};

/// What differs between languages when a program is laid out as a file. The shared driver
/// [`translate`] validates the program's names and scopes, then calls these hooks in order:
/// [`Dialect::open`], [`Dialect::stmt`] for each statement (a local's type is checked not to
/// be `void` before), [`Dialect::close`].
pub(crate) trait Dialect {
    /// The language written.
    fn language(&self) -> Language;

    /// Whether `name` is a reserved word that cannot name a local, a member or a package
    /// (none by default: Kotlin and Scala quote their keywords).
    fn is_reserved(&self, _name: &str) -> bool {
        false
    }

    /// Whether `name` is lexically an identifier (reserved words aside).
    fn is_identifier(&self, name: &str) -> bool {
        is_plain_identifier(name)
    }

    /// Writes everything before the first statement (package, class and function headers).
    fn open(&self, names: &ProgramNames, w: &mut CodeWriter);

    /// Writes one statement.
    fn stmt(&self, s: &Stmt, cx: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError>;

    /// Writes everything after the last statement: the ends of the function and the class.
    fn close(&self, w: &mut CodeWriter) {
        w.dedent();
        w.line("}");
        w.dedent();
        w.line("}");
    }

    /// Checks that `name` may be written as a (non-local) name: an identifier, not reserved.
    fn check_name(&self, name: &str) -> Result<(), TranslateError> {
        if !self.is_identifier(name) {
            Err(TranslateError::InvalidIdentifier {
                language: self.language(),
                name: name.to_owned(),
            })
        } else if self.is_reserved(name) {
            Err(TranslateError::ReservedWord {
                language: self.language(),
                name: name.to_owned(),
            })
        } else {
            Ok(())
        }
    }

    /// Checks every dot-separated segment of a qualified name.
    fn check_qualified_name(&self, name: &str) -> Result<(), TranslateError> {
        if name.is_empty() {
            return Err(TranslateError::InvalidIdentifier {
                language: self.language(),
                name: name.to_owned(),
            });
        }
        name.split('.').try_for_each(|seg| self.check_name(seg))
    }

    /// Checks that a lambda's parameters are all typed or all untyped (Java and Scala cannot
    /// mix them).
    fn check_uniform_params(&self, params: &[(String, Option<Ty>)]) -> Result<(), TranslateError> {
        let typed = params.iter().filter(|(_, t)| t.is_some()).count();
        if typed != 0 && typed != params.len() {
            return Err(self.unsupported("a lambda mixing typed and untyped parameters"));
        }
        Ok(())
    }

    /// Checks that `t`, written at position `pos`, is not a wildcard outside a type argument.
    fn check_wildcard(&self, t: &Ty, pos: TyPos) -> Result<(), TranslateError> {
        if t.is_wildcard() && pos != TyPos::Arg {
            return Err(self.unsupported("a wildcard outside a type argument"));
        }
        Ok(())
    }

    /// The error for a construct the language cannot express.
    fn unsupported(&self, what: impl Into<String>) -> TranslateError {
        TranslateError::Unsupported {
            language: self.language(),
            what: what.into(),
        }
    }
}

/// Translates `p` with dialect `d`: checks names and scopes, then walks the statements.
pub(crate) fn translate(
    d: &(impl Dialect + ?Sized),
    p: &Program,
) -> Result<String, TranslateError> {
    let names = program_names(d, &p.id)?;
    ScopeChecker::new(d, p).check(p)?;
    let mut cx = BodyCx::new(p);
    let mut w = CodeWriter::default();
    d.open(&names, &mut w);
    for s in &p.stmts {
        if let Stmt::Local { name, ty, .. } = s {
            check_local_type(name, ty)?;
        }
        d.stmt(s, &mut cx, &mut w)?;
    }
    d.close(&mut w);
    Ok(w.finish())
}

/// The package and class that hold a program's test function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProgramNames {
    /// Fully-qualified package, e.g. `thalia.p000042`.
    pub package: String,
    /// Simple class name, e.g. `Test_p000042`.
    pub class: String,
}

/// Root package of every generated program.
pub(crate) const ROOT_PACKAGE: &str = "thalia";

/// The class name for program id `id` (no validation; see [`program_names`]).
pub(crate) fn class_name(id: &str) -> String {
    format!("Test_{id}")
}

/// File name `Test_<id>.<ext>` for program id `id`.
pub(crate) fn file_name(id: &str, lang: Language) -> String {
    format!("{}.{}", class_name(id), lang.extension())
}

/// Validates the program id and derives its names: package `thalia.<id>` if the id starts with
/// a letter (`p000042` → `thalia.p000042`), else `thalia.p<id>` (`42` → `thalia.p42`); class
/// `Test_<id>`.
pub(crate) fn program_names(
    d: &(impl Dialect + ?Sized),
    id: &str,
) -> Result<ProgramNames, TranslateError> {
    let invalid = |reason| TranslateError::InvalidProgramId {
        id: id.to_owned(),
        reason,
    };
    let first = id.chars().next().ok_or_else(|| invalid("it is empty"))?;
    if !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(invalid("only ASCII letters, digits and '_' are allowed"));
    }
    let segment = if first.is_ascii_alphabetic() {
        id.to_owned()
    } else {
        format!("p{id}")
    };
    if d.is_reserved(&segment) {
        return Err(invalid("it is a reserved word of the target language"));
    }
    Ok(ProgramNames {
        package: format!("{ROOT_PACKAGE}.{segment}"),
        class: class_name(id),
    })
}

/// Whether `s` is an identifier in the common JVM sense: a letter, `_` or `$`, then letters,
/// digits, `_` or `$`.
pub(crate) fn is_plain_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Checks the program's variables: every local and lambda parameter has a valid, unreserved
/// name that is not already in scope and does not shadow the first segment of a qualified class
/// name used in the program; every reference names a variable in scope. The rules are the
/// strictest of the target languages (Java forbids shadowing locals with lambda parameters).
struct ScopeChecker<'a, D: ?Sized> {
    dialect: &'a D,
    /// First segment of a class name → one class name starting with it.
    roots: HashMap<&'a str, &'a str>,
    /// Variables in scope, innermost last.
    in_scope: Vec<&'a str>,
    /// The local whose initializer is being checked: not referable, not redeclarable.
    pending: Option<&'a str>,
}

impl<'a, D: Dialect + ?Sized> ScopeChecker<'a, D> {
    fn new(dialect: &'a D, p: &'a Program) -> Self {
        let mut roots = HashMap::new();
        let mut add = |class: &'a str| {
            let root = class.split('.').next().unwrap_or(class);
            roots.entry(root).or_insert(class);
        };
        p.walk_types(&mut |t| {
            if let Ty::Class { name, .. } = t {
                add(name);
            }
        });
        p.walk_exprs(&mut |e| match e {
            Expr::New { class, .. }
            | Expr::Call {
                receiver: Receiver::Static(class),
                ..
            }
            | Expr::Field {
                receiver: Receiver::Static(class),
                ..
            }
            | Expr::Ref {
                kind: RefKind::Static { class, .. } | RefKind::Constructor { class, .. },
                ..
            } => add(class),
            _ => {}
        });
        ScopeChecker {
            dialect,
            roots,
            in_scope: Vec::new(),
            pending: None,
        }
    }

    fn check(mut self, p: &'a Program) -> Result<(), TranslateError> {
        p.stmts.iter().try_for_each(|s| self.check_stmt(s))
    }

    /// Checks one statement; a local's name is in scope after it.
    fn check_stmt(&mut self, s: &'a Stmt) -> Result<(), TranslateError> {
        match s {
            Stmt::Local { name, init, .. } => {
                self.check_binder(name)?;
                let outer = self.pending.replace(name);
                self.check_expr(init)?;
                self.pending = outer;
                self.in_scope.push(name);
            }
            Stmt::Expr(e) => self.check_expr(e)?,
        }
        Ok(())
    }

    fn check_binder(&self, name: &str) -> Result<(), TranslateError> {
        self.dialect.check_name(name)?;
        if self.in_scope.contains(&name) || self.pending == Some(name) {
            return Err(TranslateError::DuplicateLocal {
                name: name.to_owned(),
            });
        }
        if let Some(class) = self.roots.get(name) {
            return Err(TranslateError::ShadowsQualifiedName {
                name: name.to_owned(),
                class: (*class).to_owned(),
            });
        }
        Ok(())
    }

    fn check_expr(&mut self, e: &'a Expr) -> Result<(), TranslateError> {
        match e {
            Expr::Lit(_) | Expr::Bottom(_) | Expr::Unit => Ok(()),
            Expr::Local(name) => {
                if self.in_scope.contains(&name.as_str()) {
                    Ok(())
                } else {
                    Err(TranslateError::UndeclaredLocal { name: name.clone() })
                }
            }
            Expr::New { args, outer, .. } => {
                if let Some(o) = outer {
                    self.check_expr(o)?;
                }
                args.iter().try_for_each(|a| self.check_expr(a))
            }
            Expr::Ref { kind, .. } => match kind {
                RefKind::Bound { receiver, .. }
                | RefKind::PackageFunction {
                    on: RefOn::Value(receiver),
                    ..
                } => self.check_expr(receiver),
                _ => Ok(()),
            },
            Expr::Call { receiver, args, .. } => {
                self.check_receiver(receiver)?;
                args.iter().try_for_each(|a| self.check_expr(a))
            }
            Expr::Field { receiver, .. } => self.check_receiver(receiver),
            Expr::Lambda {
                params,
                body,
                block,
                ..
            } => {
                let depth = self.in_scope.len();
                let result = params
                    .iter()
                    .try_for_each(|(name, _)| {
                        self.check_binder(name)?;
                        self.in_scope.push(name);
                        Ok(())
                    })
                    .and_then(|()| block.iter().try_for_each(|s| self.check_stmt(s)))
                    .and_then(|()| self.check_expr(body));
                self.in_scope.truncate(depth);
                result
            }
            Expr::NewArray { elems, .. } => elems.iter().try_for_each(|e| self.check_expr(e)),
            Expr::Cast { expr, .. } | Expr::Spread(expr) => self.check_expr(expr),
            Expr::Cond { cond, then, els } => {
                self.check_expr(cond)?;
                self.check_expr(then)?;
                self.check_expr(els)
            }
            Expr::Anonymous {
                super_args,
                methods,
                ..
            } => super_args
                .iter()
                .flatten()
                .try_for_each(|a| self.check_expr(a))
                .and_then(|()| {
                    methods.iter().try_for_each(|m| {
                        self.dialect.check_name(&m.name)?;
                        let depth = self.in_scope.len();
                        let result = m
                            .params
                            .iter()
                            .try_for_each(|(name, _)| {
                                self.check_binder(name)?;
                                self.in_scope.push(name);
                                Ok(())
                            })
                            .and_then(|()| self.check_expr(&m.body));
                        self.in_scope.truncate(depth);
                        result
                    })
                }),
        }
    }

    fn check_receiver(&mut self, r: &'a Receiver) -> Result<(), TranslateError> {
        match r {
            Receiver::Expr(e) => self.check_expr(e),
            Receiver::None | Receiver::Static(_) => Ok(()),
        }
    }
}

/// State of the statement walk shared across a program's statements.
#[derive(Debug, Default)]
pub(crate) struct BodyCx {
    /// Every variable name the program declares (fresh names avoid them).
    taken: HashSet<String>,
    next_fresh: usize,
}

impl BodyCx {
    /// The walk state of program `p`: every name it declares (locals, lambda parameters,
    /// the locals of lambda blocks) is taken.
    pub(crate) fn new(p: &Program) -> Self {
        let mut taken = HashSet::new();
        for s in &p.stmts {
            if let Stmt::Local { name, .. } = s {
                taken.insert(name.clone());
            }
        }
        p.walk_exprs(&mut |e| {
            if let Expr::Lambda { params, block, .. } = e {
                taken.extend(params.iter().map(|(n, _)| n.clone()));
                taken.extend(block.iter().filter_map(|s| match s {
                    Stmt::Local { name, .. } => Some(name.clone()),
                    Stmt::Expr(_) => None,
                }));
            }
        });
        BodyCx {
            taken,
            next_fresh: 0,
        }
    }

    /// Reserves `name` (an alias or other name the translation declares); false if it is
    /// already taken.
    pub(crate) fn take(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_owned())
    }

    /// A new variable name `<stem><n>` that clashes with no variable of the program.
    pub(crate) fn fresh(&mut self, stem: &str) -> String {
        loop {
            let name = format!("{stem}{}", self.next_fresh);
            self.next_fresh += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// An indentation-aware line buffer.
#[derive(Debug, Default)]
pub(crate) struct CodeWriter {
    buf: String,
    depth: usize,
}

impl CodeWriter {
    /// Unit of indentation.
    const INDENT: &'static str = "    ";

    /// Writes one line at the current indentation (an empty `s` writes an empty line).
    pub(crate) fn line(&mut self, s: &str) {
        if !s.is_empty() {
            for _ in 0..self.depth {
                self.buf.push_str(Self::INDENT);
            }
            self.buf.push_str(s);
        }
        self.buf.push('\n');
    }

    /// Increases the indentation of the following lines.
    pub(crate) fn indent(&mut self) {
        self.depth += 1;
    }

    /// Decreases the indentation of the following lines.
    pub(crate) fn dedent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The text written so far.
    pub(crate) fn finish(self) -> String {
        self.buf
    }
}

/// True when `s` is one parenthesized expression: `(a as T)`, not `(a).b()` nor `(a) + (b)`.
pub(crate) fn is_parenthesized(s: &str) -> bool {
    if !s.starts_with('(') || !s.ends_with(')') {
        return false;
    }
    // the opening parenthesis closes at the end; quotes may hold parentheses
    let mut depth = 0usize;
    let mut in_str: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                in_str = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => in_str = Some(c),
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1 == s.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// Maps each item with `f` and joins the results with `", "`.
pub(crate) fn comma_separated<T>(
    items: &[T],
    f: impl Fn(&T) -> Result<String, TranslateError>,
) -> Result<String, TranslateError> {
    Ok(items
        .iter()
        .map(f)
        .collect::<Result<Vec<_>, _>>()?
        .join(", "))
}

/// `items` mapped with `f`, comma-separated between `open` and `close` (`<A, B>`, `[A, B]`);
/// nothing at all if there are no items.
pub(crate) fn bracketed<T>(
    items: &[T],
    open: &str,
    close: &str,
    f: impl Fn(&T) -> Result<String, TranslateError>,
) -> Result<String, TranslateError> {
    Ok(if items.is_empty() {
        String::new()
    } else {
        format!("{open}{}{close}", comma_separated(items, f)?)
    })
}

/// Name stem of the locals that hold values of expression statements.
pub(crate) const UNUSED_STEM: &str = "__unused_";

/// Name stem of the locals that hold values of expression statements in lambda blocks
/// (distinct from [`UNUSED_STEM`]: the two are numbered apart).
pub(crate) const BLOCK_UNUSED_STEM: &str = "__unused_b";

/// Where a type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TyPos {
    /// A value's type: local declaration, cast, array element, lambda parameter.
    Value,
    /// A type argument (wildcards allowed, primitives boxed).
    Arg,
}

/// Checks that local `name` may be declared with type `ty` (not `void`).
fn check_local_type(name: &str, ty: &Ty) -> Result<(), TranslateError> {
    if matches!(ty, Ty::Prim(PrimTy::Void)) {
        return Err(TranslateError::VoidLocal {
            name: name.to_owned(),
        });
    }
    Ok(())
}

/// Writes the lines before the first statement: `header` (package, class), then the test
/// function's header line `function`, each indented one level more.
pub(crate) fn open_test(w: &mut CodeWriter, header: &[&str], function: &str) {
    for line in header {
        w.line(line);
    }
    w.indent();
    w.line(function);
    w.indent();
}

/// Writes Kotlin's and Scala's lines before the first statement: the package (each segment
/// written by `segment`), the object (after its `annotation` line, if any) and the test
/// function's header `function`.
pub(crate) fn open_object(
    w: &mut CodeWriter,
    names: &ProgramNames,
    segment: impl Fn(&str) -> String,
    annotation: Option<&str>,
    function: &str,
) {
    let package = format!("package {}", qualified(&names.package, segment));
    let object = format!("object {} {{", names.class);
    let mut header = vec![package.as_str(), ""];
    header.extend(annotation);
    header.push(&object);
    open_test(w, &header, function);
}

/// Kotlin's and Scala's name of a primitive type (`Unit` for `void`).
pub(crate) fn prim_name(p: PrimTy) -> &'static str {
    match p {
        PrimTy::Boolean => "Boolean",
        PrimTy::Byte => "Byte",
        PrimTy::Char => "Char",
        PrimTy::Short => "Short",
        PrimTy::Int => "Int",
        PrimTy::Long => "Long",
        PrimTy::Float => "Float",
        PrimTy::Double => "Double",
        PrimTy::Void => "Unit",
    }
}

/// A dot-separated qualified name with each segment written by `segment` (Kotlin and Scala
/// quote keywords with backticks).
pub(crate) fn qualified(n: &str, segment: impl Fn(&str) -> String) -> String {
    n.split('.').map(segment).collect::<Vec<_>>().join(".")
}

/// `n`, quoted with backticks if `quote` (Kotlin's and Scala's way to use keywords as names).
pub(crate) fn backquoted_if(n: &str, quote: bool) -> String {
    if quote {
        format!("`{n}`")
    } else {
        n.to_owned()
    }
}

/// Writes a statement in Kotlin or Scala (see [`val_stmt_text`]) as one line.
pub(crate) fn val_stmt(
    s: &Stmt,
    top: &str,
    cx: &mut BodyCx,
    w: &mut CodeWriter,
    local: impl FnOnce(&str, &Ty, &Expr, bool) -> Result<LocalParts, TranslateError>,
    expr: impl Fn(&Expr) -> Result<String, TranslateError>,
    lit: impl Fn(&Lit) -> Result<String, TranslateError>,
) -> Result<(), TranslateError> {
    if let Some(line) = val_stmt_text(s, top, || cx.fresh(UNUSED_STEM), local, expr, lit)? {
        w.line(&line);
    }
    Ok(())
}

/// A Kotlin or Scala local as `local` spells it: the quoted name, the declared type (`None`
/// for a local declared without one) and the initializer.
pub(crate) type LocalParts = (String, Option<String>, String);

/// The text of a statement in Kotlin or Scala, `None` for none: a local as `val x: T = init`
/// (`val x = init` when it is [`Stmt::Local::inferred`]), `local` giving the quoted name,
/// the type and the initializer from the name, type, initializer and `inferred`; an
/// expression statement that is a call or `new` as it is; a literal statement dropped after
/// checking it can be written; any other expression bound to a fresh `val <fresh()>: <top> =
/// e`, `top` being the language's top type (`fresh` is called after `e` is written).
pub(crate) fn val_stmt_text(
    s: &Stmt,
    top: &str,
    fresh: impl FnOnce() -> String,
    local: impl FnOnce(&str, &Ty, &Expr, bool) -> Result<LocalParts, TranslateError>,
    expr: impl Fn(&Expr) -> Result<String, TranslateError>,
    lit: impl Fn(&Lit) -> Result<String, TranslateError>,
) -> Result<Option<String>, TranslateError> {
    Ok(match s {
        Stmt::Local {
            name,
            ty,
            init,
            inferred,
        } => Some(match local(name, ty, init, *inferred)? {
            (name, Some(ty), init) => format!("val {name}: {ty} = {init}"),
            (name, None, init) => format!("val {name} = {init}"),
        }),
        Stmt::Expr(e @ (Expr::Call { .. } | Expr::New { .. })) => Some(expr(e)?),
        Stmt::Expr(Expr::Lit(l)) => {
            lit(l)?;
            None
        }
        Stmt::Expr(e) => {
            let e = expr(e)?;
            Some(format!("val {}: {top} = {e}", fresh()))
        }
    })
}

/// Kotlin's and Scala's conditional expression, `(if (c) a else b)`.
pub(crate) fn if_else(
    cond: &Expr,
    then: &Expr,
    els: &Expr,
    expr: impl Fn(&Expr) -> Result<String, TranslateError>,
) -> Result<String, TranslateError> {
    Ok(format!(
        "(if ({}) {} else {})",
        expr(cond)?,
        expr(then)?,
        expr(els)?
    ))
}

/// Kotlin's and Scala's lambda parameters, `a: T, b`: names written by `name`, types by `ty`.
pub(crate) fn colon_params(
    params: &[(String, Option<Ty>)],
    name: impl Fn(&str) -> String,
    ty: impl Fn(&Ty) -> Result<String, TranslateError>,
) -> Result<String, TranslateError> {
    comma_separated(params, |(n, t)| match t {
        Some(t) => Ok(format!("{}: {}", name(n), ty(t)?)),
        None => Ok(name(n)),
    })
}

/// The parameter list and result of a Kotlin or Scala function type: the types written by
/// `ty`, comma-separated, and the result (`Unit` for `void`).
pub(crate) fn function_type_parts(
    params: &[Ty],
    ret: &Ty,
    ty: impl Fn(&Ty) -> Result<String, TranslateError>,
) -> Result<(String, String), TranslateError> {
    let params = comma_separated(params, &ty)?;
    let ret = match ret {
        Ty::Prim(PrimTy::Void) => "Unit".to_owned(),
        r => ty(r)?,
    };
    Ok((params, ret))
}

/// Helpers of the translators' unit tests.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::ir::{Expr, LambdaForm, Program, Stmt, Ty};
    use crate::{TranslateError, Translator};

    /// The statement lines of the translation of a program of `stmts` by `t`, trimmed: the
    /// lines after the test function's header (the second line that opens a block) but for
    /// the two closing braces.
    pub(crate) fn body(t: &dyn Translator, stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        let src = t.translate(&Program::new("t", stmts))?;
        let lines: Vec<&str> = src.lines().collect();
        let start = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.ends_with('{'))
            .nth(1)
            .map_or(lines.len(), |(i, _)| i + 1);
        let end = lines.len().saturating_sub(2).max(start);
        Ok(lines[start..end]
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `java.util.concurrent.Callable<java.lang.String>`.
    pub(crate) fn callable() -> Ty {
        Ty::class("java.util.concurrent.Callable", vec![Ty::string()])
    }

    /// The lambda `() -> "a"` for [`callable`], whose position converts it implicitly or not.
    pub(crate) fn callable_lambda(implicit: bool) -> Expr {
        Expr::Lambda {
            params: vec![],
            body: Box::new(Expr::str("a")),
            target: Some(callable()),
            implicit,
            block: Vec::new(),
            form: LambdaForm::Usual,
            ret: None,
        }
    }

    /// The statement `java.util.concurrent.ForkJoinTask.<String>adapt(l)`.
    pub(crate) fn adapt(l: Expr) -> Stmt {
        Stmt::expr(Expr::static_call(
            "java.util.concurrent.ForkJoinTask",
            "adapt",
            vec![Ty::string()],
            vec![l],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Stmt, Ty};

    struct Plain;

    impl Dialect for Plain {
        fn language(&self) -> Language {
            Language::Java
        }
        fn is_reserved(&self, name: &str) -> bool {
            name == "int"
        }
        fn open(&self, _: &ProgramNames, _: &mut CodeWriter) {}
        fn stmt(&self, _: &Stmt, _: &mut BodyCx, _: &mut CodeWriter) -> Result<(), TranslateError> {
            Ok(())
        }
    }

    fn check(stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        translate(&Plain, &Program::new("t", stmts))
    }

    #[test]
    fn program_ids_map_to_packages() {
        let names = program_names(&Plain, "p000042").expect("valid");
        assert_eq!(names.package, "thalia.p000042");
        assert_eq!(names.class, "Test_p000042");
        assert_eq!(
            program_names(&Plain, "42").expect("valid").package,
            "thalia.p42"
        );
        for bad in ["", "a-b", "a.b", "é", "int"] {
            assert!(
                matches!(
                    program_names(&Plain, bad),
                    Err(TranslateError::InvalidProgramId { .. })
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn scopes_are_checked() {
        let obj = Ty::object();
        let x = || Stmt::local("x", Ty::object(), Expr::null());
        assert!(check(vec![x(), Stmt::expr(Expr::local("x"))]).is_ok());
        assert_eq!(
            check(vec![x(), x()]),
            Err(TranslateError::DuplicateLocal { name: "x".into() })
        );
        assert_eq!(
            check(vec![Stmt::local("y", obj.clone(), Expr::local("y"))]),
            Err(TranslateError::UndeclaredLocal { name: "y".into() })
        );
        assert_eq!(
            check(vec![Stmt::expr(Expr::local("z"))]),
            Err(TranslateError::UndeclaredLocal { name: "z".into() })
        );
        let lam = |p: &str, body| Expr::lambda(vec![(p.into(), None)], body);
        // A lambda parameter may not shadow a local, nor the local being initialized.
        assert!(matches!(
            check(vec![x(), Stmt::expr(lam("x", Expr::null()))]),
            Err(TranslateError::DuplicateLocal { .. })
        ));
        assert!(matches!(
            check(vec![Stmt::local("a", obj.clone(), lam("a", Expr::null()))]),
            Err(TranslateError::DuplicateLocal { .. })
        ));
        // Its scope ends with the lambda.
        assert!(check(vec![
            Stmt::local("a", obj.clone(), lam("b", Expr::local("b"))),
            Stmt::local("b", obj.clone(), Expr::null()),
        ])
        .is_ok());
        assert!(matches!(
            check(vec![
                Stmt::local("a", obj.clone(), lam("b", Expr::null())),
                Stmt::expr(Expr::local("b"))
            ]),
            Err(TranslateError::UndeclaredLocal { .. })
        ));
        assert!(matches!(
            check(vec![Stmt::local("int", obj.clone(), Expr::null())]),
            Err(TranslateError::ReservedWord { .. })
        ));
        assert!(matches!(
            check(vec![Stmt::local("a b", obj.clone(), Expr::null())]),
            Err(TranslateError::InvalidIdentifier { .. })
        ));
        assert_eq!(
            check(vec![Stmt::local("java", obj, Expr::null())]),
            Err(TranslateError::ShadowsQualifiedName {
                name: "java".into(),
                class: "java.lang.Object".into()
            })
        );
    }

    #[test]
    fn fresh_names_avoid_program_names() {
        let p = Program::new(
            "t",
            vec![Stmt::local(
                "u0",
                Ty::object(),
                Expr::lambda(vec![("u1".into(), None)], Expr::null()),
            )],
        );
        let mut cx = BodyCx::new(&p);
        assert_eq!(cx.fresh("u"), "u2");
        assert_eq!(cx.fresh("u"), "u3");
    }
}
