//! Scala signatures as Scaladoc 2 and 3 print them, turned into Scala-typed API JSON: the
//! HTML of a signature is flattened to tokens (a link to a type becomes a reference carrying
//! its fully-qualified name, which each layout reads from its own markup), parsed as a type,
//! member or class declaration, and written in the syntax of thalia's Scala files
//! (`scala.Option[B]`, `(A) => B`, `=> T`, `scala.<:<[A, B]`, tuples `(A, B)`, `T*`).
//!
//! A method's first parameter list gives its `parameters`; later lists are curried into its
//! return type (`fold[B](ifEmpty: => B)(f: A => B): B` has parameters `[=> B]` and returns
//! `((A) => B) => B`), except implicit and `using` lists, which are recorded in
//! `implicit_parameters`. A member without parameter lists (`val`, `var`, a parameterless
//! `def`) is a field.

use scraper::{ElementRef, Node};

use crate::schema::{
    ClassDoc, FieldDoc, MethodDoc, MethodMetadata, ParamDefaults, ScalaFieldFacts, ScalaMethodFacts,
};

/// A token of a flattened Scala signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum STok {
    /// A name or keyword as printed.
    Word(String),
    /// A reference to a type: its fully-qualified name and the text printed.
    Ref(String, String),
    /// A run of operator characters (`=>`, `<:`, `*`, `+`).
    Op(String),
    /// `[ ] ( ) , { } ;`
    P(char),
}

const OP_CHARS: &str = "<>:=+-*/!#%&|^~?@\\";

/// Splits printed text into tokens.
pub(crate) fn lex(s: &str, out: &mut Vec<STok>) {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == '\u{200b}' || c == '`' {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() {
                let d = chars[i];
                let word = |e: char| e.is_alphanumeric() || e == '_' || e == '$';
                // a dot inside a qualified name (`scala.Int`, `this.type`)
                if word(d) || (d == '.' && chars.get(i + 1).is_some_and(|e| word(*e))) {
                    i += 1;
                } else {
                    break;
                }
            }
            // `name_=`, `unary_-`: an identifier ending in `_` goes on with operator characters
            if chars[i - 1] == '_' {
                while i < chars.len() && OP_CHARS.contains(chars[i]) {
                    i += 1;
                }
            }
            out.push(STok::Word(chars[start..i].iter().collect()));
        } else if OP_CHARS.contains(c) {
            let start = i;
            while i < chars.len() && OP_CHARS.contains(chars[i]) {
                i += 1;
            }
            out.push(STok::Op(chars[start..i].iter().collect()));
        } else {
            out.push(STok::P(c));
            i += 1;
        }
    }
}

/// Flattens an element into tokens: `resolve` may replace an element (and its subtree) by
/// tokens, else its text is lexed. Iterative, so that deep markup cannot overflow the stack.
pub(crate) fn flatten_tokens(
    el: ElementRef<'_>,
    resolve: &dyn Fn(ElementRef<'_>) -> Option<Vec<STok>>,
) -> Vec<STok> {
    use ego_tree::iter::Edge;
    let mut out = Vec::new();
    let mut text = String::new();
    let mut skipping: Option<ego_tree::NodeId> = None;
    for edge in el.traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() || node.id() == el.id() {
                    continue;
                }
                match node.value() {
                    Node::Text(t) => text.push_str(t),
                    Node::Element(_) => {
                        let Some(e) = ElementRef::wrap(node) else {
                            continue;
                        };
                        if let Some(toks) = resolve(e) {
                            lex(&std::mem::take(&mut text), &mut out);
                            out.extend(toks);
                            skipping = Some(node.id());
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                }
            }
        }
    }
    lex(&text, &mut out);
    out
}

