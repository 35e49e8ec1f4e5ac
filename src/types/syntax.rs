//! Parsers for the type strings of thalia's API JSON, in Java, Kotlin and Scala syntax.
//!
//! Grammar accepted (whitespace is free between tokens):
//!
//! * Java: `int`, `a.b.C<X,? extends Y,? super Z,?>`, `T[]`, parameters `T...`,
//!   type parameters `T extends A & B`.
//! * Kotlin: `a.b.C<out X, in Y, *>`, `T?`, `(A, B) -> R`, `R.(A) -> B`, `suspend () -> R`,
//!   parameters `vararg T`, type parameters `reified out T : Bound`.
//! * Scala: `a.b.C[X, Y]`, `scala.<:<[A, B]`, `(A, B) => R`, `A => B`, `=> T`, tuples `(A, B)`,
//!   wildcards `_ <: T` / `? >: T` / `_`, parameters `T*`, type parameters `+A >: L <: U`.
//!
//! A bare name is a type variable when it is in scope, a Java primitive keyword in Java
//! syntax, and otherwise a class name.

use std::fmt;
use std::str::FromStr;

use super::arena::{Prim, TypeArena, TypeId, VarId, Variance, Wildcard};

/// The three type-string syntaxes of thalia's API JSON (the file's `language`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Syntax {
    /// Java's: `java.util.List<? extends T>`, `int[]`.
    Java,
    /// Kotlin's: `kotlin.collections.List<out T>`, `T?`, `(A) -> R`.
    Kotlin,
    /// Scala's: `scala.collection.immutable.List[_ <: T]`, `=> T`.
    Scala,
}

impl Syntax {
    /// All syntaxes.
    pub const ALL: [Syntax; 3] = [Syntax::Java, Syntax::Kotlin, Syntax::Scala];

    /// The `language` value of API JSON files in this syntax.
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Java => "java",
            Syntax::Kotlin => "kotlin",
            Syntax::Scala => "scala",
        }
    }
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Syntax {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "java" | "groovy" => Ok(Syntax::Java),
            "kotlin" => Ok(Syntax::Kotlin),
            "scala" => Ok(Syntax::Scala),
            other => Err(format!(
                "unknown type syntax `{other}` (expected java, kotlin or scala)"
            )),
        }
    }
}

/// Deepest nesting a type string may have: type arguments, wildcards, function types,
/// nullability and array dimensions each count one level (`java.util.List<int[]>` has
/// depth 2). Real APIs stay below 10; a deeper type string is a [`ParseError`]. Bounding
/// it here bounds every later recursive traversal of a parsed type.
pub const MAX_TYPE_DEPTH: usize = 256;

/// Most array dimensions a type may have: the JVM's limit (JVMS 4.3.2). More is a
/// [`ParseError`].
pub const MAX_ARRAY_DIMENSIONS: usize = 255;

/// Most characters of an offending text that messages show (longer texts are elided in the
/// middle; the full text stays in [`ParseError::text`]).
pub const MAX_SHOWN_CHARS: usize = 160;

/// The name of Scala 3's context function classes but their arity (`scala.ContextFunction1`
/// of `A ?=> B`), the type a Scala `?=>` is read as.
pub const CONTEXT_FUNCTION: &str = "scala.ContextFunction";

/// `text`, or its start and end around ` … ` when longer than [`MAX_SHOWN_CHARS`].
pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
    let n = text.chars().count();
    if n <= MAX_SHOWN_CHARS {
        return text.into();
    }
    let head: String = text.chars().take(MAX_SHOWN_CHARS / 2).collect();
    let tail: String = text.chars().skip(n - MAX_SHOWN_CHARS / 4).collect();
    format!("{head} … {tail} ({n} characters)").into()
}

/// A type string that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot parse {syntax} type `{}` at column {column}: {message}",
    shorten(text)
)]
pub struct ParseError {
    /// The offending text.
    pub text: String,
    /// The syntax it was parsed in.
    pub syntax: Syntax,
    /// 1-based column of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A parsed parameter type: the type and whether it is variadic (`T...`, `vararg T`, `T*`).
///
/// For a variadic parameter `ty` is the array type `T[]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParamType {
    /// The parameter's type (an array for varargs).
    pub ty: TypeId,
    /// True for a variadic parameter.
    pub vararg: bool,
}

