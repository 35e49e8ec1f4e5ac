//! The layout of Dokka HTML (Kotlin libraries' `-javadoc.jar`, Dokka 1.x/2.x): one
//! `index.html` per package (`<module>/<package>/index.html`) and per class-like
//! (`<module>/<package>/-outer/-inner/index.html`, kebab-case: `-` before each capital),
//! each with a `div.breadcrumbs` trail (module / package / class …), a `div.cover` holding the
//! declaration's `div.symbol`, and `div.tabs-section-body > div[data-togglable]` sections
//! (`CONSTRUCTOR`, `PROPERTY`, `FUNCTION`, `ENTRY`, `TYPE`, `EXTENSION_*`) of `div.table-row`s,
//! each row with its member's signatures (`div.title div.symbol`, one per overload and
//! source set).
//!
//! Detection: the page sets `var pathToRoot =` and names Dokka (`dokka-dark-mode`,
//! `sourceset_dependencies.js` or a `dokka` generator).
//!
//! A member is the page's own when its row's name link points to a page in the same folder
//! (`call.html`); members inherited (linked to a supertype's page, or with a `#fragment`) and
//! extensions declared elsewhere are not read. Member pages (`call.html`) are not class pages.
//!
//! Types are resolved from their links: a Dokka path (`…/io.ktor.http/-url/index.html`, also on
//! an external site such as the Kotlin standard library's) gives the package (the folder
//! before the class folders) and the classes (folders starting with `-`, decoded); a javadoc
//! path (`…/java/io/File.html`) gives the package folders and the class; an unresolved link
//! (`span[data-unresolved-link="pkg/Outer.Inner///…"]`) names both. Unlinked names are type
//! variables in scope, Kotlin builtins (`String` → `kotlin.String`) or are kept as printed.
//!
//! The Kotlin view written (`"language": "kotlin"`, as the Kotlin samples of thalia's API JSON):
//! top-level functions and properties in a document named after the package with
//! `"is_class": false`; properties as `fields` (`is_final` for `val`); extension receivers in
//! `receiver`; `other_metadata` with `is_suspend`, `is_inline`, `is_operator` and `defaults`
//! (one boolean per parameter: it has a default value). Objects and companion objects are
//! documents of their own (`pkg.Outer.Companion`, with `parent`), marked
//! `"kotlin_object": true` (`"companion"` for a companion), whose members are static (called
//! on the object's name) and which have no constructor; enum entries are static final fields
//! with `is_enum_constant`, and an enum's `entries`, `values()` and `valueOf()` are static.
//! Type aliases are not documents (their name resolves to the alias, kept as printed);
//! definitely-non-null types `T & Any` are written `T`.

use super::sel;
use scraper::{ElementRef, Html, Node, Selector};

use crate::schema::{
    ClassDoc, FieldDoc, KotlinClassFacts, KotlinObjectMark, MethodDoc, MethodMetadata,
    ParamDefaults,
};

/// Whether a page is of this layout.
pub(crate) fn detect(head: &str) -> bool {
    head.contains("var pathToRoot =")
        && (head.contains("dokka")
            || head.contains("sourceset_dependencies.js")
            || head.contains("Dokka"))
}

/// Compiled selectors of Dokka pages.
pub(crate) struct Dokka {
    crumbs: Selector,
    cover_symbol: Selector,
    sections: Selector,
    rows: Selector,
    row_link: Selector,
    row_symbols: Selector,
}

/// The simple names of the Kotlin builtins (package `kotlin`, `kotlin.collections`) that
/// unlinked names may mean.
const BUILTINS: &[(&str, &str)] = &[
    ("Any", "kotlin"),
    ("Unit", "kotlin"),
    ("Nothing", "kotlin"),
    ("String", "kotlin"),
    ("CharSequence", "kotlin"),
    ("Boolean", "kotlin"),
    ("Byte", "kotlin"),
    ("Short", "kotlin"),
    ("Int", "kotlin"),
    ("Long", "kotlin"),
    ("Float", "kotlin"),
    ("Double", "kotlin"),
    ("Char", "kotlin"),
    ("Number", "kotlin"),
    ("Array", "kotlin"),
    ("IntArray", "kotlin"),
    ("LongArray", "kotlin"),
    ("ByteArray", "kotlin"),
    ("CharArray", "kotlin"),
    ("BooleanArray", "kotlin"),
    ("DoubleArray", "kotlin"),
    ("FloatArray", "kotlin"),
    ("ShortArray", "kotlin"),
    ("Throwable", "kotlin"),
    ("Exception", "kotlin"),
    ("Comparable", "kotlin"),
    ("Enum", "kotlin"),
    ("Annotation", "kotlin"),
    ("Pair", "kotlin"),
    ("Triple", "kotlin"),
    ("Result", "kotlin"),
    ("Lazy", "kotlin"),
    ("List", "kotlin.collections"),
    ("MutableList", "kotlin.collections"),
    ("Set", "kotlin.collections"),
    ("MutableSet", "kotlin.collections"),
    ("Map", "kotlin.collections"),
    ("MutableMap", "kotlin.collections"),
    ("Collection", "kotlin.collections"),
    ("MutableCollection", "kotlin.collections"),
    ("Iterable", "kotlin.collections"),
    ("MutableIterable", "kotlin.collections"),
    ("Iterator", "kotlin.collections"),
    ("MutableIterator", "kotlin.collections"),
    ("ListIterator", "kotlin.collections"),
    ("Sequence", "kotlin.sequences"),
];

/// The modifiers that may precede a declaration's keyword.
const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "internal",
    "private",
    "open",
    "abstract",
    "final",
    "override",
    "suspend",
    "inline",
    "operator",
    "infix",
    "tailrec",
    "external",
    "const",
    "lateinit",
    "data",
    "sealed",
    "inner",
    "value",
    "expect",
    "actual",
    "companion",
    "enum",
    "annotation",
    "fun",
];

/// A token of a flattened signature.
#[derive(Clone, Debug, PartialEq)]
enum KTok {
    /// An identifier or keyword as printed.
    Word(String),
    /// A linked type: its fully-qualified name and the printed text.
    Ref(String, String),
    /// Punctuation (`<`, `>`, `(`, `)`, `,`, `:`, `.`, `?`, `*`, `=`, `@`, `&`, …).
    P(char),
    /// `->`.
    Arrow,
    /// One parameter of a `span.parameters` list: its tokens (without the default value)
    /// and whether it has a default value.
    Param(Vec<KTok>, bool),
}