/// The modifier words and the kind word (`def`, `case class`) of a Scaladoc signature `e`:
/// the text of its first `modifiers` and `kind` elements.
pub(crate) fn modifiers_and_kind(
    e: ElementRef<'_>,
    modifiers: &scraper::Selector,
    kind: &scraper::Selector,
) -> (Vec<String>, String) {
    let mods = e
        .select(modifiers)
        .next()
        .map(|m| {
            m.text()
                .collect::<String>()
                .split_whitespace()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let kind = e
        .select(kind)
        .next()
        .map(|k| k.text().collect::<String>().trim().to_string())
        .unwrap_or_default();
    (mods, kind)
}

/// The kind of a class page from its kind word (`case class` is `class` with `case` added to
/// `modifiers`); `None` for a page of another kind. `kinds`: the plain kinds the layout has.
pub(crate) fn page_kind(kind: &str, modifiers: &mut Vec<String>, kinds: &[&str]) -> Option<String> {
    match kind {
        "case class" | "case object" => {
            modifiers.push("case".into());
            Some(kind.trim_start_matches("case ").to_string())
        }
        k if kinds.contains(&k) => Some(k.to_string()),
        _ => None,
    }
}

/// A parsed Scala type.
#[derive(Clone, Debug)]
enum Ty {
    Name(String, String),
    Applied(Box<Ty>, Vec<Ty>),
    Paren(Vec<Ty>),
    Fn(Vec<Ty>, Box<Ty>),
    /// A Scala 3 context function type (`A ?=> B`): applied to the givens in scope, never
    /// the plain function type `A => B`.
    ContextFn(Vec<Ty>, Box<Ty>),
    ByName(Box<Ty>),
    Infix(String, Box<Ty>, Box<Ty>),
    Compound(String, Box<Ty>, Box<Ty>),
    Wildcard(Option<Box<Ty>>, Option<Box<Ty>>),
    Repeated(Box<Ty>),
    Other(String),
}

fn render(t: &Ty, scope: &[String]) -> String {
    match t {
        Ty::Name(fqn, text) => {
            if scope.iter().any(|s| s == text) || fqn.is_empty() {
                text.clone()
            } else {
                fqn.clone()
            }
        }
        Ty::Applied(b, args) => format!("{}[{}]", render(b, scope), list(args, scope)),
        Ty::Paren(ts) if ts.len() == 1 => render(&ts[0], scope),
        Ty::Paren(ts) => format!("({})", list(ts, scope)),
        Ty::Fn(ps, r) => format!("({}) => {}", list(ps, scope), render(r, scope)),
        Ty::ContextFn(ps, r) => format!("({}) ?=> {}", list(ps, scope), render(r, scope)),
        Ty::ByName(t) => format!("=> {}", render(t, scope)),
        Ty::Infix(op, l, r) => format!("{op}[{}, {}]", render(l, scope), render(r, scope)),
        Ty::Compound(op, l, r) => format!("{} {op} {}", render(l, scope), render(r, scope)),
        Ty::Wildcard(lo, hi) => {
            let mut s = "_".to_string();
            if let Some(l) = lo {
                s.push_str(&format!(" >: {}", render(l, scope)));
            }
            if let Some(h) = hi {
                s.push_str(&format!(" <: {}", render(h, scope)));
            }
            s
        }
        Ty::Repeated(t) => format!("{}*", render(t, scope)),
        Ty::Other(s) => s.clone(),
    }
}

fn list(ts: &[Ty], scope: &[String]) -> String {
    ts.iter()
        .map(|t| render(t, scope))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The most nested types parsed (hostile input cannot drive the recursion deeper).
const MAX_DEPTH: usize = 200;

/// A parser over the tokens of one signature.
pub(crate) struct Parser<'a> {
    toks: &'a [STok],
    pos: usize,
    depth: usize,
    /// `with` ends a type (in a list of supertypes).
    no_with: bool,
    /// A parameter's type is parsed: a refinement is kept (see `simple_inner`).
    in_params: bool,
}

/// One parameter list.
#[derive(Clone, Debug, Default)]
struct Params {
    implicit: bool,
    params: Vec<(Option<String>, Ty)>,
    /// The indices of the parameters with a default value (`x: Int = 0`).
    defaults: Vec<usize>,
}

/// A type parameter.
#[derive(Clone, Debug)]
struct TParam {
    variance: String,
    name: String,
    /// Higher-kinded parameters, as printed (`[_]`).
    hk: String,
    /// The names of the higher-kinded parameters (in scope in the bounds).
    inner: Vec<String>,
    lower: Option<Ty>,
    upper: Option<Ty>,
    context: Vec<Ty>,
}

fn render_tparam(t: &TParam, scope: &[String]) -> String {
    let mut inner_scope = scope.to_vec();
    inner_scope.extend(t.inner.iter().cloned());
    let scope = &inner_scope[..];
    let mut s = format!("{}{}{}", t.variance, t.name, t.hk);
    if let Some(l) = &t.lower {
        s.push_str(&format!(" >: {}", render(l, scope)));
    }
    if let Some(u) = &t.upper {
        s.push_str(&format!(" <: {}", render(u, scope)));
    }
    s
}

fn is_op_name(fqn: &str) -> bool {
    let last = fqn.rsplit('.').next().unwrap_or(fqn);
    !last.is_empty() && last.chars().all(|c| OP_CHARS.contains(c))
}

impl<'a> Parser<'a> {
    /// A parser at the start of `toks`.
    pub(crate) fn new(toks: &'a [STok]) -> Self {
        Parser {
            toks,
            pos: 0,
            depth: 0,
            no_with: false,
            in_params: false,
        }
    }

    fn peek(&self) -> Option<&STok> {
        self.toks.get(self.pos)
    }

    fn at_p(&self, c: char) -> bool {
        self.peek() == Some(&STok::P(c))
    }

    fn at_op(&self, s: &str) -> bool {
        matches!(self.peek(), Some(STok::Op(o)) if o == s)
    }

    fn at_word(&self, s: &str) -> bool {
        matches!(self.peek(), Some(STok::Word(w)) if w == s)
    }

    fn eat_p(&mut self, c: char) -> bool {
        let b = self.at_p(c);
        if b {
            self.pos += 1;
        }
        b
    }

    fn eat_op(&mut self, s: &str) -> bool {
        let b = self.at_op(s);
        if b {
            self.pos += 1;
        }
        b
    }

    fn expect_p(&mut self, c: char) -> Result<(), String> {
        if self.eat_p(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}` at {}", self.here()))
        }
    }

    fn here(&self) -> String {
        match self.peek() {
            None => "the end".into(),
            Some(t) => format!("{t:?}"),
        }
    }

    /// Runs `f` one nesting level deeper; past [`MAX_DEPTH`] it is an error.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, String>) -> Result<T, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err("types nested too deeply".into());
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn ty(&mut self) -> Result<Ty, String> {
        self.nested(Self::ty_inner)
    }

    fn ty_inner(&mut self) -> Result<Ty, String> {
        if self.eat_op("=>") {
            return Ok(Ty::ByName(Box::new(self.ty()?)));
        }
        let left = self.infix()?;
        let plain = self.eat_op("=>") || self.eat_op("->");
        if plain || self.eat_op("?=>") || self.eat_op("?->") {
            // a capture set after a pure arrow (`->{f}`): dropped
            if self.at_p('{') {
                self.skip_braces();
            }
            let ret = self.ty()?;
            let params = match left {
                Ty::Paren(ps) => ps,
                other => vec![other],
            };
            return Ok(if plain {
                Ty::Fn(params, Box::new(ret))
            } else {
                Ty::ContextFn(params, Box::new(ret))
            });
        }
        Ok(left)
    }

    fn infix(&mut self) -> Result<Ty, String> {
        let mut left = self.simple()?;
        loop {
            match self.peek().cloned() {
                Some(STok::Word(w)) if w == "with" && !self.no_with => {
                    self.pos += 1;
                    let r = self.simple()?;
                    left = Ty::Compound(w, Box::new(left), Box::new(r));
                }
                Some(STok::Op(o)) if o == "&" || o == "|" => {
                    self.pos += 1;
                    let r = self.simple()?;
                    left = Ty::Compound(o, Box::new(left), Box::new(r));
                }
                Some(STok::Ref(fqn, _)) if is_op_name(&fqn) => {
                    self.pos += 1;
                    let r = self.simple()?;
                    left = Ty::Infix(fqn, Box::new(left), Box::new(r));
                }
                Some(STok::Op(o))
                    if ![
                        "=>", "?=>", "->", "?->", "*", "=", "<:", ">:", ":", "^", "=>>",
                    ]
                    .contains(&o.as_str()) =>
                {
                    self.pos += 1;
                    let r = self.simple()?;
                    left = Ty::Infix(o, Box::new(left), Box::new(r));
                }
                _ => return Ok(left),
            }
        }
    }

    fn types_until(&mut self, close: char) -> Result<Vec<Ty>, String> {
        let mut out = Vec::new();
        if self.eat_p(close) {
            return Ok(out);
        }
        loop {
            out.push(self.ty()?);
            if self.eat_p(',') {
                continue;
            }
            self.expect_p(close)?;
            return Ok(out);
        }
    }

    fn simple(&mut self) -> Result<Ty, String> {
        self.nested(Self::simple_inner)
    }

    fn simple_inner(&mut self) -> Result<Ty, String> {
        let mut t = match self.peek().cloned() {
            Some(STok::P('(')) => {
                self.pos += 1;
                Ty::Paren(self.types_until(')')?)
            }
            Some(STok::P(q @ ('"' | '\''))) => {
                // a literal type: kept as printed
                self.pos += 1;
                let mut s = q.to_string();
                while let Some(tok) = self.peek().cloned() {
                    self.pos += 1;
                    if tok == STok::P(q) {
                        break;
                    }
                    s.push_str(&tok_text(&tok));
                }
                s.push(q);
                Ty::Other(s)
            }
            Some(STok::Op(o))
                if o == "-"
                    && matches!(self.toks.get(self.pos + 1),
                        Some(STok::Word(w)) if w.starts_with(|c: char| c.is_ascii_digit())) =>
            {
                // a negative literal type
                self.pos += 2;
                Ty::Other(format!("-{}", tok_text(&self.toks[self.pos - 1])))
            }
            Some(STok::Word(w)) if w == "_" => {
                self.pos += 1;
                self.wildcard()?
            }
            Some(STok::Op(o)) if o == "?" => {
                self.pos += 1;
                self.wildcard()?
            }
            Some(STok::Word(w)) => {
                self.pos += 1;
                Ty::Name(String::new(), w)
            }
            Some(STok::Ref(fqn, text)) => {
                self.pos += 1;
                Ty::Name(fqn, text)
            }
            Some(STok::P('[')) => {
                // a type lambda (`[X]F[X]`, `[X] =>> F[X]`) or a polymorphic function type
                // (`[X] => X => F[X]`): kept as printed
                let params = self.tparams()?;
                let arrow = if self.eat_op("=>>") {
                    " =>> "
                } else if self.eat_op("=>") {
                    " => "
                } else {
                    ""
                };
                let body = if arrow.is_empty() {
                    self.simple()?
                } else {
                    self.ty()?
                };
                Ty::Other(as_printed(&format!(
                    "[{}]{arrow}{}",
                    params
                        .iter()
                        .map(|t| render_tparam(t, &[]))
                        .collect::<Vec<_>>()
                        .join(", "),
                    render(&body, &[])
                )))
            }
            Some(STok::P('{')) => {
                // a structural refinement: kept as printed, braces balanced
                let mut depth = 0usize;
                let mut s = String::new();
                while let Some(tok) = self.peek().cloned() {
                    self.pos += 1;
                    match &tok {
                        STok::P('{') => depth += 1,
                        STok::P('}') => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    s.push_str(&tok_text(&tok));
                    s.push(' ');
                    if depth == 0 {
                        break;
                    }
                }
                Ty::Other(s.trim().to_string())
            }
            _ => return Err(format!("expected a type at {}", self.here())),
        };
        loop {
            if self.at_p('[') {
                self.pos += 1;
                let args = self.types_until(']')?;
                t = Ty::Applied(Box::new(t), args);
            } else if self.at_p('.')
                && matches!(
                    self.toks.get(self.pos + 1),
                    Some(STok::Word(_) | STok::Ref(..))
                )
            {
                // a singleton type or a path (`Array.type`, `Enumeration.this.Value`): a
                // link at its end names the type
                self.pos += 1;
                match self.peek().cloned() {
                    Some(STok::Ref(fqn, text)) => t = Ty::Name(fqn, text),
                    Some(STok::Word(w)) => {
                        t = Ty::Other(as_printed(&format!("{}.{w}", render(&t, &[]))))
                    }
                    _ => {}
                }
                self.pos += 1;
            } else if self.at_op("^") {
                // a capture set (`C^`, `C^{f}`): dropped
                self.pos += 1;
                if self.at_p('{') {
                    self.skip_braces();
                }
            } else if self.at_op("#") {
                self.pos += 1;
                let name = match self.peek().cloned() {
                    Some(STok::Word(w)) | Some(STok::Ref(_, w)) => w,
                    _ => return Err("expected a name after `#`".into()),
                };
                self.pos += 1;
                t = Ty::Other(format!("{}#{name}", render(&t, &[])));
            } else if self.at_p('{') {
                // a refinement after a type: dropped from a result, which it only narrows;
                // kept in a parameter (as `P { … }`, which no type parser reads), so that the
                // member is skipped rather than called with too wide an argument
                self.skip_braces();
                if self.in_params {
                    t = Ty::Other(format!("{} {{ … }}", render(&t, &[])));
                }
            } else {
                return Ok(t);
            }
        }
    }

    /// Skips balanced braces from a `{`.
    fn skip_braces(&mut self) {
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            let close = match tok {
                STok::P('{') => {
                    depth += 1;
                    false
                }
                STok::P('}') => {
                    depth = depth.saturating_sub(1);
                    true
                }
                _ => false,
            };
            self.pos += 1;
            if close && depth == 0 {
                break;
            }
        }
    }

    fn wildcard(&mut self) -> Result<Ty, String> {
        let mut lo = None;
        let mut hi = None;
        if self.eat_op(">:") {
            lo = Some(Box::new(self.infix()?));
        }
        if self.eat_op("<:") {
            hi = Some(Box::new(self.infix()?));
        }
        Ok(Ty::Wildcard(lo, hi))
    }

    fn tparams(&mut self) -> Result<Vec<TParam>, String> {
        self.nested(Self::tparams_inner)
    }

    fn tparams_inner(&mut self) -> Result<Vec<TParam>, String> {
        let mut out = Vec::new();
        if !self.eat_p('[') {
            return Ok(out);
        }
        loop {
            let variance = if self.eat_op("+") {
                "+"
            } else if self.eat_op("-") {
                "-"
            } else {
                ""
            };
            let name = match self.peek().cloned() {
                Some(STok::Word(w)) | Some(STok::Ref(_, w)) => w,
                _ => return Err(format!("expected a type parameter at {}", self.here())),
            };
            self.pos += 1;
            let mut hk = String::new();
            let mut inner_names = Vec::new();
            if self.at_p('[') {
                let inner = self.tparams()?;
                inner_names = inner.iter().map(|t| t.name.clone()).collect();
                hk = format!(
                    "[{}]",
                    inner
                        .iter()
                        .map(|t| render_tparam(t, &[]))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            let mut tp = TParam {
                variance: variance.into(),
                name,
                hk,
                inner: inner_names,
                lower: None,
                upper: None,
                context: Vec::new(),
            };
            loop {
                if self.eat_op(">:") {
                    tp.lower = Some(self.infix()?);
                } else if self.eat_op("<:") {
                    tp.upper = Some(self.infix()?);
                } else if self.eat_op(":") {
                    tp.context.push(self.infix()?);
                } else {
                    break;
                }
            }
            out.push(tp);
            if self.eat_p(',') {
                continue;
            }
            self.expect_p(']')?;
            return Ok(out);
        }
    }

    fn param_lists(&mut self) -> Result<Vec<Params>, String> {
        let mut out = Vec::new();
        while self.eat_p('(') {
            let mut pl = Params::default();
            if self.at_word("implicit") || self.at_word("using") {
                self.pos += 1;
                pl.implicit = true;
            }
            if self.eat_p(')') {
                out.push(pl);
                continue;
            }
            loop {
                while ["val", "var", "inline", "erased", "implicit", "using"]
                    .iter()
                    .any(|k| self.at_word(k))
                {
                    self.pos += 1;
                }
                let named = matches!(
                    (self.toks.get(self.pos), self.toks.get(self.pos + 1)),
                    (Some(STok::Word(_)), Some(STok::Op(o))) if o == ":"
                );
                let name = if named {
                    let n = match self.peek() {
                        Some(STok::Word(w)) => Some(w.clone()),
                        _ => None,
                    };
                    self.pos += 2;
                    n
                } else {
                    None
                };
                let outer = std::mem::replace(&mut self.in_params, true);
                let t = self.ty();
                self.in_params = outer;
                let mut t = t?;
                if self.eat_op("*") {
                    t = Ty::Repeated(Box::new(t));
                }
                if self.eat_op("=") {
                    pl.defaults.push(pl.params.len());
                    // a default value: skipped up to the end of the parameter
                    let mut depth = 0usize;
                    while let Some(tok) = self.peek() {
                        match tok {
                            STok::P('(' | '[' | '{') => depth += 1,
                            STok::P(')' | ']' | '}') if depth > 0 => depth -= 1,
                            STok::P(')' | ',') if depth == 0 => break,
                            _ => {}
                        }
                        self.pos += 1;
                    }
                }
                pl.params.push((name, t));
                if self.eat_p(',') {
                    continue;
                }
                self.expect_p(')')?;
                break;
            }
            out.push(pl);
        }
        Ok(out)
    }
}

fn tok_text(t: &STok) -> String {
    match t {
        STok::Word(w) | STok::Op(w) => w.clone(),
        // a type parameter or type member of a class, in a type kept as printed: its name
        STok::Ref(f, t) if f.starts_with(CLASS_TYPE_MEMBER) => t.clone(),
        STok::Ref(f, _) => f.clone(),
        STok::P(c) => c.to_string(),
    }
}

/// The kind of a Scala member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SKind {
    /// `def`
    Def,
    /// `val` or `lazy val`
    Val,
    /// `var`
    Var,
    /// A constructor (`def this`, `new`).
    Constructor,
}

