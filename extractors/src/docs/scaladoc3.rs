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

use scraper::{ElementRef, Html, Selector};

use super::scala_text::{flatten_tokens, path_fqn, SKind, SMember, SPage, STok};

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

fn sel(s: &str) -> Selector {
    // the selectors are constants of this file; a typo is caught by the tests
    Selector::parse(s).unwrap_or_else(|_| panic!("bad selector {s}"))
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
            path.strip_prefix(self.base.as_deref()?)?.to_string()
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
                format!("{page}.{member}")
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
        let kind_of = |e: ElementRef<'_>| -> (Vec<String>, String) {
            let mods = e
                .select(&self.modifiers)
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
                .select(&self.kind)
                .next()
                .map(|k| k.text().collect::<String>().trim().to_string())
                .unwrap_or_default();
            (mods, kind)
        };
        let (mut modifiers, kind) = kind_of(sig);
        let kind = match kind.as_str() {
            "class" | "trait" | "object" | "enum" => kind,
            "case class" | "case object" => {
                modifiers.push("case".into());
                kind.trim_start_matches("case ").to_string()
            }
            _ => return Ok(None),
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
        let toks = flatten_tokens(sig, &skip_kind);
        let mut members = Vec::new();
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
            let kind = match kind.as_str() {
                "def" => SKind::Def,
                "val" | "lazy val" | "given" => SKind::Val,
                "var" => SKind::Var,
                _ => continue,
            };
            if mods
                .iter()
                .any(|m| m == "private" || m.starts_with("private["))
            {
                continue;
            }
            let mtoks = flatten_tokens(ms, &skip_kind);
            if matches!(mtoks.first(), Some(STok::P('('))) {
                // an extension method (`extension (x: T) def f`): not recorded
                continue;
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
                modifiers: mods,
                toks: mtoks,
            });
        }
        Ok(Some(SPage {
            fqn,
            kind,
            modifiers,
            toks,
            deprecated,
            members,
        }))
    }
}
