//! Human-readable rendering of a class with its resolved members (`thalia api show`).

use std::fmt::Write;

use super::{Api, ClassId, ClassKind};
use crate::types::{print_type, print_type_param};

/// Up to `n` class names of `api` that look like `name` (same simple name, or containing it),
/// for "did you mean" messages.
pub fn similar_class_names<'a>(api: &'a Api, name: &str, n: usize) -> Vec<&'a str> {
    let suffix = format!(".{name}");
    api.classes
        .iter()
        .map(|c| c.name.as_str())
        .filter(|c| c.ends_with(&suffix) || c.contains(name))
        .take(n)
        .collect()
}

/// Renders a class header, its declared members, and its inherited members grouped by the
/// supertype instance they come through (with that instance's substitution applied).
pub fn show_class(api: &mut Api, cid: ClassId) -> String {
    let class = api.class(cid).clone();
    let a = &api.ts.arena;
    let syn = class.syntax;
    let mut out = String::new();
    let kind = match class.kind {
        _ if !class.is_class => "top-level members of",
        ClassKind::Class => "class",
        ClassKind::Interface => "interface",
        ClassKind::Abstract => "abstract class",
        ClassKind::Enum => "enum",
        ClassKind::Other(_) => "class",
    };
    let _ = write!(out, "{kind} {}", class.name);
    if class.is_generic() {
        let tps: Vec<String> = class
            .type_params
            .iter()
            .map(|&v| print_type_param(a, syn, v))
            .collect();
        let _ = write!(out, "<{}>", tps.join(", "));
    }
    let sups: Vec<String> = class
        .supertypes()
        .iter()
        .map(|&t| print_type(a, syn, t))
        .collect();
    if !sups.is_empty() {
        let _ = write!(out, " <: {}", sups.join(", "));
    }
    let _ = writeln!(out, "    ({}, {})", syn, class.file.display());
    if class.functional {
        let _ = writeln!(out, "  functional interface");
    }
    let resolved = api.resolved_members(cid);
    let mut current_via = None;
    let own = resolved.iter().filter(|r| !r.is_inherited(cid)).count();
    let _ = writeln!(out, "  declared ({own}):");
    for r in &resolved {
        if r.is_inherited(cid) && current_via != Some(r.via) {
            current_via = Some(r.via);
            let via = print_type(&api.ts.arena, syn, r.via);
            let n = resolved.iter().filter(|x| x.via == r.via).count();
            let _ = writeln!(out, "  inherited from {via} ({n}):");
        }
        let sig = api.resolved_signature(r);
        let _ = writeln!(out, "    {sig}");
    }
    out
}
