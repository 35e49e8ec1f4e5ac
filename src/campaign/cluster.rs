//! Clusters of findings by reduced program: one cause is one entry. Signatures both split
//! one cause (a diagnostic that varies with the API) and keep apart findings of one program;
//! after reduction, findings whose reduced programs are the same up to the names of their
//! locals, lambda parameters, type parameters and the program id are taken to have one
//! cause and share a cluster id, across signatures.
//!
//! The cluster id is `c-` and 16 hex digits of a hash of the compiler's name and the reduced
//! IR (`reduced/program.ir.json`) with those names replaced by canonical ones (`v0`, `v1`, ...,
//! in the order the IR first mentions them). Reduction records it in `finding.json` and
//! `report.md`; `thalia report` groups findings by it.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;
use thalia_translators::ir::{Expr, Program, Stmt};

use super::records::{FindingFile, PROGRAM_IR, REDUCED};
use crate::toolchain::Tool;

/// The names a program binds: its locals, its lambdas' parameters and its type parameters.
fn binders(p: &Program) -> HashSet<String> {
    let mut out: HashSet<String> = p.type_params.iter().map(|t| t.name.clone()).collect();
    for s in &p.stmts {
        if let Stmt::Local { name, .. } = s {
            out.insert(name.clone());
        }
    }
    p.walk_exprs(&mut |e| {
        if let Expr::Lambda { params, .. } = e {
            out.extend(params.iter().map(|(n, _)| n.clone()));
        }
    });
    out
}

/// Renames, in `v`, every string that is one of `names` to its canonical name (assigned in
/// the order of first mention), and the program id wherever it occurs.
fn rename(v: &mut Value, names: &HashSet<String>, id: &str, map: &mut HashMap<String, String>) {
    match v {
        Value::String(s) => {
            if names.contains(s.as_str()) {
                let n = map.len();
                *s = map
                    .entry(s.clone())
                    .or_insert_with(|| format!("v{n}"))
                    .clone();
            } else if !id.is_empty() && s.contains(id) {
                *s = s.replace(id, "ID");
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename(x, names, id, map)),
        Value::Object(o) => o.values_mut().for_each(|x| rename(x, names, id, map)),
        _ => {}
    }
}

/// The program with its bound names and id replaced by canonical ones, as JSON text: two
/// programs that differ only in those names have the same normal form.
pub fn normal_form(p: &Program) -> String {
    let names = binders(p);
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    let mut map = HashMap::new();
    rename(&mut v, &names, &p.id, &mut map);
    v.to_string()
}

/// The cluster id of a finding of `tool` whose reduced program is `p`.
pub fn cluster_id(tool: Tool, p: &Program) -> String {
    let key = format!("{}\n{}", tool.name(), normal_form(p));
    format!("c-{:016x}", crate::hash::fnv1a64(key.as_bytes()))
}

/// The cluster of the finding in `bug`, computed from its reduced program; `None` when it has
/// not been reduced (or its files cannot be read).
pub fn cluster_of(bug: &Path) -> Option<String> {
    let finding = FindingFile::read(bug).ok()?;
    let text = crate::rundir::read_to_string_limited(
        &bug.join(REDUCED).join(PROGRAM_IR),
        crate::rundir::MAX_PROGRAM_IR_BYTES,
    )
    .ok()?;
    let program: Program = serde_json::from_str(&text).ok()?;
    Some(cluster_id(finding.compiler.tool, &program))
}

#[cfg(test)]
mod tests {
    use super::*;
    use thalia_translators::ir::{Lit, Receiver, Ty};

    fn program(id: &str, local: &str, param: &str, method: &str) -> Program {
        let call = Expr::Call {
            receiver: Receiver::Static("a.B".into()),
            name: method.into(),
            type_args: Vec::new(),
            args: vec![
                Expr::Local(local.into()),
                Expr::lambda(vec![(param.into(), None)], Expr::Local(param.into())),
            ],
            declared_in: Vec::new(),
            form: Default::default(),
            lists: None,
        };
        Program::new(
            id,
            vec![
                Stmt::local(
                    local,
                    Ty::class("java.lang.String", Vec::new()),
                    Expr::Lit(Lit::Null),
                ),
                Stmt::expr(call),
            ],
        )
    }

    #[test]
    fn programs_equal_up_to_renaming_share_a_cluster() {
        let a = program("p000001", "a0", "x", "m");
        let b = program("p000777", "res", "y", "m");
        assert_eq!(normal_form(&a), normal_form(&b));
        assert_eq!(cluster_id(Tool::Groovy, &a), cluster_id(Tool::Groovy, &b));
        // another method is another program; another compiler another cluster
        let c = program("p000001", "a0", "x", "n");
        assert_ne!(cluster_id(Tool::Groovy, &a), cluster_id(Tool::Groovy, &c));
        assert_ne!(cluster_id(Tool::Groovy, &a), cluster_id(Tool::Kotlin, &a));
        // a method whose name happens to be a local's elsewhere is not renamed
        assert!(normal_form(&c).contains("\"n\""), "{}", normal_form(&c));
    }
}
