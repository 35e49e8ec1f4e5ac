//! `thalia api diff`: a member-by-member comparison of two APIs (say, the documentation and
//! the bytecode extraction of one library).
//!
//! Classes are matched by name; methods and constructors by name and parameter types, then
//! (for those left) by name and arity when that pairs exactly one on each side, so that a
//! parameter type that differs is reported as such rather than as two missing members;
//! fields by name. Type strings are compared with their spaces dropped. Parameter names and
//! fields the schema does not know (`extra`) are not compared.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::schema::{ClassDoc, FieldDoc, MethodDoc};

/// The kinds of difference, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffKind {
    /// A class of one side is not on the other.
    MissingClass,
    /// A member of one side is not on the other.
    MissingMember,
    /// A type differs: a parameter, result, field, type parameter or thrown type.
    TypeDiffers,
    /// A modifier differs: access, static, final, abstract, default, varargs, deprecated,
    /// the class's kind, inner, sealed.
    ModifierDiffers,
    /// The direct supertypes differ.
    SupertypesDiffer,
}

impl DiffKind {
    /// The kind's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            DiffKind::MissingClass => "missing class",
            DiffKind::MissingMember => "missing member",
            DiffKind::TypeDiffers => "type differs",
            DiffKind::ModifierDiffers => "modifier differs",
            DiffKind::SupertypesDiffer => "supertypes differ",
        }
    }
}

/// One difference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// Its kind.
    pub kind: DiffKind,
    /// The class.
    pub class: String,
    /// The member (`name(params)` or a field's name), if the difference is a member's.
    pub member: Option<String>,
    /// What differs: `A: x; B: y`, or which side lacks it.
    pub detail: String,
}

/// Counts of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DiffCounts {
    /// Classes of A.
    pub classes_a: usize,
    /// Classes of B.
    pub classes_b: usize,
    /// Classes on both sides.
    pub classes_common: usize,
    /// Members (methods, constructors, fields) of A's common classes.
    pub members_a: usize,
    /// Members of B's common classes.
    pub members_b: usize,
    /// Members matched on both sides.
    pub members_matched: usize,
    /// Matched members with no difference.
    pub members_equal: usize,
}

/// The comparison of two APIs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ApiDiff {
    /// Counts.
    pub counts: DiffCounts,
    /// Number of differences per kind.
    pub by_kind: BTreeMap<DiffKind, usize>,
    /// Every difference, grouped by kind, then by class.
    pub differences: Vec<Difference>,
}

fn norm(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn norm_list(v: &[String]) -> Vec<String> {
    v.iter().map(|s| norm(s)).collect()
}

fn sig(m: &MethodDoc) -> String {
    format!("{}({})", m.name, norm_list(&m.parameters).join(","))
}

fn show(v: &[String]) -> String {
    format!("[{}]", v.join(", "))
}

fn flag(b: Option<bool>) -> bool {
    b == Some(true)
}

impl ApiDiff {
    fn push(&mut self, kind: DiffKind, class: &str, member: Option<String>, detail: String) {
        self.differences.push(Difference {
            kind,
            class: class.to_string(),
            member,
            detail,
        });
    }

    /// True when the two APIs agree.
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty()
    }

    /// The report as text: counts, then the differences grouped by kind.
    pub fn text(&self, a: &str, b: &str) -> String {
        let c = &self.counts;
        let mut out = format!(
            "A = {a}\nB = {b}\nclasses: {} in A, {} in B, {} in both\nmembers of the common classes: {} in A, {} in B, {} matched, {} equal ({:.1} % of A's)\n",
            c.classes_a,
            c.classes_b,
            c.classes_common,
            c.members_a,
            c.members_b,
            c.members_matched,
            c.members_equal,
            if c.members_a == 0 { 100.0 } else { 100.0 * c.members_equal as f64 / c.members_a as f64 }
        );
        if self.differences.is_empty() {
            out.push_str("no differences\n");
            return out;
        }
        for (kind, n) in &self.by_kind {
            out.push_str(&format!("\n{} ({n}):\n", kind.name()));
            for d in self.differences.iter().filter(|d| d.kind == *kind) {
                match &d.member {
                    Some(m) => out.push_str(&format!("  {}.{m}: {}\n", d.class, d.detail)),
                    None => out.push_str(&format!("  {}: {}\n", d.class, d.detail)),
                }
            }
        }
        out
    }
}