/// A member as read from a page.
#[derive(Clone, Debug)]
pub(crate) struct SMember {
    pub kind: SKind,
    /// Modifier words (`final`, `override`, `abstract`, `implicit`).
    pub modifiers: Vec<String>,
    /// Tokens from the member's name on.
    pub toks: Vec<STok>,
    /// Abstract (no body).
    pub is_abstract: bool,
    /// Protected.
    pub protected: bool,
    /// Deprecated.
    pub deprecated: bool,
    /// Scala 3's `@experimental`.
    pub experimental: bool,
    /// For an extension method (Scala 3), the tokens of its `extension` clause after the
    /// keyword: type parameters, the receiver's parameter list, `using` lists.
    pub extension: Option<Vec<STok>>,
}

/// A class, trait or object page as read.
#[derive(Clone, Debug)]
pub(crate) struct SPage {
    /// Fully-qualified name.
    pub fqn: String,
    /// `class`, `trait`, `object`, `enum` (with `case` as a modifier).
    pub kind: String,
    /// Modifier words of the declaration.
    pub modifiers: Vec<String>,
    /// Tokens from the name on.
    pub toks: Vec<STok>,
    /// Deprecated.
    pub deprecated: bool,
    /// Scala 3's `@experimental`.
    pub experimental: bool,
    pub members: Vec<SMember>,
    /// Members the reader left out on purpose, each with its reason.
    pub skipped: Vec<String>,
}