/// The head of a type-parameter declaration: its name and modifiers, bounds still as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeParamHead {
    /// The variable's name.
    pub name: String,
    /// Declared variance.
    pub variance: Variance,
    /// Kotlin `reified`.
    pub reified: bool,
    /// Scala higher-kinded parameter (`CC[_]`, `F[X] <: Seq[X]`).
    pub higher_kinded: bool,
    /// A higher-kinded parameter's own parameters' variances, when each is a plain name or
    /// `_` (see [`crate::types::TypeVar::constructor_params`]).
    pub constructor_params: Vec<Variance>,
}

/// Parses a type string.
pub fn parse_type(
    arena: &mut TypeArena,
    syntax: Syntax,
    text: &str,
    scope: &[VarId],
) -> Result<TypeId, ParseError> {
    let mut p = Parser::new(arena, syntax, text, scope);
    let t = p.ty()?;
    p.end()?;
    p.check_bounds(t)?;
    Ok(t)
}

/// Parses a parameter type string, recognising varargs.
pub fn parse_param(
    arena: &mut TypeArena,
    syntax: Syntax,
    text: &str,
    scope: &[VarId],
) -> Result<ParamType, ParseError> {
    let mut p = Parser::new(arena, syntax, text, scope);
    p.ws();
    let kotlin_vararg = syntax == Syntax::Kotlin && p.eat_word("vararg");
    let t = p.ty()?;
    p.ws();
    let suffix_vararg = match syntax {
        Syntax::Java => p.eat("..."),
        Syntax::Scala => p.eat("*"),
        Syntax::Kotlin => false,
    };
    p.end()?;
    if kotlin_vararg || suffix_vararg {
        let ty = p.arena.array(t);
        p.check_bounds(ty)?;
        Ok(ParamType { ty, vararg: true })
    } else {
        p.check_bounds(t)?;
        Ok(ParamType {
            ty: t,
            vararg: false,
        })
    }
}

/// Reads the name and modifiers of a type-parameter declaration without parsing its bounds.
pub fn parse_type_param_head(syntax: Syntax, text: &str) -> Result<TypeParamHead, ParseError> {
    let mut scratch = TypeArena::default();
    let mut p = Parser::new(&mut scratch, syntax, text, &[]);
    p.type_param_head()
}

/// Parses a type-parameter declaration into the already declared variable `var`, setting its
/// bounds and variance. `scope` must contain `var` itself (bounds may be recursive).
pub fn parse_type_param(
    arena: &mut TypeArena,
    syntax: Syntax,
    text: &str,
    var: VarId,
    scope: &[VarId],
) -> Result<(), ParseError> {
    let mut p = Parser::new(arena, syntax, text, scope);
    let head = p.type_param_head()?;
    let mut upper = Vec::new();
    let mut lower = None;
    p.ws();
    if head.higher_kinded {
        // a constructor's bounds name its own parameters (`CC[X] <: Seq[X]`): not kept, and
        // the constructor is then not plain
        let bounded = !p.rest().trim().is_empty();
        let decl = arena.var_mut(var);
        decl.variance = head.variance;
        decl.higher_kinded = true;
        decl.constructor_params = if bounded {
            Vec::new()
        } else {
            head.constructor_params
        };
        return Ok(());
    }
    match syntax {
        Syntax::Java => {
            if p.eat_word("extends") {
                upper.push(p.ty()?);
                p.ws();
                while p.eat("&") {
                    upper.push(p.ty()?);
                    p.ws();
                }
            }
        }
        Syntax::Kotlin => {
            if p.eat(":") {
                upper.push(p.ty()?);
            }
        }
        Syntax::Scala => {
            if p.eat(">:") {
                lower = Some(p.ty()?);
                p.ws();
            }
            if p.eat("<:") {
                // an intersection (`C <: BitSet & BitSetOps[C]`) is each part a bound
                upper.push(p.ty()?);
                p.ws();
                while p.eat("&") {
                    upper.push(p.ty()?);
                    p.ws();
                }
            }
        }
    }
    p.end()?;
    for &b in upper.iter().chain(&lower) {
        p.check_bounds(b)?;
    }
    let not_null = syntax == Syntax::Kotlin
        && upper
            .iter()
            .any(|&b| !matches!(arena.get(b), super::Type::Nullable(_)));
    let decl = arena.var_mut(var);
    decl.upper = upper;
    decl.lower = lower;
    decl.variance = head.variance;
    decl.reified = head.reified;
    decl.not_null = not_null;
    Ok(())
}