/// Decodes a Dokka file name (`-u-r-l-builder` → `URLBuilder`).
pub(crate) fn decode_kebab(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut up = false;
    for c in s.chars() {
        if c == '-' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Encodes a name as Dokka's file names do (`URLBuilder` → `-u-r-l-builder`).
fn encode_kebab(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        if c.is_uppercase() {
            out.push('-');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_alphabetic() || f == '_')
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Joins a relative link to the folder of `base` (segments of the page's path).
fn join(base: &[String], href: &str) -> Vec<String> {
    let mut parts: Vec<String> = base.to_vec();
    parts.pop();
    for seg in href.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s.to_string()),
        }
    }
    parts
}

/// The fully-qualified class a path points to: a Dokka class page
/// (`…/pkg/-outer/-inner/index.html`) or a javadoc class page (`…/java/util/Map.Entry.html`).
pub(crate) fn path_fqn(segs: &[String]) -> Option<String> {
    let (last, dirs) = segs.split_last()?;
    if last == "index.html" {
        let classes: Vec<&String> = dirs
            .iter()
            .rev()
            .take_while(|s| s.starts_with('-'))
            .collect();
        if classes.is_empty() {
            return None;
        }
        let pkg = dirs.get(dirs.len() - classes.len() - 1)?;
        let chain: Vec<String> = classes.iter().rev().map(|s| decode_kebab(s)).collect();
        let chain = chain.join(".");
        return Some(if pkg == "[root]" || pkg.is_empty() {
            chain
        } else {
            format!("{pkg}.{chain}")
        });
    }
    let stem = last.strip_suffix(".html")?;
    if !stem.starts_with(|c: char| c.is_uppercase()) || !stem.split('.').all(is_ident) {
        return None;
    }
    let pkg: Vec<&str> = dirs
        .iter()
        .rev()
        .take_while(|s| is_ident(s) && s.as_str() != "api" && s.starts_with(char::is_lowercase))
        .map(String::as_str)
        .collect();
    let mut pkg: Vec<&str> = pkg.into_iter().rev().collect();
    pkg.push(stem);
    Some(pkg.join("."))
}

/// The class a Dokka DRI (`io.ktor.util/Attributes///PointingToDeclaration/`) names.
fn dri_fqn(dri: &str) -> Option<String> {
    if dri.contains("PointingToGenericParameters") {
        return None;
    }
    let mut parts = dri.split('/');
    let pkg = parts.next()?;
    let classes = parts.next()?;
    if classes.is_empty() || !classes.split('.').all(is_ident) {
        return None;
    }
    Some(if pkg.is_empty() || pkg == "[root]" {
        classes.to_string()
    } else {
        format!("{pkg}.{classes}")
    })
}

/// Splits printed text into tokens.
fn lex(s: &str, out: &mut Vec<KTok>) {
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && cs.get(i + 1) == Some(&'>') {
            out.push(KTok::Arrow);
            i += 2;
        } else if c == '`' {
            let mut j = i + 1;
            while j < cs.len() && cs[j] != '`' {
                j += 1;
            }
            out.push(KTok::Word(cs[i + 1..j.min(cs.len())].iter().collect()));
            i = j + 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let mut j = i;
            while j < cs.len() && (cs[j].is_alphanumeric() || cs[j] == '_' || cs[j] == '$') {
                j += 1;
            }
            out.push(KTok::Word(cs[i..j].iter().collect()));
            i = j;
        } else if c == '"' {
            // a string literal (in a default value or an annotation): skipped whole
            let mut j = i + 1;
            while j < cs.len() && cs[j] != '"' {
                j += if cs[j] == '\\' { 2 } else { 1 };
            }
            out.push(KTok::Word("\"…\"".into()));
            i = j + 1;
        } else {
            out.push(KTok::P(c));
            i += 1;
        }
    }
}

/// How the links of one page resolve.
struct Links {
    /// The page's path segments (from the documentation's root, made up from its breadcrumbs).
    page: Vec<String>,
}

impl Links {
    /// The class a link names, if it names one.
    /// A link into a page (`-route/index.html#643780610%2FMain`) names the page's class too;
    /// a member's name linked into its class's page is told apart by its text.
    fn resolve(&self, href: &str) -> Option<String> {
        let href = href.split(['#', '?']).next().unwrap_or(href);
        let segs: Vec<String> = if let Some((_, rest)) = href.split_once("://") {
            rest.split('/').skip(1).map(str::to_string).collect()
        } else {
            join(&self.page, href)
        };
        path_fqn(&segs)
    }
}

/// The deepest markup flattened (hostile input): deeper elements become a token no parser
/// accepts.
const MAX_MARKUP_DEPTH: usize = 128;

/// Flattens a signature element into tokens.
fn flatten(e: ElementRef<'_>, links: &Links, out: &mut Vec<KTok>) {
    flatten_at(e, links, out, 0)
}

fn flatten_at(e: ElementRef<'_>, links: &Links, out: &mut Vec<KTok>, depth: usize) {
    if depth > MAX_MARKUP_DEPTH {
        out.push(KTok::P('\u{0}'));
        return;
    }
    for child in e.children() {
        match child.value() {
            Node::Text(t) => lex(t, out),
            Node::Element(el) => {
                let Some(ce) = ElementRef::wrap(child) else {
                    continue;
                };
                let classes: Vec<&str> = el.classes().collect();
                if classes.contains(&"source-link-wrapper") || classes.contains(&"brief") {
                    continue;
                }
                if el.name() == "div" && classes.contains(&"block") {
                    // an annotation line (`@JvmName(…)`): kept only as `@Name`
                    let mut toks = Vec::new();
                    flatten_at(ce, links, &mut toks, depth + 1);
                    if toks.first() == Some(&KTok::P('@')) {
                        out.extend(toks.into_iter().take(2));
                        continue;
                    }
                    out.extend(toks);
                    continue;
                }
                if classes.contains(&"parameter") {
                    let mut toks = Vec::new();
                    let mut default = false;
                    for pc in ce.children() {
                        if let Some(pe) = ElementRef::wrap(pc) {
                            let text: String = pe.text().collect();
                            if pe.value().classes().any(|c| c == "operator") && text.trim() == "=" {
                                default = true;
                                break;
                            }
                            let mut one = Vec::new();
                            flatten_node(pe, links, &mut one, depth + 1);
                            toks.extend(one);
                        } else if let Node::Text(t) = pc.value() {
                            lex(t, &mut toks);
                        }
                    }
                    while toks.last() == Some(&KTok::P(',')) {
                        toks.pop();
                    }
                    out.push(KTok::Param(toks, default));
                    continue;
                }
                flatten_node(ce, links, out, depth + 1);
            }
            _ => {}
        }
    }
}