fn skip_name(p: &mut Parser<'_>) -> Result<String, String> {
    match p.peek().cloned() {
        Some(STok::Word(w)) | Some(STok::Op(w)) | Some(STok::Ref(_, w)) => {
            p.pos += 1;
            Ok(w)
        }
        _ => Err(format!("expected a name at {}", p.here())),
    }
}

/// Builds the document of a Scala page; members whose signature cannot be parsed are left
/// out, each named in the second value.
pub(crate) fn build(page: &SPage) -> Result<(ClassDoc, Vec<String>), String> {
    let mut p = Parser::new(&page.toks);
    skip_name(&mut p)?;
    let tparams = p.tparams()?;
    // `class C private (…)`: a constructor clients cannot call
    let mut ctor_public = true;
    while p.at_word("private") || p.at_word("protected") {
        ctor_public = false;
        p.pos += 1;
        if p.at_p('[') {
            p.types_until(']').ok();
        }
    }
    let ctor_lists = p.param_lists()?;
    let scope: Vec<String> = tparams.iter().map(|t| t.name.clone()).collect();
    let mut supers = Vec::new();
    let mut skipped_supers = Vec::new();
    if p.at_word("extends") {
        p.pos += 1;
        p.no_with = true;
        loop {
            let t = p.ty()?;
            let sup = render(&t, &scope);
            match class_type_member(&sup) {
                Some(member) => skipped_supers.push(format!(
                    "supertype skipped: {}",
                    type_member_reason(&member)
                )),
                None => supers.push(sup),
            }
            if p.at_word("with") || p.at_p(',') {
                p.pos += 1;
                continue;
            }
            break;
        }
    }
    let has = |m: &str| page.modifiers.iter().any(|x| x == m);
    let object = page.kind == "object";
    let class_type = match page.kind.as_str() {
        "trait" => 1,
        "enum" => 3,
        _ if has("abstract") => 2,
        _ => 0,
    };
    let simple = page.fqn.rsplit('.').next().unwrap_or(&page.fqn).to_string();
    let mut doc = ClassDoc::new(page.fqn.clone(), "scala");
    doc.type_parameters = Some(tparams.iter().map(|t| render_tparam(t, &scope)).collect());
    doc.implements = Some(supers.clone());
    doc.inherits = Some(supers);
    doc.class_type = Some(class_type);
    doc.parent = None;
    doc.deprecated = page.deprecated.then_some(true);
    doc.scala.experimental = page.experimental.then_some(true);
    doc.is_sealed = has("sealed").then_some(true);
    if object {
        doc.scala.scala_object = Some(true);
    }
    if has("case") {
        doc.scala.is_case = Some(true);
    }
    // a class of a class or trait is path-dependent (`outer.Inner`): no program names it
    // `Outer.Inner` (the compiled view tells; Scaladoc pages do not)
    if has("protected") {
        doc.access_mod = Some("protected".into());
    }
    if has("inner") {
        doc.scala.scala_inner = Some(true);
    }
    // an implicit class converts its constructor's argument to itself (`"a" -> 1`)
    if has("implicit") {
        doc.scala.implicit = Some(true);
    }
    let mut methods = Vec::new();
    let mut fields = Vec::new();
    let mut skipped = page.skipped.clone();
    skipped.extend(skipped_supers);
    let mut seen = std::collections::HashSet::new();
    for m in &page.members {
        // a member listed twice (Scaladoc 2 lists some in two sections) is read once
        if !seen.insert((m.kind == SKind::Def, m.toks.clone(), m.extension.clone())) {
            continue;
        }
        if let Err(e) = build_member(m, &scope, object, &simple, &mut methods, &mut fields) {
            let name = m.toks.first().map(tok_text).unwrap_or_default();
            skipped.push(format!("member `{name}` skipped: {e}"));
        }
    }
    // the primary constructor, from the class's signature (Scaladoc 3 prints it there only;
    // Scaladoc 2 also lists it as a member, then it is there already)
    if page.kind == "class" && !has("abstract") && ctor_public {
        if let Some(first) = ctor_lists.first() {
            let params: Vec<String> = first
                .params
                .iter()
                .map(|(_, t)| render(t, &scope))
                .collect();
            let known = methods
                .iter()
                .any(|m| m.is_constructor == Some(true) && m.parameters == params);
            if !known {
                let explicit_lists = ctor_lists.iter().filter(|l| !l.implicit).count();
                methods.push(MethodDoc {
                    name: simple.clone(),
                    parameters: params,
                    type_parameters: Some(Vec::new()),
                    return_type: Some(None),
                    receiver: Some(None),
                    is_static: Some(false),
                    is_constructor: Some(true),
                    access_mod: Some("public".into()),
                    is_default: None,
                    throws: None,
                    other_metadata: None,
                    deprecated: None,
                    is_abstract: None,
                    is_varargs: first
                        .params
                        .last()
                        .is_some_and(|(_, t)| matches!(t, Ty::Repeated(_)))
                        .then_some(true),
                    preview: None,
                    deprecation_level: None,
                    scala: ScalaMethodFacts {
                        parameter_lists: (explicit_lists > 1).then_some(explicit_lists),
                        ..ScalaMethodFacts::default()
                    },
                    parameter_names: parameter_names(first),
                    extra: Default::default(),
                });
            }
        }
    }
    doc.methods = Some(methods);
    doc.fields = Some(fields);
    Ok((doc, skipped))
}