/// The variances of a constructor parameter's own parameters (`+_, X` of `F[+_, X]`); empty
/// unless each is a plain name or `_` with an optional variance.
fn plain_constructor_params(inner: &str) -> Vec<Variance> {
    let mut out = Vec::new();
    for part in inner.split(',') {
        let part = part.trim();
        let (variance, name) = if let Some(n) = part.strip_prefix('+') {
            (Variance::Covariant, n)
        } else if let Some(n) = part.strip_prefix('-') {
            (Variance::Contravariant, n)
        } else {
            (Variance::Invariant, part)
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c == '_' || c == '$' || c.is_alphanumeric())
        {
            return Vec::new();
        }
        out.push(variance);
    }
    out
}

struct Parser<'a> {
    arena: &'a mut TypeArena,
    syntax: Syntax,
    text: &'a str,
    pos: usize,
    scope: &'a [VarId],
    /// Types being parsed around the current position (recursion depth).
    depth: usize,
}

const SCALA_OP_CHARS: &str = "<>:=+-*/!#%&|^~?@\\";

impl<'a> Parser<'a> {
    fn new(arena: &'a mut TypeArena, syntax: Syntax, text: &'a str, scope: &'a [VarId]) -> Self {
        Parser {
            arena,
            syntax,
            text,
            pos: 0,
            scope,
            depth: 0,
        }
    }

    /// Runs `f` one nesting level deeper; past [`MAX_TYPE_DEPTH`] it is an error, so that
    /// hostile input cannot drive the recursion (or any later one) deeper.
    fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        // a type of depth d takes d + 1 nested calls (its innermost atom is one)
        if self.depth > MAX_TYPE_DEPTH {
            return self.err(format!(
                "type nested deeper than {MAX_TYPE_DEPTH} levels (the limit of thalia's parser)"
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Checks a parsed type against [`MAX_TYPE_DEPTH`] and [`MAX_ARRAY_DIMENSIONS`].
    fn check_bounds(&self, t: TypeId) -> Result<(), ParseError> {
        let dims = self.arena.array_dims(t);
        if dims > MAX_ARRAY_DIMENSIONS {
            return self.err(format!(
                "array type with {dims} dimensions (the JVM allows at most {MAX_ARRAY_DIMENSIONS})"
            ));
        }
        let depth = self.arena.depth(t);
        if depth > MAX_TYPE_DEPTH {
            return self.err(format!(
                "type nested {depth} levels deep (the limit of thalia's parser is {MAX_TYPE_DEPTH})"
            ));
        }
        Ok(())
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            text: self.text.to_string(),
            syntax: self.syntax,
            column: self.text[..self.pos].chars().count() + 1,
            message: message.into(),
        })
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }

    fn peek_char(&mut self) -> Option<char> {
        self.ws();
        self.rest().chars().next()
    }

    /// Consumes `tok` (after whitespace) if it is next.
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.rest().starts_with(tok) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &str) -> Result<(), ParseError> {
        if self.eat(tok) {
            Ok(())
        } else {
            let found = self
                .rest()
                .chars()
                .next()
                .map_or("end of text".to_string(), |c| format!("`{c}`"));
            self.err(format!("expected `{tok}`, found {found}"))
        }
    }