/// Compares API A with API B.
pub fn diff(a: &[ClassDoc], b: &[ClassDoc]) -> ApiDiff {
    let mut out = ApiDiff::default();
    let bmap: HashMap<&str, &ClassDoc> = b.iter().map(|d| (d.name.as_str(), d)).collect();
    let amap: HashMap<&str, &ClassDoc> = a.iter().map(|d| (d.name.as_str(), d)).collect();
    out.counts.classes_a = amap.len();
    out.counts.classes_b = bmap.len();
    let mut anames: Vec<&str> = amap.keys().copied().collect();
    anames.sort_unstable();
    let mut bnames: Vec<&str> = bmap.keys().copied().collect();
    bnames.sort_unstable();
    for n in &anames {
        if !bmap.contains_key(n) {
            out.push(DiffKind::MissingClass, n, None, "only in A".into());
        }
    }
    for n in &bnames {
        if !amap.contains_key(n) {
            out.push(DiffKind::MissingClass, n, None, "only in B".into());
        }
    }
    for n in &anames {
        if let Some(cb) = bmap.get(n) {
            out.counts.classes_common += 1;
            diff_class(&mut out, amap[n], cb);
        }
    }
    out.differences
        .sort_by(|x, y| (x.kind, &x.class, &x.member).cmp(&(y.kind, &y.class, &y.member)));
    for d in &out.differences {
        *out.by_kind.entry(d.kind).or_default() += 1;
    }
    out
}

fn diff_class(out: &mut ApiDiff, a: &ClassDoc, b: &ClassDoc) {
    let name = a.name.as_str();
    let mut sa = norm_list(
        &a.supertypes()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    let mut sb = norm_list(
        &b.supertypes()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    sa.sort();
    sb.sort();
    if sa != sb {
        out.push(
            DiffKind::SupertypesDiffer,
            name,
            None,
            format!("A: {}; B: {}", show(&sa), show(&sb)),
        );
    }
    let (ta, tb) = (
        norm_list(a.type_parameters()),
        norm_list(b.type_parameters()),
    );
    if ta != tb {
        out.push(
            DiffKind::TypeDiffers,
            name,
            None,
            format!("type parameters A: {}; B: {}", show(&ta), show(&tb)),
        );
    }
    let mods = |d: &ClassDoc| {
        vec![
            ("kind", d.class_type.unwrap_or(0).to_string()),
            (
                "access",
                d.access_mod.clone().unwrap_or_else(|| "public".into()),
            ),
            ("deprecated", flag(d.deprecated).to_string()),
            ("inner", flag(d.is_inner).to_string()),
            ("sealed", flag(d.is_sealed).to_string()),
        ]
    };
    for ((k, va), (_, vb)) in mods(a).into_iter().zip(mods(b)) {
        if va != vb {
            out.push(
                DiffKind::ModifierDiffers,
                name,
                None,
                format!("{k} A: {va}; B: {vb}"),
            );
        }
    }

    // methods and constructors
    out.counts.members_a += a.methods().len() + a.fields().len();
    out.counts.members_b += b.methods().len() + b.fields().len();
    let mut bm: Vec<Option<&MethodDoc>> = b.methods().iter().map(Some).collect();
    let mut unmatched_a: Vec<&MethodDoc> = Vec::new();
    let mut pairs: Vec<(&MethodDoc, &MethodDoc)> = Vec::new();
    for m in a.methods() {
        let s = sig(m);
        let pos = bm
            .iter()
            .position(|x| x.is_some_and(|x| sig(x) == s && x.is_constructor == m.is_constructor));
        match pos.and_then(|p| bm[p].take()) {
            Some(x) => pairs.push((m, x)),
            None => unmatched_a.push(m),
        }
    }
    // pair what is left by name and arity when that is unambiguous
    let mut still_a = Vec::new();
    for m in unmatched_a {
        let same_a = a
            .methods()
            .iter()
            .filter(|x| x.name == m.name && x.parameters.len() == m.parameters.len())
            .count();
        let cands: Vec<usize> = bm
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                x.is_some_and(|x| x.name == m.name && x.parameters.len() == m.parameters.len())
            })
            .map(|(i, _)| i)
            .collect();
        match (same_a, cands.as_slice()) {
            (1, [i]) => {
                if let Some(x) = bm[*i].take() {
                    pairs.push((m, x));
                }
            }
            _ => still_a.push(m),
        }
    }
    for m in still_a {
        out.push(
            DiffKind::MissingMember,
            name,
            Some(sig(m)),
            "only in A".into(),
        );
    }
    for m in bm.into_iter().flatten() {
        out.push(
            DiffKind::MissingMember,
            name,
            Some(sig(m)),
            "only in B".into(),
        );
    }
    for (ma, mb) in pairs {
        out.counts.members_matched += 1;
        let before = out.differences.len();
        diff_method(out, name, ma, mb);
        if out.differences.len() == before {
            out.counts.members_equal += 1;
        }
    }

    // fields
    let bf: HashMap<&str, &FieldDoc> = b.fields().iter().map(|f| (f.name.as_str(), f)).collect();
    let af: HashMap<&str, &FieldDoc> = a.fields().iter().map(|f| (f.name.as_str(), f)).collect();
    for f in a.fields() {
        match bf.get(f.name.as_str()) {
            None => out.push(
                DiffKind::MissingMember,
                name,
                Some(f.name.clone()),
                "field only in A".into(),
            ),
            Some(g) => {
                out.counts.members_matched += 1;
                let before = out.differences.len();
                diff_field(out, name, f, g);
                if out.differences.len() == before {
                    out.counts.members_equal += 1;
                }
            }
        }
    }
    for f in b.fields() {
        if !af.contains_key(f.name.as_str()) {
            out.push(
                DiffKind::MissingMember,
                name,
                Some(f.name.clone()),
                "field only in B".into(),
            );
        }
    }
}