/// Adds one member to `methods` or `fields`.
pub(crate) fn build_member(
    m: &SMember,
    scope: &[String],
    object: bool,
    simple: &str,
    methods: &mut Vec<MethodDoc>,
    fields: &mut Vec<FieldDoc>,
) -> Result<(), String> {
    {
        let mut mp = Parser::new(&m.toks);
        let name = skip_name(&mut mp)?;
        let mut mtp = mp.tparams()?;
        let mut lists = mp.param_lists()?;
        let ret = if mp.eat_op(":") { Some(mp.ty()?) } else { None };
        // an extension method: the clause's type parameters come first (as the compiled
        // method has them), its receiver is the `receiver`, its `using` lists are implicit
        // lists of the method; one without lists still takes its receiver (`shout()`)
        let receiver = match &m.extension {
            Some(clause) => {
                let (htp, recv, using) = extension_clause(clause)?;
                mtp.splice(0..0, htp);
                if lists.is_empty() && using.is_empty() {
                    lists.push(Params::default());
                }
                lists.extend(using);
                Some(recv)
            }
            None => None,
        };
        let mut mscope = scope.to_vec();
        mscope.extend(mtp.iter().map(|t| t.name.clone()));
        let access = if m.protected { "protected" } else { "public" };
        let mhas = |x: &str| m.modifiers.iter().any(|y| y == x);
        let ctor = m.kind == SKind::Constructor || name == "this" || name == "<init>";
        let is_def = m.kind == SKind::Def || receiver.is_some();
        if !is_def && !ctor || (lists.is_empty() && mtp.is_empty() && !ctor) {
            let Some(t) = ret else {
                return Err(format!("member `{name}` has no type"));
            };
            let scala = ScalaFieldFacts {
                is_var: (m.kind == SKind::Var).then_some(true),
                // an implicit val or parameterless def: an instance implicit search may find
                implicit: mhas("implicit").then_some(true),
                experimental: m.experimental.then_some(true),
            };
            let ty = render(&t, &mscope);
            if let Some(member) = class_type_member(&ty) {
                return Err(type_member_reason(&member));
            }
            fields.push(FieldDoc {
                name,
                ty,
                is_final: Some(m.kind == SKind::Val),
                is_override: Some(mhas("override")),
                receiver: Some(None),
                type_parameters: Some(Vec::new()),
                access_mod: Some(access.into()),
                is_static: Some(object),
                deprecated: m.deprecated.then_some(true),
                is_enum_constant: None,
                deprecation_level: None,
                other_metadata: None,
                scala,
                static_from_hidden_supertype: None,
                nullable: None,
                extra: Default::default(),
            });
            return Ok(());
        }
        let mut scala = ScalaMethodFacts {
            // an implicit method (with one parameter: an implicit conversion)
            implicit: mhas("implicit").then_some(true),
            experimental: m.experimental.then_some(true),
            ..ScalaMethodFacts::default()
        };
        let first = lists.first().cloned().unwrap_or_default();
        let mut ret_s = ret.as_ref().map(|t| render(t, &mscope));
        for l in lists.iter().skip(1).rev() {
            if l.implicit {
                continue;
            }
            let ps: Vec<String> = l.params.iter().map(|(_, t)| render(t, &mscope)).collect();
            ret_s = ret_s.map(|r| format!("({}) => {r}", ps.join(", ")));
        }
        let implicit: Vec<String> = lists
            .iter()
            .filter(|l| l.implicit)
            .flat_map(|l| l.params.iter())
            .map(|(_, t)| render(t, &mscope))
            .chain(
                mtp.iter()
                    .flat_map(|t| t.context.iter().map(move |c| (t, c)))
                    .map(|(t, c)| format!("{}[{}]", render(c, &mscope), t.name)),
            )
            .collect();
        if !implicit.is_empty() {
            scala.implicit_parameters = Some(implicit);
        }
        // curried lists are written into the result type; their number tells a call from
        // a function-valued result
        // (0: a parameterless `def empty[A]: …`, called without parentheses)
        let explicit_lists = lists.iter().filter(|l| !l.implicit).count();
        if explicit_lists > 1 || explicit_lists == 0 && !ctor {
            scala.parameter_lists = Some(explicit_lists);
        }
        let varargs = first
            .params
            .last()
            .is_some_and(|(_, t)| matches!(t, Ty::Repeated(_)));
        methods.push(MethodDoc {
            name: if ctor { simple.to_string() } else { name },
            parameters: first
                .params
                .iter()
                .map(|(_, t)| render(t, &mscope))
                .collect(),
            type_parameters: Some(mtp.iter().map(|t| render_tparam(t, &mscope)).collect()),
            return_type: Some(if ctor { None } else { ret_s }),
            receiver: Some(None),
            is_static: Some(object),
            is_constructor: Some(ctor),
            access_mod: Some(access.into()),
            is_default: None,
            throws: None,
            // the first list's parameters with default values, which a call may leave out
            other_metadata: (!first.defaults.is_empty()).then(|| MethodMetadata {
                defaults: Some(ParamDefaults::Indices(first.defaults.clone())),
                ..MethodMetadata::default()
            }),
            deprecated: m.deprecated.then_some(true),
            is_abstract: m.is_abstract.then_some(true),
            is_varargs: varargs.then_some(true),
            preview: None,
            deprecation_level: None,
            scala,
            parameter_names: parameter_names(&first),
            extra: Default::default(),
        });
        if let (Some(r), Some(last)) = (receiver, methods.last_mut()) {
            last.receiver = Some(Some(render(&r, &mscope)));
            last.is_static = Some(true);
        }
        if let Some(member) = methods.last().and_then(|m| {
            m.parameters
                .iter()
                .chain(m.type_parameters.iter().flatten())
                .chain(m.return_type.iter().flatten())
                .chain(m.receiver.iter().flatten())
                .chain(m.scala.implicit_parameters.iter().flatten())
                .map(String::as_str)
                .find_map(class_type_member)
        }) {
            methods.pop();
            return Err(type_member_reason(&member));
        }
    }
    Ok(())
}