    fn peek_word(&mut self, word: &str) -> bool {
        self.ws();
        let r = self.rest();
        r.starts_with(word)
            && !r[word.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
    }

    /// Consumes a keyword followed by a non-identifier character.
    fn eat_word(&mut self, word: &str) -> bool {
        if self.peek_word(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn end(&mut self) -> Result<(), ParseError> {
        self.ws();
        if self.pos < self.text.len() {
            self.err(format!("unexpected `{}`", shorten(self.rest())))
        } else {
            Ok(())
        }
    }

    /// An alphanumeric identifier or a backquoted one.
    fn ident(&mut self) -> Option<String> {
        self.ws();
        let r = self.rest();
        if let Some(stripped) = r.strip_prefix('`') {
            let end = stripped.find('`')?;
            let id = stripped[..end].to_string();
            self.pos += end + 2;
            return Some(id);
        }
        let mut chars = r.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_alphabetic() || c == '_' || c == '$' => {}
            _ => return None,
        }
        let end = chars
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .map_or(r.len(), |(i, _)| i);
        self.pos += end;
        Some(r[..end].to_string())
    }

    /// Skips a bracketed list (`[_]`, `[X[_], +Y]`) at the current position.
    fn skip_brackets(&mut self) -> Result<(), ParseError> {
        let mut depth = 0usize;
        for (i, c) in self.rest().char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += i + 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        self.err("unclosed `[`")
    }

    /// A Scala operator identifier such as `<:<`.
    fn op_ident(&mut self) -> Option<String> {
        self.ws();
        let r = self.rest();
        let end = r
            .char_indices()
            .find(|&(_, c)| !SCALA_OP_CHARS.contains(c))
            .map_or(r.len(), |(i, _)| i);
        if end == 0 {
            return None;
        }
        self.pos += end;
        Some(r[..end].to_string())
    }

    fn type_param_head(&mut self) -> Result<TypeParamHead, ParseError> {
        let mut variance = Variance::Invariant;
        let mut reified = false;
        match self.syntax {
            Syntax::Java => {}
            Syntax::Kotlin => loop {
                if self.eat_word("reified") {
                    reified = true;
                } else if self.eat_word("out") {
                    variance = Variance::Covariant;
                } else if self.eat_word("in") {
                    variance = Variance::Contravariant;
                } else {
                    break;
                }
            },
            Syntax::Scala => {
                if self.eat("+") {
                    variance = Variance::Covariant;
                } else if self.eat("-") {
                    variance = Variance::Contravariant;
                }
            }
        }
        let Some(name) = self.ident() else {
            return self.err("expected a type-parameter name");
        };
        let mut higher_kinded = false;
        let mut constructor_params = Vec::new();
        if self.syntax == Syntax::Scala && self.peek_char() == Some('[') {
            // its own parameters (`[_]`, `[X]`, `[+X, Y[_]]`) are not declared as variables:
            // only their variances are kept, when each is a plain name
            let start = self.pos;
            self.skip_brackets()?;
            higher_kinded = true;
            constructor_params = plain_constructor_params(&self.text[start + 1..self.pos - 1]);
        }
        Ok(TypeParamHead {
            name,
            variance,
            reified,
            higher_kinded,
            constructor_params,
        })
    }

    fn ty(&mut self) -> Result<TypeId, ParseError> {
        match self.syntax {
            Syntax::Java => self.java_type(),
            Syntax::Kotlin => self.kotlin_type(),
            Syntax::Scala => self.scala_type(),
        }
    }

    // ---- names ----------------------------------------------------------------------------

    /// A dotted name; stops before `.(` (Kotlin receiver function types).
    fn qualified_name(&mut self) -> Result<String, ParseError> {
        let Some(first) = self.ident() else {
            let found = self
                .rest()
                .chars()
                .next()
                .map_or("end of text".to_string(), |c| format!("`{c}`"));
            return self.err(format!("expected a type, found {found}"));
        };
        let mut name = first;
        loop {
            self.ws();
            let r = self.rest();
            if !r.starts_with('.') || r.starts_with("...") {
                break;
            }
            let save = self.pos;
            self.pos += 1;
            if let Some(seg) = self.ident() {
                name.push('.');
                name.push_str(&seg);
            } else if self.syntax == Syntax::Scala {
                match self.op_ident() {
                    Some(seg) => {
                        name.push('.');
                        name.push_str(&seg);
                    }
                    None => {
                        self.pos = save;
                        break;
                    }
                }
            } else {
                self.pos = save;
                break;
            }
        }
        Ok(name)
    }

    /// Resolves a name to a type variable in scope, a primitive, or a class.
    fn named(&mut self, name: &str, args: Vec<TypeId>) -> Result<TypeId, ParseError> {
        if !name.contains('.') {
            if let Some(&v) = self
                .scope
                .iter()
                .rev()
                .find(|&&v| self.arena.var_name(v) == name)
            {
                if !args.is_empty() {
                    if self.arena.var(v).higher_kinded {
                        return Ok(self.arena.applied(v, &args));
                    }
                    return self.err(format!(
                        "type variable `{name}` of kind `*` applied to type arguments"
                    ));
                }
                return Ok(self.arena.var_type(v));
            }
            if self.syntax == Syntax::Java {
                if let Some(p) = Prim::from_keyword(name) {
                    if !args.is_empty() {
                        return self.err(format!("primitive `{name}` has type arguments"));
                    }
                    return Ok(self.arena.prim(p));
                }
            }
        }
        Ok(self.arena.class_named(name, &args))
    }

    // ---- Java -----------------------------------------------------------------------------

    fn java_type(&mut self) -> Result<TypeId, ParseError> {
        self.nested(Self::java_type_inner)
    }

    fn java_type_inner(&mut self) -> Result<TypeId, ParseError> {
        let name = self.qualified_name()?;
        let mut args = Vec::new();
        if self.eat("<") {
            loop {
                args.push(self.java_arg()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(">")?;
            self.ws();
            if self.rest().starts_with('.') && !self.rest().starts_with("...") {
                return self.err(
                    "member type of a parameterized type (`Outer<A>.Inner`) is not supported",
                );
            }
        }
        let mut t = self.named(&name, args)?;
        let mut dims = 0;
        while self.eat("[") {
            self.expect("]")?;
            dims += 1;
            if dims > MAX_ARRAY_DIMENSIONS {
                return self.err(format!(
                    "array type with more than {MAX_ARRAY_DIMENSIONS} dimensions (the JVM's limit)"
                ));
            }
            t = self.arena.array(t);
        }
        Ok(t)
    }

    fn java_arg(&mut self) -> Result<TypeId, ParseError> {
        if self.eat("?") {
            let w = if self.eat_word("extends") {
                Wildcard::Extends(self.java_type()?)
            } else if self.eat_word("super") {
                Wildcard::Super(self.java_type()?)
            } else {
                Wildcard::Star
            };
            return Ok(self.arena.wildcard(w));
        }
        self.java_type()
    }

    // ---- Kotlin ---------------------------------------------------------------------------

    fn kotlin_type(&mut self) -> Result<TypeId, ParseError> {
        self.nested(Self::kotlin_type_inner)
    }

    fn kotlin_type_inner(&mut self) -> Result<TypeId, ParseError> {
        let suspend = self.eat_word("suspend");
        if self.peek_char() == Some('(') {
            let save = self.pos;
            let list = self.kotlin_paren_list()?;
            if self.eat("->") {
                let ret = self.kotlin_type()?;
                return Ok(self.arena.function(None, &list, ret, suspend));
            }
            if list.len() != 1 {
                self.pos = save;
                return self.err("expected `->` after a parameter list");
            }
            let t = self.kotlin_nullable_suffix(list[0]);
            return self.kotlin_receiver_fn(t, suspend);
        }
        let name = self.qualified_name()?;
        let mut args = Vec::new();
        if self.eat("<") {
            loop {
                args.push(self.kotlin_arg()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(">")?;
        }
        let t = self.named(&name, args)?;
        let t = self.kotlin_nullable_suffix(t);
        self.kotlin_receiver_fn(t, suspend)
    }

    fn kotlin_nullable_suffix(&mut self, mut t: TypeId) -> TypeId {
        while self.eat("?") {
            t = self.arena.nullable(t);
        }
        t
    }

    /// `R.(A) -> B` after the receiver `R` was parsed.
    fn kotlin_receiver_fn(&mut self, recv: TypeId, suspend: bool) -> Result<TypeId, ParseError> {
        self.ws();
        if self.rest().starts_with('.') {
            self.pos += 1;
            if self.peek_char() != Some('(') {
                return self.err("expected `(` of a receiver function type");
            }
            let params = self.kotlin_paren_list()?;
            self.expect("->")?;
            let ret = self.kotlin_type()?;
            return Ok(self.arena.function(Some(recv), &params, ret, suspend));
        }
        if suspend {
            return self.err("`suspend` applies only to function types");
        }
        Ok(recv)
    }

    /// `(T, name: U, ...)`.
    fn kotlin_paren_list(&mut self) -> Result<Vec<TypeId>, ParseError> {
        self.expect("(")?;
        let mut out = Vec::new();
        if self.eat(")") {
            return Ok(out);
        }
        loop {
            // optional parameter name `x: T`
            let save = self.pos;
            if self.ident().is_some() && self.eat(":") {
            } else {
                self.pos = save;
            }
            out.push(self.kotlin_type()?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")")?;
        Ok(out)
    }

    fn kotlin_arg(&mut self) -> Result<TypeId, ParseError> {
        if self.eat("*") {
            return Ok(self.arena.wildcard(Wildcard::Star));
        }
        if self.eat_word("out") {
            let t = self.kotlin_type()?;
            return Ok(self.arena.wildcard(Wildcard::Extends(t)));
        }
        if self.eat_word("in") {
            let t = self.kotlin_type()?;
            return Ok(self.arena.wildcard(Wildcard::Super(t)));
        }
        self.kotlin_type()
    }

    // ---- Scala ----------------------------------------------------------------------------

    fn scala_type(&mut self) -> Result<TypeId, ParseError> {
        self.nested(Self::scala_type_inner)
    }

    fn scala_type_inner(&mut self) -> Result<TypeId, ParseError> {
        if self.eat("=>") {
            let t = self.scala_type()?;
            return Ok(self.arena.intern(super::Type::ByName(t)));
        }
        let (t, list) = self.scala_simple()?;
        if self.eat("=>") {
            let ret = self.scala_type()?;
            let params = list.unwrap_or_else(|| vec![t]);
            return Ok(self.arena.function(None, &params, ret, false));
        }
        if self.eat("?=>") {
            // a context function type is its class, as Scala 3 defines it (`A ?=> B` is
            // `ContextFunction1[A, B]`): no function type, which a lambda or a function value
            // would inhabit
            let ret = self.scala_type()?;
            let mut args = list.unwrap_or_else(|| vec![t]);
            let name = format!("{CONTEXT_FUNCTION}{}", args.len());
            args.push(ret);
            return Ok(self.arena.class_named(&name, &args));
        }
        Ok(t)
    }

    /// A simple type; for a parenthesised list also returns its elements (function params).
    fn scala_simple(&mut self) -> Result<(TypeId, Option<Vec<TypeId>>), ParseError> {
        if self.eat("(") {
            let mut list = Vec::new();
            if !self.eat(")") {
                loop {
                    list.push(self.scala_type()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            }
            self.ws();
            if self.rest().starts_with("=>") || self.rest().starts_with("?=>") {
                let t = self.arena.top(); // placeholder, the caller builds the function
                return Ok((t, Some(list)));
            }
            return match list.len() {
                0 => self.err("empty parentheses are not a type (use scala.Unit)"),
                1 => Ok((list[0], None)),
                n => {
                    let t = self.arena.class_named(&format!("scala.Tuple{n}"), &list);
                    Ok((t, None))
                }
            };
        }
        let name = self.qualified_name()?;
        let mut args = Vec::new();
        if self.eat("[") {
            loop {
                args.push(self.scala_arg()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
        }
        if self.peek_word("with") || self.peek_word("forSome") {
            return self.err("compound and existential types are not supported");
        }
        Ok((self.named(&name, args)?, None))
    }

    fn scala_arg(&mut self) -> Result<TypeId, ParseError> {
        self.ws();
        let r = self.rest();
        let is_wild = (r.starts_with('_') || r.starts_with('?'))
            && !r[1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if is_wild {
            self.pos += 1;
            let w = if self.eat("<:") {
                Wildcard::Extends(self.scala_type()?)
            } else if self.eat(">:") {
                Wildcard::Super(self.scala_type()?)
            } else {
                Wildcard::Star
            };
            return Ok(self.arena.wildcard(w));
        }
        self.scala_type()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Type;

    #[test]
    fn java_generic_with_wildcards() {
        let mut a = TypeArena::new();
        let k = a.new_var("K", "M");
        let v = a.new_var("V", "M");
        let t = parse_type(
            &mut a,
            Syntax::Java,
            "java.util.Map<K,? extends V>",
            &[k, v],
        )
        .unwrap();
        let (name, args) = a.as_class(t).unwrap();
        assert_eq!(a.name(name), "java.util.Map");
        assert_eq!(args.len(), 2);
        assert_eq!(a.as_var(args[0]), Some(k));
        assert!(matches!(
            a.get(args[1]),
            Type::Wildcard(Wildcard::Extends(_))
        ));
    }

    #[test]
    fn java_varargs_and_arrays() {
        let mut a = TypeArena::new();
        let p = parse_param(&mut a, Syntax::Java, "java.lang.Object...", &[]).unwrap();
        assert!(p.vararg);
        assert!(matches!(a.get(p.ty), Type::Array(_)));
        let t = parse_type(&mut a, Syntax::Java, "int[][]", &[]).unwrap();
        assert_eq!(a.depth(t), 2);
    }

    #[test]
    fn kotlin_receiver_function_and_nullable() {
        let mut a = TypeArena::new();
        let t = parse_type(
            &mut a,
            Syntax::Kotlin,
            "java.util.TimerTask.() -> kotlin.Unit",
            &[],
        )
        .unwrap();
        assert!(matches!(
            a.get(t),
            Type::Function {
                receiver: Some(_),
                ..
            }
        ));
        let t = parse_type(&mut a, Syntax::Kotlin, "(() -> kotlin.Unit)?", &[]).unwrap();
        assert!(matches!(a.get(t), Type::Nullable(_)));
    }

    #[test]
    fn scala_symbolic_names_tuples_and_functions() {
        let mut a = TypeArena::new();
        let x = a.new_var("A", "O");
        let t = parse_type(&mut a, Syntax::Scala, "scala.<:<[A, (A, A)]", &[x]).unwrap();
        let (name, args) = a.as_class(t).unwrap();
        assert_eq!(a.name(name), "scala.<:<");
        let (tup, _) = a.as_class(args[1]).unwrap();
        assert_eq!(a.name(tup), "scala.Tuple2");
        let f = parse_type(&mut a, Syntax::Scala, "((A) => A) => A", &[x]).unwrap();
        match a.get(f) {
            Type::Function { params, .. } => {
                assert!(matches!(a.get(params[0]), Type::Function { .. }))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scala_context_functions_are_their_class_not_a_function_type() {
        let mut a = TypeArena::new();
        let x = a.new_var("T", "O");
        let t = parse_type(
            &mut a,
            Syntax::Scala,
            "(scala.util.boundary.Label[T]) ?=> T",
            &[x],
        )
        .unwrap();
        let (name, args) = a.as_class(t).expect("a class type");
        assert_eq!(a.name(name), "scala.ContextFunction1");
        assert_eq!(args.len(), 2);
        assert_eq!(a.as_var(args[1]), Some(x));
        let two = parse_type(&mut a, Syntax::Scala, "(scala.Int, T) ?=> scala.Int", &[x]).unwrap();
        let (name, args) = a.as_class(two).expect("a class type");
        assert_eq!((a.name(name), args.len()), ("scala.ContextFunction2", 3));
        // nested in a plain function type's result, and the plain one stays a function
        let f = parse_type(&mut a, Syntax::Scala, "(scala.Int) => (T) ?=> T", &[x]).unwrap();
        match a.get(f) {
            Type::Function { ret, .. } => {
                let (name, _) = a.as_class(*ret).expect("a class type");
                assert_eq!(a.name(name), "scala.ContextFunction1");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nesting_is_bounded_in_every_syntax() {
        let cases = [
            (Syntax::Java, "java.util.List<", "java.lang.String", ">"),
            (
                Syntax::Kotlin,
                "kotlin.collections.List<",
                "kotlin.String",
                ">",
            ),
            (Syntax::Kotlin, "(", "kotlin.String", ")"),
            (Syntax::Kotlin, "() -> ", "kotlin.Unit", ""),
            (Syntax::Scala, "scala.List[", "scala.Int", "]"),
            (Syntax::Scala, "=> ", "scala.Int", ""),
            (Syntax::Scala, "(", "scala.Int", ")"),
            (
                Syntax::Java,
                "java.util.List<? extends ",
                "java.lang.String",
                ">",
            ),
        ];
        for (syntax, open, atom, close) in cases {
            let mut a = TypeArena::new();
            let deep = format!("{}{atom}{}", open.repeat(50_000), close.repeat(50_000));
            let e = parse_type(&mut a, syntax, &deep, &[]).unwrap_err();
            assert!(
                e.message.contains("nested deeper than"),
                "{syntax} {open}: {e}"
            );
            assert!(e.to_string().len() < 1_000, "the text is elided");
            let ok = format!("{}{atom}{}", open.repeat(100), close.repeat(100));
            let t = parse_type(&mut a, syntax, &ok, &[]).unwrap();
            assert!(a.depth(t) <= MAX_TYPE_DEPTH);
            let var = a.new_var("T", "m");
            let bound = match syntax {
                Syntax::Java => format!("T extends {deep}"),
                Syntax::Kotlin => format!("T : {deep}"),
                Syntax::Scala => format!("T <: {deep}"),
            };
            assert!(parse_type_param(&mut a, syntax, &bound, var, &[var]).is_err());
        }
        let mut a = TypeArena::new();
        let at = format!(
            "{}java.lang.String{}",
            "java.util.List<".repeat(MAX_TYPE_DEPTH),
            ">".repeat(MAX_TYPE_DEPTH)
        );
        let t = parse_type(&mut a, Syntax::Java, &at, &[]).unwrap();
        assert_eq!(a.depth(t), MAX_TYPE_DEPTH);
    }

    #[test]
    fn a_plain_constructor_parameter_keeps_its_shape_and_a_bounded_one_does_not() {
        let mut a = TypeArena::new();
        let shape = |a: &mut TypeArena, text: &str| {
            let var = a.new_var("G", "cats.Traverse.traverse");
            parse_type_param(a, Syntax::Scala, text, var, &[var]).unwrap();
            assert!(a.var(var).higher_kinded, "{text}");
            a.var(var).constructor_params.clone()
        };
        assert_eq!(shape(&mut a, "G[_]"), [Variance::Invariant]);
        assert_eq!(
            shape(&mut a, "+G[+_, X]"),
            [Variance::Covariant, Variance::Invariant]
        );
        // bounded or higher-kinded own parameters, or a bound on the constructor: not plain
        assert!(shape(&mut a, "G[_ <: scala.AnyVal]").is_empty());
        assert!(shape(&mut a, "G[F[_]]").is_empty());
        assert!(shape(&mut a, "G[X] <: scala.collection.Seq[X]").is_empty());
    }

    #[test]
    fn a_scala_intersection_bound_is_each_part_a_bound() {
        let mut a = TypeArena::new();
        let var = a.new_var("C", "scala.collection.BitSetOps");
        let text = "+C <: scala.collection.BitSet & scala.collection.BitSetOps[C]";
        parse_type_param(&mut a, Syntax::Scala, text, var, &[var]).unwrap();
        let bounds: Vec<String> = a
            .var(var)
            .upper
            .clone()
            .into_iter()
            .map(|b| crate::types::print_type(&a, Syntax::Scala, b))
            .collect();
        assert_eq!(
            bounds,
            ["scala.collection.BitSet", "scala.collection.BitSetOps[C]"]
        );
        assert_eq!(a.var(var).variance, Variance::Covariant);
    }

    #[test]
    fn array_dimensions_are_bounded_by_the_jvm_limit() {
        let mut a = TypeArena::new();
        let dims = |n: usize| format!("int{}", "[]".repeat(n));
        let t = parse_type(&mut a, Syntax::Java, &dims(MAX_ARRAY_DIMENSIONS), &[]).unwrap();
        assert_eq!(a.array_dims(t), MAX_ARRAY_DIMENSIONS);
        for text in [dims(MAX_ARRAY_DIMENSIONS + 1), dims(20_000)] {
            let e = parse_type(&mut a, Syntax::Java, &text, &[]).unwrap_err();
            assert!(e.message.contains("dimensions"), "{e}");
        }
        let e = parse_param(
            &mut a,
            Syntax::Java,
            &format!("{}...", dims(MAX_ARRAY_DIMENSIONS)),
            &[],
        )
        .unwrap_err();
        assert!(e.message.contains("256 dimensions"), "{e}");
    }

    #[test]
    fn errors_name_the_column() {
        let mut a = TypeArena::new();
        let e = parse_type(&mut a, Syntax::Java, "java.util.List<int", &[]).unwrap_err();
        assert!(e.to_string().contains("java.util.List<int"), "{e}");
        assert!(e.message.contains("expected `>`"), "{e}");
        assert_eq!(e.column, 19);
    }
}