/// Flattens one element (a link, an unresolved link, or a container).
fn flatten_node(e: ElementRef<'_>, links: &Links, out: &mut Vec<KTok>, depth: usize) {
    let v = e.value();
    let text = || e.text().collect::<String>().trim().to_string();
    if v.name() == "a" {
        if let Some(fqn) = v.attr("href").and_then(|h| links.resolve(h)) {
            let t = text();
            let last = fqn.rsplit('.').next().unwrap_or(&fqn);
            if is_ident(&t) && t != last {
                // a type parameter links to its declaring page (`<a href="index.html">T</a>`),
                // an inherited member to its class's page
                out.push(KTok::Word(t));
            } else {
                out.push(KTok::Ref(fqn, t));
            }
        } else {
            lex(&text(), out);
        }
        return;
    }
    if let Some(dri) = v.attr("data-unresolved-link") {
        if let Some(fqn) = dri_fqn(dri) {
            out.push(KTok::Ref(fqn, text()));
            return;
        }
    }
    if v.classes().any(|c| c == "parameter") {
        // a lone parameter (not inside `span.parameters`)
        let mut toks = Vec::new();
        flatten_at(e, links, &mut toks, depth);
        out.extend(toks);
        return;
    }
    flatten_at(e, links, out, depth);
}

