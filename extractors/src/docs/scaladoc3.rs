//! The layout of Scaladoc 3 (Scala 3's `scala3-scaladoc`): `div.main-signature` and
//! `div.documentableElement > … div.signature` with `span[t=k]` keywords and `a[t=t]` type
//! links, the entity's name in `div.fqname`; inherited members carry `data-f-inherited`
//! (or, added by an implicit conversion, an `originInfo`) and are not read.
//!
//! Detection: `<html data-pathToRoot=… data-rawLocation=…>`.
//!
//! Links point to pages by URL (absolute when the documentation was built with a published
//! location): the page's own link in its signature gives the base, and a page path gives the
//! fully-qualified name ([`path_fqn`]); a link into a page (`Option.html#B-0`) names a member
//! of it (a type parameter, a type alias).

use super::sel;
use scraper::{ElementRef, Html, Selector};

use super::scala_text::{
    flatten_tokens, modifiers_and_kind, page_kind, path_fqn, SKind, SMember, SPage, STok,
    CLASS_TYPE_MEMBER,
};

/// Whether a page is of this layout.
pub(crate) fn detect(head: &str) -> bool {
    head.contains("data-pathToRoot=") && head.contains("data-rawLocation=")
}

/// Compiled selectors of Scaladoc 3.
pub(crate) struct Scaladoc3 {
    html: Selector,
    fqname: Selector,
    main_signature: Selector,
    modifiers: Selector,
    kind: Selector,
    name_link: Selector,
    element: Selector,
    signature: Selector,
    origin: Selector,
}

/// The arrow Scaladoc 3 writes after a given's `using` clause (`<span t="k"> => </span>`,
/// spaced, unlike a function type's): a token of its own.
const GIVEN_ARROW: &str = "\u{1}=>";

