//! The layout of Scaladoc 2 (Scala 2.13's `scala.tools.nsc.ScalaDoc`): `h4#signature` with
//! `span.modifier_kind` and `span.symbol`, members as `li[name="owner#member"]` under
//! `div#allMembers`, links to types carrying the type's fully-qualified name in `name`.
//!
//! Detection: the page loads `lib/template.js` and sets `var toRoot`.

use super::sel;
use scraper::{ElementRef, Html, Selector};

use super::scala_text::{
    flatten_tokens, modifiers_and_kind, page_kind, SKind, SMember, SPage, STok,
};

/// Whether a page is of this layout.
pub(crate) fn detect(head: &str) -> bool {
    head.contains("lib/template.js") && head.contains("var toRoot")
}

/// Compiled selectors of Scaladoc 2.
pub(crate) struct Scaladoc2 {
    signature: Selector,
    modifier: Selector,
    kind: Selector,
    symbol: Selector,
    owner: Selector,
    owner_links: Selector,
    name: Selector,
    members: Selector,
    deprecated: Selector,
}

/// A link or span naming a type: its `name` is the fully-qualified name.
fn resolve(e: ElementRef<'_>) -> Option<Vec<STok>> {
    let v = e.value();
    if v.name() == "span" && v.classes().any(|c| c == "name") {
        // a member's name, whatever its characters (`##`, `->`, `unary_-`)
        let text: String = e.text().collect();
        return Some(vec![STok::Word(text.trim().to_string())]);
    }
    let typeish = v.classes().any(|c| c == "extype" || c == "extmbr");
    if !typeish {
        return None;
    }
    let fqn = v.attr("name")?;
    let text: String = e.text().collect();
    Some(vec![STok::Ref(fqn.to_string(), text.trim().to_string())])
}

impl Scaladoc2 {
    /// Compiles the selectors.
    pub(crate) fn new() -> Self {
        Scaladoc2 {
            signature: sel("h4#signature"),
            modifier: sel("span.modifier_kind > span.modifier"),
            kind: sel("span.modifier_kind > span.kind"),
            symbol: sel("span.symbol"),
            owner: sel("#owner"),
            owner_links: sel("#owner > a"),
            name: sel("span.symbol > span.name"),
            members: sel("div#allMembers li[name][visbl]"),
            deprecated: sel("span.symbol > span.name.deprecated"),
        }
    }

    /// Reads a page: `None` for a page that documents no class, trait or object.
    pub(crate) fn read(&self, doc: &Html) -> Result<Option<SPage>, String> {
        let Some(sig) = doc.select(&self.signature).next() else {
            return Ok(None);
        };
        let kind_text = |e: ElementRef<'_>| modifiers_and_kind(e, &self.modifier, &self.kind);
        let (mut modifiers, kind) = kind_text(sig);
        let Some(kind) = page_kind(&kind, &mut modifiers, &["class", "trait", "object"]) else {
            return Ok(None);
        };
        let symbol = sig
            .select(&self.symbol)
            .next()
            .ok_or("no span.symbol in the signature")?;
        let name: String = sig
            .select(&self.name)
            .next()
            .map(|n| n.text().collect())
            .ok_or("no name in the signature")?;
        let owner: String = doc
            .select(&self.owner)
            .next()
            .map(|o| o.text().collect::<String>())
            .unwrap_or_default();
        let owner = owner.trim();
        // a class or trait of a class or trait is path-dependent (`outer.Inner`): its owner
        // links to the class's page (`Option.html`), where an object's page ends in `$`
        // (`Duration$.html`) and a package's is `index.html`
        let owner_page = doc
            .select(&self.owner_links)
            .next_back()
            .and_then(|a| a.value().attr("href"))
            .map(|h| h.rsplit('/').next().unwrap_or(h));
        if owner_page
            .is_some_and(|h| h.ends_with(".html") && h != "index.html" && !h.ends_with("$.html"))
        {
            modifiers.push("inner".to_string());
        }
        let fqn = if owner.is_empty() {
            name.trim().to_string()
        } else {
            format!("{owner}.{}", name.trim())
        };
        let deprecated = sig.select(&self.deprecated).next().is_some();
        let toks = flatten_tokens(symbol, &resolve);
        let mut members = Vec::new();
        let prefix = format!("{fqn}#");
        for li in doc.select(&self.members) {
            let v = li.value();
            let Some(n) = v.attr("name") else { continue };
            if !n.starts_with(&prefix) {
                continue;
            }
            let protected = match v.attr("visbl") {
                Some("pub") => false,
                Some("prt") => true,
                _ => continue,
            };
            let (mods, kind) = kind_text(li);
            let kind = match kind.as_str() {
                "def" => SKind::Def,
                "val" | "lazy val" => SKind::Val,
                "var" => SKind::Var,
                "new" => SKind::Constructor,
                _ => continue,
            };
            let Some(sym) = li.select(&self.symbol).next() else {
                continue;
            };
            members.push(SMember {
                kind,
                is_abstract: v.attr("data-isabs") == Some("true"),
                protected,
                deprecated: li.select(&self.deprecated).next().is_some(),
                experimental: false,
                modifiers: mods,
                toks: flatten_tokens(sym, &resolve),
                extension: None,
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
            skipped: Vec::new(),
        }))
    }
}