/// A parsed Kotlin type.
#[derive(Clone, Debug, PartialEq)]
enum KType {
    /// A named type with its arguments; `None` arguments are a star projection.
    Named(String, Vec<(Option<&'static str>, Option<KType>)>),
    Func {
        suspend: bool,
        receiver: Option<Box<KType>>,
        params: Vec<KType>,
        ret: Box<KType>,
    },
    Nullable(Box<KType>),
}

/// Renders a type in Kotlin syntax with fully-qualified names.
fn render(t: &KType) -> String {
    match t {
        KType::Named(n, args) => {
            if args.is_empty() {
                n.clone()
            } else {
                let a: Vec<String> = args
                    .iter()
                    .map(|(v, t)| match (v, t) {
                        (_, None) => "*".to_string(),
                        (Some(v), Some(t)) => format!("{v} {}", render(t)),
                        (None, Some(t)) => render(t),
                    })
                    .collect();
                format!("{n}<{}>", a.join(", "))
            }
        }
        KType::Func {
            suspend,
            receiver,
            params,
            ret,
        } => {
            let p: Vec<String> = params.iter().map(render).collect();
            let recv = match receiver {
                Some(r) => match **r {
                    KType::Func { .. } => format!("({}).", render(r)),
                    _ => format!("{}.", render(r)),
                },
                None => String::new(),
            };
            format!(
                "{}{recv}({}) -> {}",
                if *suspend { "suspend " } else { "" },
                p.join(", "),
                render(ret)
            )
        }
        KType::Nullable(inner) => match **inner {
            KType::Func { .. } => format!("({})?", render(inner)),
            _ => format!("{}?", render(inner)),
        },
    }
}

/// A type parameter before its bound is parsed: modifiers, name, the bound's tokens.
type RawTypeParam = (Vec<&'static str>, String, Option<Vec<KTok>>);

/// A parser over a flattened signature.
struct Parser<'a> {
    toks: &'a [KTok],
    pos: usize,
    /// Type variables in scope.
    vars: Vec<String>,
    depth: usize,
}

/// The deepest nesting of types parsed (hostile input).
const MAX_DEPTH: usize = 64;

impl<'a> Parser<'a> {
    fn new(toks: &'a [KTok], vars: Vec<String>) -> Self {
        Parser {
            toks,
            pos: 0,
            vars,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<&'a KTok> {
        self.toks.get(self.pos)
    }

    fn eat_p(&mut self, c: char) -> bool {
        if self.peek() == Some(&KTok::P(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(KTok::Word(x)) if x == w) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_p(&mut self, c: char) -> Result<(), String> {
        if self.eat_p(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}` at {}", self.show()))
        }
    }

    /// The tokens from the current position, for messages.
    fn show(&self) -> String {
        let rest: Vec<String> = self.toks[self.pos.min(self.toks.len())..]
            .iter()
            .take(6)
            .map(|t| match t {
                KTok::Word(w) => w.clone(),
                KTok::Ref(_, t) => t.clone(),
                KTok::P(c) => c.to_string(),
                KTok::Arrow => "->".into(),
                KTok::Param(..) => "<param>".into(),
            })
            .collect();
        if rest.is_empty() {
            "the end".into()
        } else {
            format!("`{}`", rest.join(" "))
        }
    }

    /// Skips annotations (`@Name`, `@Name(…)`).
    fn skip_annotations(&mut self) {
        while self.eat_p('@') {
            if matches!(self.peek(), Some(KTok::Word(_) | KTok::Ref(..))) {
                self.pos += 1;
            }
            while self.eat_p('.') {
                self.pos += 1;
            }
            if self.peek() == Some(&KTok::P('(')) {
                let mut d = 0usize;
                while let Some(t) = self.peek() {
                    self.pos += 1;
                    match t {
                        KTok::P('(') => d += 1,
                        KTok::P(')') => {
                            d -= 1;
                            if d == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn ty(&mut self) -> Result<KType, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("types nested deeper than {MAX_DEPTH}"));
        }
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self) -> Result<KType, String> {
        self.skip_annotations();
        let suspend = self.eat_word("suspend");
        self.skip_annotations();
        let base = if self.peek() == Some(&KTok::P('(')) {
            let save = self.pos;
            let params = self.paren_types()?;
            if self.peek() == Some(&KTok::Arrow) {
                self.pos += 1;
                let ret = self.ty()?;
                return Ok(KType::Func {
                    suspend,
                    receiver: None,
                    params,
                    ret: Box::new(ret),
                });
            }
            if params.len() != 1 {
                self.pos = save;
                return Err(format!("expected `->` after {}", self.show()));
            }
            params.into_iter().next().ok_or("empty parentheses")?
        } else {
            self.named()?
        };
        let mut t = base;
        loop {
            if self.eat_p('?') {
                t = KType::Nullable(Box::new(t));
            } else if self.peek() == Some(&KTok::P('&')) {
                // `T & Any` (definitely non-null): written `T`
                self.pos += 1;
                self.named()?;
            } else {
                break;
            }
        }
        // `R.(A) -> B`
        if self.peek() == Some(&KTok::P('.')) && self.toks.get(self.pos + 1) == Some(&KTok::P('('))
        {
            self.pos += 1;
            let params = self.paren_types()?;
            if self.peek() != Some(&KTok::Arrow) {
                return Err(format!("expected `->` at {}", self.show()));
            }
            self.pos += 1;
            let ret = self.ty()?;
            return Ok(KType::Func {
                suspend,
                receiver: Some(Box::new(t)),
                params,
                ret: Box::new(ret),
            });
        }
        if suspend {
            return Err("`suspend` before a type that is not a function type".into());
        }
        Ok(t)
    }

    /// `(T, name: U, …)`.
    fn paren_types(&mut self) -> Result<Vec<KType>, String> {
        self.expect_p('(')?;
        let mut out = Vec::new();
        if self.eat_p(')') {
            return Ok(out);
        }
        loop {
            if matches!(self.peek(), Some(KTok::Word(_)))
                && self.toks.get(self.pos + 1) == Some(&KTok::P(':'))
            {
                self.pos += 2;
            }
            out.push(self.ty()?);
            if !self.eat_p(',') {
                break;
            }
        }
        self.expect_p(')')?;
        Ok(out)
    }

    /// A name (linked or printed, `Outer.Inner`) with its type arguments.
    fn named(&mut self) -> Result<KType, String> {
        let mut name = match self.peek() {
            Some(KTok::Ref(fqn, _)) => {
                self.pos += 1;
                fqn.clone()
            }
            Some(KTok::Word(w)) if is_ident(w) => {
                self.pos += 1;
                if self.vars.contains(w) {
                    w.clone()
                } else if let Some((_, p)) = BUILTINS.iter().find(|(n, _)| n == w) {
                    format!("{p}.{w}")
                } else {
                    w.clone()
                }
            }
            _ => return Err(format!("expected a type at {}", self.show())),
        };
        // `Outer.Inner` printed as several parts
        while self.peek() == Some(&KTok::P('.')) {
            match self.toks.get(self.pos + 1) {
                Some(KTok::Ref(fqn, _)) => {
                    name = fqn.clone();
                    self.pos += 2;
                }
                Some(KTok::Word(w)) if is_ident(w) => {
                    name = format!("{name}.{w}");
                    self.pos += 2;
                }
                _ => break,
            }
        }
        let mut args = Vec::new();
        if self.eat_p('<') {
            loop {
                if self.eat_p('*') {
                    args.push((None, None));
                } else {
                    let v = if self.eat_word("out") {
                        Some("out")
                    } else if self.eat_word("in") {
                        Some("in")
                    } else {
                        None
                    };
                    args.push((v, Some(self.ty()?)));
                }
                if !self.eat_p(',') {
                    break;
                }
            }
            self.expect_p('>')?;
            // `Outer<A>.Inner`
            if self.peek() == Some(&KTok::P('.'))
                && matches!(
                    self.toks.get(self.pos + 1),
                    Some(KTok::Ref(..) | KTok::Word(_))
                )
                && self.toks.get(self.pos + 2) != Some(&KTok::P('('))
            {
                return Err(
                    "member type of a parameterized type (`Outer<A>.Inner`) is not supported"
                        .into(),
                );
            }
        }
        Ok(KType::Named(name, args))
    }

    /// `<reified out T : Bound, …>`: the declarations and their names.
    fn type_params(&mut self) -> Result<Vec<(String, String)>, String> {
        let mut out = Vec::new();
        if !self.eat_p('<') {
            return Ok(out);
        }
        let mut raw: Vec<RawTypeParam> = Vec::new();
        let start = self.pos;
        // first pass: names (bounds may mention later parameters)
        loop {
            self.skip_annotations();
            let mut mods = Vec::new();
            loop {
                if self.eat_word("reified") {
                    mods.push("reified");
                } else if self.eat_word("out") {
                    mods.push("out");
                } else if self.eat_word("in") {
                    mods.push("in");
                } else {
                    break;
                }
            }
            let name = match self.peek() {
                Some(KTok::Word(w)) => w.clone(),
                Some(KTok::Ref(_, t)) => t.clone(),
                _ => return Err(format!("expected a type parameter at {}", self.show())),
            };
            self.pos += 1;
            let bound = if self.eat_p(':') {
                let b0 = self.pos;
                let mut d = 0i32;
                while let Some(t) = self.peek() {
                    match t {
                        KTok::P('<') | KTok::P('(') => d += 1,
                        KTok::P(')') => d -= 1,
                        KTok::P('>') if d == 0 => break,
                        KTok::P('>') => d -= 1,
                        KTok::P(',') if d == 0 => break,
                        _ => {}
                    }
                    self.pos += 1;
                }
                Some(self.toks[b0..self.pos].to_vec())
            } else {
                None
            };
            raw.push((mods, name, bound));
            if !self.eat_p(',') {
                break;
            }
        }
        self.expect_p('>')?;
        let _ = start;
        let mut vars = self.vars.clone();
        vars.extend(raw.iter().map(|(_, n, _)| n.clone()));
        for (mods, name, bound) in raw {
            let mut s = mods.join(" ");
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&name);
            if let Some(b) = bound {
                let mut p = Parser::new(&b, vars.clone());
                let t = p.ty()?;
                if p.pos != b.len() {
                    return Err(format!("unexpected {} in a bound", p.show()));
                }
                s.push_str(" : ");
                s.push_str(&render(&t));
            }
            out.push((s, name));
        }
        Ok(out)
    }
}

/// A declaration read from a signature.
#[derive(Debug, Default)]
struct Decl {
    mods: Vec<String>,
    /// `class`, `interface`, `object`, `enum`, `typealias`, `fun`, `val`, `var`, `constructor`.
    keyword: String,
    name: String,
    /// Type-parameter declarations and names.
    tparams: Vec<(String, String)>,
    receiver: Option<String>,
    /// Parameters: rendered type (`vararg T` for a vararg) and whether it has a default.
    params: Vec<(String, bool, bool)>,
    ty: Option<String>,
    supertypes: Vec<String>,
    deprecated: bool,
}

/// Parses a declaration. `vars` are the type variables of the enclosing class.
fn parse_decl(toks: &[KTok], vars: &[String]) -> Result<Decl, String> {
    let mut d = Decl::default();
    let mut p = Parser::new(toks, vars.to_vec());
    // annotations
    while p.peek() == Some(&KTok::P('@')) {
        if let Some(KTok::Word(n) | KTok::Ref(n, _)) = p.toks.get(p.pos + 1) {
            if n == "Deprecated" || n == "kotlin.Deprecated" {
                d.deprecated = true;
            }
        }
        p.skip_annotations();
    }
    loop {
        match p.peek() {
            Some(KTok::Word(w))
                if MODIFIERS.contains(&w.as_str())
                    && (w != "fun"
                        || matches!(p.toks.get(p.pos + 1), Some(KTok::Word(x)) if x == "interface")) =>
            {
                d.mods.push(w.clone());
                p.pos += 1;
            }
            Some(KTok::Word(w)) if w == "enum" || w == "annotation" => {
                d.mods.push(w.clone());
                p.pos += 1;
            }
            _ => break,
        }
    }
    let kw = match p.peek() {
        Some(KTok::Word(w))
            if matches!(
                w.as_str(),
                "class"
                    | "interface"
                    | "object"
                    | "typealias"
                    | "fun"
                    | "val"
                    | "var"
                    | "constructor"
            ) =>
        {
            p.pos += 1;
            w.clone()
        }
        // `enum Name` (Dokka prints no `class` after `enum`)
        _ if d.mods.iter().any(|m| m == "enum" || m == "annotation") => "class".into(),
        _ => return Err(format!("expected a declaration keyword at {}", p.show())),
    };
    d.keyword = kw.clone();
    match kw.as_str() {
        "class" | "interface" | "object" | "typealias" => {
            d.name = match p.peek() {
                Some(KTok::Word(w)) => w.clone(),
                Some(KTok::Ref(_, t)) => t.clone(),
                _ => return Err(format!("expected a class name at {}", p.show())),
            };
            p.pos += 1;
            d.tparams = p.type_params()?;
            if kw == "typealias" {
                return Ok(d);
            }
            p.vars.extend(d.tparams.iter().map(|(_, n)| n.clone()));
            // `class A private constructor(…)`
            p.eat_word("constructor");
            if p.peek() == Some(&KTok::P('(')) {
                // the primary constructor's parameters (read from its own row)
                let mut depth = 0usize;
                while let Some(t) = p.peek() {
                    p.pos += 1;
                    match t {
                        KTok::P('(') => depth += 1,
                        KTok::P(')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                if depth != 0 {
                    return Err("unclosed `(` of the primary constructor".into());
                }
            }
            if p.eat_p(':') {
                loop {
                    let t = p.ty()?;
                    d.supertypes.push(render(&t));
                    if p.peek() == Some(&KTok::P('(')) {
                        // a superclass constructor call
                        let mut dd = 0usize;
                        while let Some(t) = p.peek() {
                            p.pos += 1;
                            match t {
                                KTok::P('(') => dd += 1,
                                KTok::P(')') => {
                                    dd -= 1;
                                    if dd == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    if !p.eat_p(',') {
                        break;
                    }
                }
            }
            Ok(d)
        }
        _ => {
            d.tparams = p.type_params()?;
            p.vars.extend(d.tparams.iter().map(|(_, n)| n.clone()));
            if kw != "constructor" {
                // [Receiver.]name
                let stop = |t: &KTok| {
                    if kw == "fun" {
                        matches!(t, KTok::P('('))
                    } else {
                        matches!(t, KTok::P(':'))
                    }
                };
                // the name is the last word before the parameter list / the `:`
                let start = p.pos;
                let mut i = start;
                let mut depth = 0i32;
                if p.toks.get(i) == Some(&KTok::P('(')) {
                    // a parenthesized receiver
                    while let Some(t) = p.toks.get(i) {
                        match t {
                            KTok::P('(') => depth += 1,
                            KTok::P(')') => depth -= 1,
                            _ => {}
                        }
                        i += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                }
                while let Some(t) = p.toks.get(i) {
                    match t {
                        KTok::P('<') | KTok::P('(') if depth > 0 || !stop(t) => depth += 1,
                        KTok::P('>') | KTok::P(')') => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 && stop(t) {
                        break;
                    }
                    i += 1;
                }
                if i == start || i > p.toks.len() {
                    return Err(format!("no member name in {}", p.show()));
                }
                let name_at = i - 1;
                d.name = match &p.toks[name_at] {
                    KTok::Word(w) => w.clone(),
                    KTok::Ref(_, t) => t.clone(),
                    _ => return Err(format!("no member name before {}", p.show())),
                };
                if name_at > start {
                    if p.toks[name_at - 1] != KTok::P('.') {
                        return Err(format!("unexpected {} before the member name", p.show()));
                    }
                    let recv = &p.toks[start..name_at - 1];
                    let mut rp = Parser::new(recv, p.vars.clone());
                    let t = rp.ty()?;
                    if rp.pos != recv.len() {
                        return Err(format!("unexpected {} in a receiver", rp.show()));
                    }
                    d.receiver = Some(render(&t));
                }
                p.pos = name_at + 1;
            }
            if kw == "fun" || kw == "constructor" {
                p.expect_p('(')?;
                while let Some(KTok::Param(toks, default)) = p.peek() {
                    p.pos += 1;
                    d.params.push(parse_param(toks, *default, &p.vars)?);
                }
                // a parameter list printed without `span.parameter`s
                if p.peek() != Some(&KTok::P(')')) {
                    let mut cur: Vec<KTok> = Vec::new();
                    let mut depth = 0i32;
                    while let Some(t) = p.peek() {
                        match t {
                            KTok::P('(') | KTok::P('<') => depth += 1,
                            KTok::P('>') => depth -= 1,
                            KTok::P(')') if depth == 0 => break,
                            KTok::P(')') => depth -= 1,
                            KTok::P(',') if depth == 0 => {
                                d.params.push(parse_param(&cur, false, &p.vars)?);
                                cur.clear();
                                p.pos += 1;
                                continue;
                            }
                            _ => {}
                        }
                        cur.push(t.clone());
                        p.pos += 1;
                    }
                    if !cur.is_empty() {
                        d.params.push(parse_param(&cur, false, &p.vars)?);
                    }
                }
                p.expect_p(')')?;
            }
            if kw == "constructor" {
                return Ok(d);
            }
            if p.eat_p(':') {
                let t = p.ty()?;
                d.ty = Some(render(&t));
            } else if kw == "fun" {
                d.ty = Some("kotlin.Unit".into());
            } else {
                return Err(format!("property `{}` without a type", d.name));
            }
            if p.eat_word("where") {
                // `where T : A, T : B`: the first bound of each variable is kept
                while let Some(KTok::Word(v)) = p.peek().cloned() {
                    p.pos += 1;
                    p.expect_p(':')?;
                    let b = render(&p.ty()?);
                    if let Some(tp) = d.tparams.iter_mut().find(|(_, n)| *n == v) {
                        if !tp.0.contains(" : ") {
                            tp.0 = format!("{} : {b}", tp.0);
                        }
                    }
                    if !p.eat_p(',') {
                        break;
                    }
                }
            }
            // `= value` of a constant, `by …` of a delegate
            Ok(d)
        }
    }
}

/// A parameter: `[val] [vararg|noinline|crossinline] name: Type`. Returns the rendered type
/// (`vararg T` for a vararg), whether it has a default, whether it is a vararg.
fn parse_param(
    toks: &[KTok],
    default: bool,
    vars: &[String],
) -> Result<(String, bool, bool), String> {
    let mut p = Parser::new(toks, vars.to_vec());
    p.skip_annotations();
    let mut vararg = false;
    loop {
        if p.eat_word("val")
            || p.eat_word("var")
            || p.eat_word("noinline")
            || p.eat_word("crossinline")
        {
        } else if p.eat_word("vararg") {
            vararg = true;
        } else {
            break;
        }
        p.skip_annotations();
    }
    if matches!(p.peek(), Some(KTok::Word(_))) && p.toks.get(p.pos + 1) == Some(&KTok::P(':')) {
        p.pos += 2;
    } else {
        return Err(format!("expected a parameter `name: Type` at {}", p.show()));
    }
    let t = p.ty()?;
    // a default value printed inside the parameter
    if p.pos < toks.len() && toks[p.pos] != KTok::P('=') {
        return Err(format!("unexpected {} in a parameter", p.show()));
    }
    let default = default || p.pos < toks.len();
    let r = render(&t);
    Ok((
        if vararg { format!("vararg {r}") } else { r },
        default,
        vararg,
    ))
}

/// What a class page is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// A package's top-level declarations.
    Package,
    Class,
    Interface,
    Object,
    Companion,
    Enum,
}

impl Dokka {
    /// Compiles the selectors.
    pub(crate) fn new() -> Self {
        Dokka {
            crumbs: sel("div.breadcrumbs > a, div.breadcrumbs > span.current"),
            cover_symbol: sel("div.cover div.symbol"),
            sections: sel("div.tabs-section-body > div[data-togglable]"),
            rows: sel("div.table > div.table-row"),
            row_link: sel("div.main-subrow a[href]"),
            row_symbols: sel("div.title div.symbol"),
        }
    }

    /// Reads a page: `None` when it documents no class-like and no package (a module's
    /// index, a member's page, a type alias).
    pub(crate) fn read(&self, doc: &Html) -> Result<Option<(ClassDoc, Vec<String>)>, String> {
        let crumbs: Vec<String> = doc
            .select(&self.crumbs)
            .map(|e| e.text().collect::<String>().trim().to_string())
            .collect();
        if crumbs.len() < 2 {
            return Ok(None);
        }
        let pkg = crumbs[1].clone();
        let pkg = if pkg == "[root]" { String::new() } else { pkg };
        let chain: Vec<String> = crumbs[2..].to_vec();
        let mut page: Vec<String> = vec![
            "module".into(),
            if pkg.is_empty() {
                "[root]".into()
            } else {
                pkg.clone()
            },
        ];
        page.extend(chain.iter().map(|c| encode_kebab(c)));
        page.push("index.html".into());
        let links = Links { page };
        let mut skipped = Vec::new();

        if chain.is_empty() {
            if pkg.is_empty() {
                return Err("top-level declarations of the root package are not read".into());
            }
            let (methods, fields) =
                self.members(doc, &links, &[], Owner::Package, &pkg, &mut skipped);
            if methods.is_empty() && fields.is_empty() {
                return Ok(None);
            }
            let d = ClassDoc {
                name: pkg,
                type_parameters: Some(Vec::new()),
                implements: None,
                inherits: None,
                class_type: None,
                methods: Some(methods),
                fields: Some(fields),
                functional_interface: None,
                parent: None,
                access_mod: None,
                language: Some("kotlin".into()),
                is_class: Some(false),
                deprecated: None,
                is_kotlin: None,
                is_inner: None,
                is_sealed: None,
                preview: None,
                kotlin: Default::default(),
                scala: Default::default(),
                not_null_type_parameters: None,
                extra: Default::default(),
            };
            return Ok(Some((d, skipped)));
        }

        let Some(cover) = doc.select(&self.cover_symbol).next() else {
            // a member's page (`call.html`) listing overloads
            return Ok(None);
        };
        let mut toks = Vec::new();
        flatten(cover, &links, &mut toks);
        let word = |ws: &[&str]| {
            toks.iter()
                .any(|t| matches!(t, KTok::Word(w) if ws.contains(&w.as_str())))
        };
        let class_kw = word(&[
            "class",
            "interface",
            "object",
            "enum",
            "annotation",
            "typealias",
        ]);
        // a member's page (`call.html`) also has breadcrumbs, and an enum entry's page
        // (`-g-z-i-p/index.html`) shows only the entry's name: not classes
        if !class_kw {
            return Ok(None);
        }
        let decl = parse_decl(&toks, &[]).map_err(|e| format!("class declaration: {e}"))?;
        if decl.keyword == "typealias" {
            return Ok(None);
        }
        let simple = chain.last().cloned().unwrap_or_default();
        if decl.name != simple {
            return Err(format!(
                "declaration names `{}` but the page is `{simple}`",
                decl.name
            ));
        }
        let chain_name = chain.join(".");
        let fqn = if pkg.is_empty() {
            chain_name.clone()
        } else {
            format!("{pkg}.{chain_name}")
        };
        let parent = (chain.len() > 1).then(|| {
            let outer = chain[..chain.len() - 1].join(".");
            if pkg.is_empty() {
                outer
            } else {
                format!("{pkg}.{outer}")
            }
        });
        let has = |m: &str| decl.mods.iter().any(|x| x == m);
        let owner = match decl.keyword.as_str() {
            "interface" => Owner::Interface,
            // Dokka prints a companion's page as `object Companion`: a companion with
            // another name is read as a plain object (the same members, static)
            "object" if has("companion") || decl.name == "Companion" => Owner::Companion,
            "object" => Owner::Object,
            _ if has("enum") => Owner::Enum,
            _ => Owner::Class,
        };
        let class_type = match owner {
            Owner::Interface => 1,
            Owner::Enum => 3,
            _ if has("annotation") => 1,
            _ if has("abstract") || has("sealed") => 2,
            _ => 0,
        };
        let vars: Vec<String> = if owner == Owner::Companion || owner == Owner::Object {
            Vec::new()
        } else {
            decl.tparams.iter().map(|(_, n)| n.clone()).collect()
        };
        // a companion may use its outer class's name unqualified: nothing to add (links)
        let (methods, mut fields) = self.members(doc, &links, &vars, owner, &fqn, &mut skipped);
        let kotlin = KotlinClassFacts {
            kotlin_object: match owner {
                Owner::Object => Some(KotlinObjectMark::Object),
                Owner::Companion => Some(KotlinObjectMark::Companion),
                _ => None,
            },
            kotlin_data: has("data").then_some(true),
            ..KotlinClassFacts::default()
        };
        if owner == Owner::Enum {
            fields.sort_by_key(|f| f.is_enum_constant != Some(true));
        }
        let functional = owner == Owner::Interface
            && (decl.mods.iter().any(|m| m == "fun")
                || toks.windows(2).any(|w| {
                    matches!((&w[0], &w[1]), (KTok::Word(a), KTok::Word(b)) if a == "fun" && b == "interface")
                }));
        let d = ClassDoc {
            name: fqn,
            type_parameters: Some(decl.tparams.iter().map(|(s, _)| s.clone()).collect()),
            implements: Some(decl.supertypes.clone()),
            inherits: Some(decl.supertypes.clone()),
            class_type: Some(class_type),
            methods: Some(methods),
            fields: Some(fields),
            functional_interface: Some(functional),
            parent: Some(parent),
            access_mod: Some(
                if has("protected") {
                    "protected"
                } else {
                    "public"
                }
                .into(),
            ),
            language: Some("kotlin".into()),
            is_class: Some(true),
            deprecated: decl.deprecated.then_some(true),
            is_kotlin: None,
            is_inner: has("inner").then_some(true),
            is_sealed: has("sealed").then_some(true),
            preview: None,
            kotlin,
            scala: Default::default(),
            not_null_type_parameters: None,
            extra: Default::default(),
        };
        Ok(Some((d, skipped)))
    }

    /// The page's own members, as methods and fields; members that cannot be read are
    /// reasons in `skipped`.
    fn members(
        &self,
        doc: &Html,
        links: &Links,
        vars: &[String],
        owner: Owner,
        fqn: &str,
        skipped: &mut Vec<String>,
    ) -> (Vec<MethodDoc>, Vec<FieldDoc>) {
        let mut methods: Vec<MethodDoc> = Vec::new();
        let mut fields: Vec<FieldDoc> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let static_members = matches!(owner, Owner::Object | Owner::Companion);
        let simple = fqn.rsplit('.').next().unwrap_or(fqn).to_string();
        for section in doc.select(&self.sections) {
            let kind = section.value().attr("data-togglable").unwrap_or("");
            if !matches!(
                kind,
                "CONSTRUCTOR"
                    | "PROPERTY"
                    | "FUNCTION"
                    | "ENTRY"
                    | "EXTENSION_PROPERTY"
                    | "EXTENSION_FUNCTION"
            ) {
                continue;
            }
            for row in section.select(&self.rows) {
                let Some(link) = row.select(&self.row_link).next() else {
                    continue;
                };
                let href = link.value().attr("href").unwrap_or("");
                let own = !href.contains('#') && !href.contains(':') && {
                    let h = href.strip_prefix("./").unwrap_or(href);
                    !h.contains('/') || (kind == "ENTRY" && !h.starts_with(".."))
                };
                if !own {
                    continue;
                }
                if kind == "ENTRY" {
                    let name = link.text().collect::<String>().trim().to_string();
                    if !seen.insert(format!("entry {name}")) {
                        continue;
                    }
                    fields.push(FieldDoc {
                        name,
                        ty: fqn.to_string(),
                        is_final: Some(true),
                        is_override: Some(false),
                        receiver: Some(None),
                        type_parameters: Some(Vec::new()),
                        access_mod: Some("public".into()),
                        is_static: Some(true),
                        deprecated: None,
                        is_enum_constant: Some(true),
                        deprecation_level: None,
                        other_metadata: None,
                        scala: Default::default(),
                        static_from_hidden_supertype: None,
                        nullable: None,
                        extra: Default::default(),
                    });
                    continue;
                }
                for sym in row.select(&self.row_symbols) {
                    let mut toks = Vec::new();
                    flatten(sym, links, &mut toks);
                    let d = match parse_decl(&toks, vars) {
                        Ok(d) => d,
                        Err(e) => {
                            let text: String = sym.text().collect();
                            skipped.push(format!(
                                "member `{}` skipped: {e}",
                                text.split_whitespace().collect::<Vec<_>>().join(" ")
                            ));
                            continue;
                        }
                    };
                    let has = |m: &str| d.mods.iter().any(|x| x == m);
                    if has("private") || has("internal") {
                        continue;
                    }
                    // one declaration per source set (`expect` in common code, `actual` on
                    // the JVM): the first is kept
                    let key = format!(
                        "{}|{}|{:?}|{:?}",
                        matches!(d.keyword.as_str(), "val" | "var"),
                        d.name,
                        d.receiver,
                        d.params.iter().map(|p| &p.0).collect::<Vec<_>>()
                    );
                    if !seen.insert(key) {
                        continue;
                    }
                    let access = if has("protected") {
                        "protected"
                    } else {
                        "public"
                    };
                    let enum_static = owner == Owner::Enum
                        && d.receiver.is_none()
                        && matches!(
                            (d.name.as_str(), d.params.len(), d.keyword.as_str()),
                            ("entries", 0, "val") | ("values", 0, "fun") | ("valueOf", 1, "fun")
                        );
                    let is_static = (static_members || enum_static) && d.keyword != "constructor";
                    match d.keyword.as_str() {
                        "val" | "var" => fields.push(FieldDoc {
                            name: d.name.clone(),
                            ty: d.ty.clone().unwrap_or_default(),
                            is_final: Some(d.keyword == "val"),
                            is_override: Some(has("override")),
                            receiver: Some(d.receiver.clone()),
                            type_parameters: Some(
                                d.tparams.iter().map(|(s, _)| s.clone()).collect(),
                            ),
                            access_mod: Some(access.into()),
                            is_static: Some(is_static),
                            deprecated: d.deprecated.then_some(true),
                            is_enum_constant: None,
                            deprecation_level: None,
                            other_metadata: None,
                            scala: Default::default(),
                            static_from_hidden_supertype: None,
                            nullable: None,
                            extra: Default::default(),
                        }),
                        "fun" | "constructor" => {
                            let ctor = d.keyword == "constructor";
                            if ctor && static_members {
                                continue;
                            }
                            let meta = MethodMetadata {
                                is_suspend: Some(has("suspend")),
                                is_inline: Some(has("inline")),
                                is_operator: Some(has("operator")),
                                is_infix: has("infix").then_some(true),
                                defaults: Some(ParamDefaults::PerParameter(
                                    d.params.iter().map(|p| p.1).collect(),
                                )),
                                ..MethodMetadata::default()
                            };
                            let varargs = d.params.iter().any(|p| p.2);
                            methods.push(MethodDoc {
                                name: if ctor { simple.clone() } else { d.name.clone() },
                                parameters: d.params.iter().map(|p| p.0.clone()).collect(),
                                type_parameters: Some(
                                    d.tparams.iter().map(|(s, _)| s.clone()).collect(),
                                ),
                                return_type: Some(if ctor { None } else { d.ty.clone() }),
                                receiver: Some(d.receiver.clone()),
                                is_static: Some(is_static),
                                is_constructor: Some(ctor),
                                access_mod: Some(access.into()),
                                is_default: None,
                                throws: None,
                                other_metadata: Some(meta),
                                deprecated: d.deprecated.then_some(true),
                                is_abstract: has("abstract").then_some(true),
                                is_varargs: varargs.then_some(true),
                                preview: None,
                                deprecation_level: None,
                                scala: Default::default(),
                                parameter_names: None,
                                extra: Default::default(),
                            });
                        }
                        other => skipped.push(format!(
                            "member `{}` skipped: a `{other}` declaration in a member list",
                            d.name
                        )),
                    }
                }
            }
        }
        methods.sort_by(|a, b| {
            a.name
                .cmp(&b.name)
                .then(a.parameters.len().cmp(&b.parameters.len()))
        });
        (methods, fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_names() {
        let segs = |s: &str| s.split('/').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(decode_kebab("-u-r-l-builder"), "URLBuilder");
        assert_eq!(encode_kebab("URLBuilder"), "-u-r-l-builder");
        assert_eq!(
            path_fqn(&segs(
                "api/core/kotlin-stdlib/kotlin.collections/-list/index.html"
            )),
            Some("kotlin.collections.List".into())
        );
        assert_eq!(
            path_fqn(&segs("m/io.ktor.server.request/-a/-phases/index.html")),
            Some("io.ktor.server.request.A.Phases".into())
        );
        assert_eq!(
            path_fqn(&segs("javase/8/docs/api/java/util/Map.Entry.html")),
            Some("java.util.Map.Entry".into())
        );
        assert_eq!(path_fqn(&segs("m/p/-a/call.html")), None);
        assert_eq!(
            dri_fqn("io.ktor.util/Attributes///PointingToDeclaration/"),
            Some("io.ktor.util.Attributes".into())
        );
    }

    fn toks(s: &str) -> Vec<KTok> {
        let mut out = Vec::new();
        lex(s, &mut out);
        out
    }

    #[test]
    fn parses_signatures() {
        let d = parse_decl(
            &toks("inline suspend fun <reified T : Any> Call.receive(x: List<out T>?, f: suspend R.(Int) -> Unit): T?"),
            &[],
        )
        .unwrap();
        assert_eq!(d.name, "receive");
        assert_eq!(d.receiver.as_deref(), Some("Call"));
        assert_eq!(d.tparams[0].0, "reified T : kotlin.Any");
        assert_eq!(d.params[0].0, "kotlin.collections.List<out T>?");
        assert_eq!(d.params[1].0, "suspend R.(kotlin.Int) -> kotlin.Unit");
        assert_eq!(d.ty.as_deref(), Some("T?"));
        let d = parse_decl(&toks("val <T> T.x: ((T) -> Unit)?"), &[]).unwrap();
        assert_eq!(d.ty.as_deref(), Some("((T) -> kotlin.Unit)?"));
        assert_eq!(d.receiver.as_deref(), Some("T"));
        let d = parse_decl(&toks("class Box<out E : Any>(x: Int) : Base<E>, I"), &[]).unwrap();
        assert_eq!(
            parse_decl(&toks("enum E : Enum<E>"), &[]).unwrap().name,
            "E"
        );
        let d2 = parse_decl(&toks("fun <F : Any> R.f(p: Plugin<*, *, F>): F?"), &[]).unwrap();
        assert_eq!(d2.params[0].0, "Plugin<*, *, F>");
        assert_eq!(d.supertypes, vec!["Base<E>", "I"]);
        assert_eq!(d.tparams[0].0, "out E : kotlin.Any");
    }
}