/// A given's signature (`name: [T] => (A, B) => R`, as Scaladoc 3 prints it) rewritten as
/// the compiled view writes the given (`name[T](using A, B): R`, a method; `name: R`, a
/// value); an anonymous given, or one typed by its own class (a given object), is an error
/// giving the reason to skip it.
fn given_member(toks: &[STok]) -> Result<(SKind, Vec<STok>), String> {
    let name = match toks.first() {
        Some(STok::Word(w)) | Some(STok::Ref(_, w)) => w.clone(),
        _ => return Err("a given without a name".into()),
    };
    if name.starts_with("given_") {
        return Err(format!(
            "given `{name}` skipped: an anonymous given (its name is the compiler's)"
        ));
    }
    if toks.get(1) != Some(&STok::Op(":".into())) {
        return Err(format!("given `{name}` skipped: no type after its name"));
    }
    let mut rest = &toks[2..];
    let mut out = vec![toks[0].clone()];
    // the closing bracket of the group opening at 0
    let close = |ts: &[STok]| -> Option<usize> {
        let mut depth = 0usize;
        for (i, t) in ts.iter().enumerate() {
            match t {
                STok::P('[' | '(' | '{') => depth += 1,
                STok::P(']' | ')' | '}') => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    };
    let mut is_def = false;
    if rest.first() == Some(&STok::P('[')) {
        let end = close(rest).ok_or_else(|| format!("given `{name}`: unclosed `[`"))?;
        // a plain `=>`, or a spaced one when the parameters have bounds
        if !matches!(rest.get(end + 1),
            Some(STok::Op(o)) if o == "=>")
            && rest.get(end + 1) != Some(&STok::Word(GIVEN_ARROW.into()))
        {
            return Err(format!("given `{name}`: no `=>` after its type parameters"));
        }
        out.extend_from_slice(&rest[..=end]);
        rest = &rest[end + 2..];
        is_def = true;
    }
    // split at the given arrows outside brackets: the `using` clauses, then the type
    let mut parts: Vec<&[STok]> = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, t) in rest.iter().enumerate() {
        match t {
            STok::P('[' | '(' | '{') => depth += 1,
            STok::P(']' | ')' | '}') => depth = depth.saturating_sub(1),
            STok::Word(w) if w == GIVEN_ARROW && depth == 0 => {
                parts.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&rest[start..]);
    let Some((result, usings)) = parts.split_last() else {
        return Err(format!("given `{name}` skipped: no type"));
    };
    if let [STok::Word(w) | STok::Ref(_, w)] = result {
        if *w == name {
            return Err(format!(
                "given `{name}` skipped: typed by its own class, a given object or a class of \
                 the same name (documented on its own page)"
            ));
        }
    }
    for u in usings {
        is_def = true;
        out.push(STok::P('('));
        out.push(STok::Word("using".into()));
        let inner = match (u.first(), close(u)) {
            (Some(STok::P('(')), Some(end)) if end + 1 == u.len() => &u[1..end],
            _ => u,
        };
        out.extend_from_slice(inner);
        out.push(STok::P(')'));
    }
    out.push(STok::Op(":".into()));
    out.extend_from_slice(result);
    Ok((if is_def { SKind::Def } else { SKind::Val }, out))
}

/// Joins a relative link to the directory of the page at `raw` (`scala/Option`).
fn join(raw: &str, href: &str) -> String {
    let mut parts: Vec<&str> = raw.split('/').collect();
    parts.pop();
    for seg in href.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// How links of one page resolve.
struct Links {
    raw: String,
    /// The absolute URL of the documentation's root, if links are absolute.
    base: Option<String>,
}

impl Links {
    /// The path (from the root) and the fragment a link points to.
    fn target(&self, href: &str) -> Option<(String, Option<String>)> {
        let (path, frag) = match href.split_once('#') {
            Some((p, f)) => (p, Some(f.to_string())),
            None => (href, None),
        };
        let rel = if path.contains("://") {
            match self.base.as_deref().and_then(|b| path.strip_prefix(b)) {
                Some(rel) => rel.to_string(),
                // a JDK class, linked to its javadoc (`…/docs/api/java/lang/Number.html`,
                // after JDK 9 with its module first: `…/api/java.base/java/lang/Number.html`)
                None => {
                    let (_, rel) = path.rsplit_once("/api/")?;
                    match rel.split_once('/') {
                        Some((module, rest)) if module.contains('.') => rest.to_string(),
                        _ => rel.to_string(),
                    }
                }
            }
        } else if path.is_empty() {
            format!("{}.html", self.raw)
        } else {
            join(&self.raw, path)
        };
        Some((rel, frag))
    }

    fn resolve(&self, e: ElementRef<'_>) -> Option<Vec<STok>> {
        let v = e.value();
        if v.name() != "a" {
            return None;
        }
        let text: String = e.text().collect();
        let text = text.trim().to_string();
        match v.attr("t") {
            Some("n") => return Some(vec![STok::Word(text)]),
            Some("t") => {}
            _ => return None,
        }
        let (path, frag) = v.attr("href").and_then(|h| self.target(h))?;
        let page = path_fqn(&path);
        let fqn = match frag {
            Some(f) => {
                let member = f.rsplit_once('-').map_or(f.as_str(), |(m, _)| m);
                // a member of a class's or trait's page (not an object's `X$.html`, nor a
                // package's): a type parameter (in scope where it is used) or a type member
                let last = path.rsplit('/').next().unwrap_or(&path);
                let last = last.strip_suffix(".html").unwrap_or(last);
                let class_page =
                    !last.ends_with('$') && last.chars().next().is_some_and(char::is_uppercase);
                if class_page {
                    format!("{CLASS_TYPE_MEMBER}{page}.{member}")
                } else {
                    format!("{page}.{member}")
                }
            }
            None => page,
        };
        Some(vec![STok::Ref(fqn, text)])
    }
}

impl Scaladoc3 {
    /// Compiles the selectors.
    pub(crate) fn new() -> Self {
        Scaladoc3 {
            html: sel("html"),
            fqname: sel("div.fqname > span"),
            main_signature: sel("div.main-signature div.signature"),
            modifiers: sel("span.modifiers"),
            kind: sel("span.kind"),
            name_link: sel("a.documentableName"),
            element: sel("div.documentableElement"),
            signature: sel("div.header div.signature"),
            origin: sel("div.originInfo"),
        }
    }

    /// Reads a page: `None` for a page that documents no class, trait or object.
    pub(crate) fn read(&self, doc: &Html) -> Result<Option<SPage>, String> {
        let Some(sig) = doc.select(&self.main_signature).next() else {
            return Ok(None);
        };
        let Some(fqn) = doc
            .select(&self.fqname)
            .next()
            .map(|f| f.text().collect::<String>().trim().to_string())
        else {
            return Ok(None);
        };
        let raw = doc
            .select(&self.html)
            .next()
            .and_then(|h| h.value().attr("data-rawlocation"))
            .unwrap_or_default()
            .to_string();
        let kind_of = |e: ElementRef<'_>| modifiers_and_kind(e, &self.modifiers, &self.kind);
        let (mut modifiers, kind) = kind_of(sig);
        let Some(kind) = page_kind(&kind, &mut modifiers, &["class", "trait", "object", "enum"])
        else {
            return Ok(None);
        };
        let own = sig.select(&self.name_link).next();
        let base = own
            .and_then(|a| a.value().attr("href"))
            .filter(|h| h.contains("://"))
            .and_then(|h| {
                let h = h.split('#').next().unwrap_or(h);
                h.strip_suffix(&format!("{raw}.html")).map(str::to_string)
            });
        let deprecated = own.is_some_and(|a| a.value().classes().any(|c| c == "deprecated"));
        let links = Links { raw, base };
        let resolve = |e: ElementRef<'_>| links.resolve(e);
        let skip_kind = |e: ElementRef<'_>| -> Option<Vec<STok>> {
            let v = e.value();
            if v.name() == "span" && v.classes().any(|c| c == "modifiers" || c == "kind") {
                return Some(Vec::new());
            }
            resolve(e)
        };
        // a given's signature: the arrow after a `using` clause is a token of its own
        let given_kind = |e: ElementRef<'_>| -> Option<Vec<STok>> {
            let v = e.value();
            if v.name() == "span"
                && v.attr("t") == Some("k")
                && e.text().collect::<String>() == " => "
            {
                return Some(vec![STok::Word(GIVEN_ARROW.into())]);
            }
            skip_kind(e)
        };
        let toks = flatten_tokens(sig, &skip_kind);
        let mut members = Vec::new();
        let mut skipped = Vec::new();
        for el in doc.select(&self.element) {
            let inherited = el.value().attr("data-f-inherited").is_some()
                || el
                    .select(&self.origin)
                    .next()
                    .is_some_and(|o| !o.text().collect::<String>().trim().is_empty());
            if inherited {
                continue;
            }
            let Some(ms) = el.select(&self.signature).next() else {
                continue;
            };
            let (mods, kind) = kind_of(ms);
            if mods
                .iter()
                .any(|m| m == "private" || m.starts_with("private["))
            {
                continue;
            }
            let (kind, mtoks) = match kind.as_str() {
                "def" => (SKind::Def, flatten_tokens(ms, &skip_kind)),
                "val" | "lazy val" => (SKind::Val, flatten_tokens(ms, &skip_kind)),
                "var" => (SKind::Var, flatten_tokens(ms, &skip_kind)),
                "given" => match given_member(&flatten_tokens(ms, &given_kind)) {
                    Ok(km) => km,
                    Err(reason) => {
                        skipped.push(reason);
                        continue;
                    }
                },
                _ => continue,
            };
            if matches!(mtoks.first(), Some(STok::P('('))) {
                // an extension clause printed in the signature: not a layout seen
                continue;
            }
            // an extension method: its clause heads its group (`span.groupHeader`)
            let mut extension = None;
            for sib in el.prev_siblings().filter_map(ElementRef::wrap) {
                if sib.value().classes().any(|c| c == "documentableElement") {
                    continue;
                }
                if sib.value().name() == "span" && sib.value().classes().any(|c| c == "groupHeader")
                {
                    let toks = flatten_tokens(sib, &resolve);
                    if let Some((STok::Word(w), clause)) = toks.split_first() {
                        if w == "extension" {
                            extension = Some(clause.to_vec());
                        }
                    }
                }
                break;
            }
            let deprecated = ms
                .select(&self.name_link)
                .next()
                .is_some_and(|a| a.value().classes().any(|c| c == "deprecated"));
            members.push(SMember {
                kind,
                is_abstract: mods.iter().any(|m| m == "abstract"),
                protected: mods.iter().any(|m| m == "protected"),
                deprecated,
                experimental: false,
                modifiers: mods,
                toks: mtoks,
                extension,
            });
        }
        Ok(Some(SPage {
            fqn,
            kind,
            modifiers,
            toks,
            deprecated,
            experimental: false,
            members,
            skipped,
        }))
    }
}
