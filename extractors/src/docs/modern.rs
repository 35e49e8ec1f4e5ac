//! The markup that javadoc has written since JDK 16 (`div.type-signature`,
//! `section.detail > div.member-signature`), shared by the JDK 17 and the JDK 21+ layouts:
//! a class page read into a [`RawPage`].

use super::sel;
use scraper::{ElementRef, Html, Selector};

use super::text::{class_notes, flatten};
use super::{MemberKind, RawMember, RawPage};

/// Compiled selectors of the modern layouts.
pub(crate) struct Modern {
    body: Selector,
    description: Selector,
    crumb: Selector,
    sub_title: Selector,
    package_label: Selector,
    link: Selector,
    type_signature: Selector,
    class_deprecated: Selector,
    notes_dt: Selector,
    code: Selector,
    detail: Selector,
    member_signature: Selector,
    deprecation_block: Selector,
}

impl Modern {
    /// Compiles the selectors.
    pub(crate) fn new() -> Self {
        Modern {
            body: sel("body"),
            description: sel("meta[name=description]"),
            crumb: sel("ol.sub-nav-list li a[href$='package-summary.html']"),
            sub_title: sel("div.sub-title"),
            package_label: sel(".package-label-in-type"),
            link: sel("a"),
            type_signature: sel("div.type-signature"),
            class_deprecated: sel("section.class-description div.deprecation-block"),
            code: sel("code"),
            notes_dt: sel("section.class-description dl.notes dt"),
            detail: sel("section.details section.detail"),
            member_signature: sel("div.member-signature"),
            deprecation_block: sel("div.deprecation-block"),
        }
    }

    /// True for a class page (`<body class="class-declaration-page">`).
    pub(crate) fn is_class_page(&self, doc: &Html) -> bool {
        doc.select(&self.body)
            .next()
            .is_some_and(|b| b.value().classes().any(|c| c == "class-declaration-page"))
    }

    /// Reads a class page.
    pub(crate) fn read(&self, doc: &Html) -> Result<RawPage, String> {
        // `declaration: module: m, package: p, class: C`, else the sub-title (JDK 17) or the
        // breadcrumb (JDK 21+)
        let from_meta = doc
            .select(&self.description)
            .filter_map(|m| m.value().attr("content"))
            .find_map(|c| {
                c.split(", ")
                    .find_map(|p| {
                        p.trim()
                            .strip_prefix("declaration: ")
                            .unwrap_or(p.trim())
                            .strip_prefix("package: ")
                    })
                    .map(str::to_string)
            });
        let from_crumb = || {
            doc.select(&self.crumb)
                .next()
                .map(|a| a.text().collect::<String>())
        };
        let package = from_meta
            .or_else(|| {
                doc.select(&self.sub_title)
                    .find(|d| d.select(&self.package_label).next().is_some())
                    .map(|d| match d.select(&self.link).next() {
                        Some(a) => a.text().collect::<String>(),
                        None => d
                            .text()
                            .collect::<String>()
                            .replacen("Package", "", 1)
                            .replace('\u{a0}', " "),
                    })
            })
            .or_else(from_crumb)
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty());
        let sig = doc.select(&self.type_signature).next().ok_or(
            "no class declaration (div.type-signature): a truncated or malformed class page",
        )?;
        let class_decl = flatten(sig, &[]);
        let class_deprecated = doc.select(&self.class_deprecated).next().is_some();
        let (functional_note, all_interfaces) = class_notes(doc, &self.notes_dt, &self.code);
        let mut members = Vec::new();
        for detail in doc.select(&self.detail) {
            let Some(kind) = section_kind(detail) else {
                continue;
            };
            let Some(ms) = detail.select(&self.member_signature).next() else {
                continue;
            };
            members.push(RawMember {
                kind,
                decl: flatten(ms, &[]),
                deprecation_block: detail.select(&self.deprecation_block).next().is_some(),
            });
        }
        Ok(RawPage {
            package,
            class_decl,
            class_deprecated,
            functional_note,
            all_interfaces,
            members,
        })
    }
}

/// The kind of member a `section.detail` documents, from the section that holds it.
fn section_kind(detail: ElementRef<'_>) -> Option<MemberKind> {
    for a in detail.ancestors() {
        let Some(e) = ElementRef::wrap(a) else {
            continue;
        };
        if e.value().name() != "section" {
            continue;
        }
        for c in e.value().classes() {
            match c {
                "constant-details" => return Some(MemberKind::EnumConstant),
                "field-details" => return Some(MemberKind::Field),
                "constructor-details" => return Some(MemberKind::Constructor),
                "method-details" => return Some(MemberKind::Method),
                "member-details" => return Some(MemberKind::Element),
                _ => {}
            }
        }
    }
    None
}