/// Marks the fully-qualified name of a type member of a class (`Mirror.MirroredMonoType`,
/// an abstract `type T` or an alias declared in a class or trait) in a [`STok::Ref`]: a
/// path-dependent type no program can name from outside an instance; a member whose
/// signature mentions one is skipped (see [`type_member_reason`]).
pub(crate) const CLASS_TYPE_MEMBER: char = '\u{2}';

/// The first type member of a class that `t` mentions (see [`CLASS_TYPE_MEMBER`]).
fn class_type_member(t: &str) -> Option<String> {
    let at = t.find(CLASS_TYPE_MEMBER)?;
    let rest = &t[at + CLASS_TYPE_MEMBER.len_utf8()..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// A type kept as printed, rendered out of its scope: a class's type parameter or type member
/// in it (see [`CLASS_TYPE_MEMBER`]) is written by its name, as printed.
fn as_printed(rendered: &str) -> String {
    let mut out = String::with_capacity(rendered.len());
    let mut rest = rendered;
    while let Some(at) = rest.find(CLASS_TYPE_MEMBER) {
        out.push_str(&rest[..at]);
        let after = &rest[at + CLASS_TYPE_MEMBER.len_utf8()..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
            .unwrap_or(after.len());
        out.push_str(after[..end].rsplit('.').next().unwrap_or(""));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Why a member mentioning the class type member `member` is left out.
fn type_member_reason(member: &str) -> String {
    format!(
        "mentions `{member}`, a type member of a class (abstract or an alias): a \
         path-dependent type, not resolvable outside an instance"
    )
}

/// The `parameter_names` of a method whose first list is `first` (none if none is named).
fn parameter_names(first: &Params) -> Option<Vec<String>> {
    first.params.iter().any(|(n, _)| n.is_some()).then(|| {
        first
            .params
            .iter()
            .map(|(n, _)| n.clone().unwrap_or_default())
            .collect()
    })
}

/// An `extension` clause (after the keyword): its type parameters, its receiver's type and
/// its `using` lists.
fn extension_clause(toks: &[STok]) -> Result<(Vec<TParam>, Ty, Vec<Params>), String> {
    let mut p = Parser::new(toks);
    let tparams = p.tparams()?;
    let lists = p.param_lists()?;
    if p.pos < toks.len() {
        return Err(format!("extension clause: unexpected {}", p.here()));
    }
    let (using, explicit): (Vec<Params>, Vec<Params>) = lists.into_iter().partition(|l| l.implicit);
    match explicit.as_slice() {
        [one] if one.params.len() == 1 => Ok((tparams, one.params[0].1.clone(), using)),
        _ => Err("extension clause without exactly one receiver".into()),
    }
}

/// Merges each object's document into its companion class's (its members become static);
/// an object without a companion keeps its own document. `docs` is sorted by name.
pub(crate) fn merge_companions(docs: &mut Vec<ClassDoc>) {
    let mut out: Vec<ClassDoc> = Vec::with_capacity(docs.len());
    for d in std::mem::take(docs) {
        let is_object = d.scala.scala_object.is_some();
        match out.last_mut() {
            Some(prev) if prev.name == d.name && prev.language.as_deref() == Some("scala") => {
                let (mut class, object) = if is_object {
                    (std::mem::replace(prev, d.clone()), d)
                } else {
                    (d.clone(), std::mem::replace(prev, d))
                };
                class.scala.scala_object = None;
                // an object that extends its companion class (`object Random extends
                // Random`) lists the class's members as its own: those are the class's
                let methods = class.methods.get_or_insert_with(Vec::new);
                let known: std::collections::HashSet<(String, Vec<String>)> = methods
                    .iter()
                    .map(|m| (m.name.clone(), m.parameters.clone()))
                    .collect();
                methods.extend(
                    object
                        .methods
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|m| !known.contains(&(m.name.clone(), m.parameters.clone()))),
                );
                let fields = class.fields.get_or_insert_with(Vec::new);
                let known: std::collections::HashSet<String> =
                    fields.iter().map(|f| f.name.clone()).collect();
                fields.extend(
                    object
                        .fields
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|f| !known.contains(&f.name)),
                );
                *prev = class;
            }
            _ => out.push(d),
        }
    }
    *docs = out;
}

/// Decodes a Scala name as encoded in file names (`$less$colon$less` is `<:<`).
pub(crate) fn decode_name(s: &str) -> String {
    const CODES: &[(&str, &str)] = &[
        ("$less", "<"),
        ("$greater", ">"),
        ("$colon", ":"),
        ("$eq", "="),
        ("$plus", "+"),
        ("$minus", "-"),
        ("$times", "*"),
        ("$div", "/"),
        ("$bang", "!"),
        ("$tilde", "~"),
        ("$amp", "&"),
        ("$bar", "|"),
        ("$up", "^"),
        ("$hash", "#"),
        ("$percent", "%"),
        ("$at", "@"),
        ("$qmark", "?"),
        ("$bslash", "\\"),
    ];
    let mut out = String::new();
    let mut rest = s;
    'outer: while !rest.is_empty() {
        for (code, op) in CODES {
            if let Some(r) = rest.strip_prefix(code) {
                out.push_str(op);
                rest = r;
                continue 'outer;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// The fully-qualified name of a Scaladoc page path (`scala/collection/Seq$.html`,
/// `scala/Enumeration$Value.html`), object pages' `$` dropped.
pub(crate) fn path_fqn(path: &str) -> String {
    let stem = path.strip_suffix(".html").unwrap_or(path);
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if let Some(last) = parts.pop() {
        let last = last.strip_suffix('$').unwrap_or(&last);
        let decoded = decode_name(last);
        // nested entities: `Outer$Inner`, `Outer$$Inner` (in an object)
        let nested: Vec<&str> = decoded
            .split('$')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>();
        if nested.is_empty() {
            parts.push(decoded.clone());
        } else {
            parts.extend(nested.iter().map(|s| s.to_string()));
        }
    }
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> String {
        let mut toks = Vec::new();
        lex(s, &mut toks);
        let mut p = Parser::new(&toks);
        render(&p.ty().unwrap(), &[])
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        for text in [
            "_ >: ".repeat(100_000),
            format!("{}A{}", "F[".repeat(100_000), "]".repeat(100_000)),
            format!("{}A", "(".repeat(100_000)),
            format!("{}A", "=> ".repeat(100_000)),
        ] {
            let mut toks = Vec::new();
            lex(&text, &mut toks);
            assert!(Parser::new(&toks).ty().is_err());
        }
        let mut toks = Vec::new();
        lex(
            &format!("X{}_{}", "[F".repeat(100_000), "]".repeat(100_000)),
            &mut toks,
        );
        let page = SPage {
            fqn: "p.X".into(),
            kind: "class".into(),
            modifiers: Vec::new(),
            toks,
            deprecated: false,
            experimental: false,
            members: Vec::new(),
            skipped: Vec::new(),
        };
        assert!(build(&page).is_err());
    }

    #[test]
    fn types_render_in_the_files_syntax() {
        assert_eq!(ty("A => B"), "(A) => B");
        assert_eq!(ty("(A) => B"), "(A) => B");
        assert_eq!(ty("(A, B) => C"), "(A, B) => C");
        assert_eq!(ty("=> B"), "=> B");
        assert_eq!(ty("Map[K, (A, B)]"), "Map[K, (A, B)]");
        assert_eq!(ty("A => B => C"), "(A) => (B) => C");
        assert_eq!(ty("A =:= B"), "=:=[A, B]");
        assert_eq!(ty("List[_ <: T]"), "List[_ <: T]");
        assert_eq!(ty("C[A]^{f} -> B"), "(C[A]) => B");
        assert_eq!(ty("Int => (Int => Int)"), "(Int) => (Int) => Int");
        assert_eq!(ty("[t] => t => F[t]"), "[t] => (t) => F[t]");
        // a context function stays one (never the plain function it is not)
        assert_eq!(ty("Label[T] ?=> T"), "(Label[T]) ?=> T");
        assert_eq!(ty("(A, B) ?=> C"), "(A, B) ?=> C");
        assert_eq!(ty("A ?-> B"), "(A) ?=> B");
        assert_eq!(ty("A => B ?=> C"), "(A) => (B) ?=> C");
        assert_eq!(path_fqn("scala/$less$colon$less$.html"), "scala.<:<");
        assert_eq!(
            path_fqn("scala/Enumeration$Value.html"),
            "scala.Enumeration.Value"
        );
        assert_eq!(
            path_fqn("scala/languageFeature$$postfixOps$.html"),
            "scala.languageFeature.postfixOps"
        );
    }
}