fn diff_method(out: &mut ApiDiff, class: &str, a: &MethodDoc, b: &MethodDoc) {
    let member = Some(sig(a));
    let mut types = Vec::new();
    if norm_list(&a.parameters) != norm_list(&b.parameters) {
        types.push(format!(
            "parameters A: {}; B: {}",
            show(&a.parameters),
            show(&b.parameters)
        ));
    }
    let (ra, rb) = (
        a.return_type().map(norm).unwrap_or_default(),
        b.return_type().map(norm).unwrap_or_default(),
    );
    if ra != rb {
        types.push(format!("result A: {ra}; B: {rb}"));
    }
    if norm_list(a.type_parameters()) != norm_list(b.type_parameters()) {
        types.push(format!(
            "type parameters A: {}; B: {}",
            show(a.type_parameters()),
            show(b.type_parameters())
        ));
    }
    let mut ta = norm_list(a.throws.as_deref().unwrap_or(&[]));
    let mut tb = norm_list(b.throws.as_deref().unwrap_or(&[]));
    ta.sort();
    tb.sort();
    if ta != tb {
        types.push(format!("throws A: {}; B: {}", show(&ta), show(&tb)));
    }
    for t in types {
        out.push(DiffKind::TypeDiffers, class, member.clone(), t);
    }
    let mods = |m: &MethodDoc| {
        vec![
            (
                "access",
                m.access_mod.clone().unwrap_or_else(|| "public".into()),
            ),
            ("static", flag(m.is_static).to_string()),
            ("abstract", flag(m.is_abstract).to_string()),
            ("default", flag(m.is_default).to_string()),
            ("varargs", flag(m.is_varargs).to_string()),
            ("deprecated", flag(m.deprecated).to_string()),
        ]
    };
    for ((k, va), (_, vb)) in mods(a).into_iter().zip(mods(b)) {
        if va != vb {
            out.push(
                DiffKind::ModifierDiffers,
                class,
                member.clone(),
                format!("{k} A: {va}; B: {vb}"),
            );
        }
    }
}

fn diff_field(out: &mut ApiDiff, class: &str, a: &FieldDoc, b: &FieldDoc) {
    let member = Some(a.name.clone());
    if norm(&a.ty) != norm(&b.ty) {
        out.push(
            DiffKind::TypeDiffers,
            class,
            member.clone(),
            format!("type A: {}; B: {}", a.ty, b.ty),
        );
    }
    let mods = |f: &FieldDoc| {
        vec![
            (
                "access",
                f.access_mod.clone().unwrap_or_else(|| "public".into()),
            ),
            ("static", flag(f.is_static).to_string()),
            ("final", flag(f.is_final).to_string()),
            ("enum constant", flag(f.is_enum_constant).to_string()),
            ("deprecated", flag(f.deprecated).to_string()),
        ]
    };
    for ((k, va), (_, vb)) in mods(a).into_iter().zip(mods(b)) {
        if va != vb {
            out.push(
                DiffKind::ModifierDiffers,
                class,
                member.clone(),
                format!("{k} A: {va}; B: {vb}"),
            );
        }
    }
}
