//! Entry points shared by the `cargo fuzz` targets in `fuzz/` and their replay tests
//! (`tests/cli/fuzz_corpus.rs`): each takes arbitrary bytes, drives one input-facing part of the
//! core the way the CLI does, and must never panic (errors are fine).
//!
//! Input layouts are documented per function; `fuzz/README.md` describes the seed corpora.

use std::path::{Component, Path, PathBuf};

use crate::api::Api;
use crate::graph::ApiGraph;
use crate::stats::GraphStats;
use crate::types::{
    parse_param, parse_type, parse_type_param, parse_type_param_head, print_param, print_type,
    print_type_param, Syntax, TypeArena, VarId,
};

/// Names declared as type variables in scope for [`type_string`] (a bare `T` parses as a
/// variable, as inside a generic API declaration).
pub const SCOPE_VARS: [&str; 6] = ["T", "U", "E", "K", "V", "R"];

/// What [`type_string`] parses, chosen by the first input byte (bits 2-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeStringKind {
    /// A type (`parse_type`).
    Type,
    /// A parameter type, varargs recognised (`parse_param`).
    Param,
    /// A type-parameter declaration (`parse_type_param_head` + `parse_type_param`).
    TypeParam,
    /// A type with no type variables in scope.
    TypeNoScope,
}

/// Splits a [`type_string`] input into its syntax, kind and text.
///
/// Byte 0: bits 0-1 select the syntax (0 Java, 1 Kotlin, 2 Scala, 3 Java), bits 2-3 the
/// [`TypeStringKind`]; the rest is the type string (invalid UTF-8 replaced).
pub fn split_type_input(data: &[u8]) -> Option<(Syntax, TypeStringKind, String)> {
    let (&head, rest) = data.split_first()?;
    let syntax = match head & 3 {
        1 => Syntax::Kotlin,
        2 => Syntax::Scala,
        _ => Syntax::Java,
    };
    let kind = match (head >> 2) & 3 {
        0 => TypeStringKind::Type,
        1 => TypeStringKind::Param,
        2 => TypeStringKind::TypeParam,
        _ => TypeStringKind::TypeNoScope,
    };
    Some((syntax, kind, String::from_utf8_lossy(rest).into_owned()))
}

/// The byte 0 of a [`type_string`] input for a syntax and kind (inverse of
/// [`split_type_input`]); seed corpora are written with it.
pub fn type_input_head(syntax: Syntax, kind: TypeStringKind) -> u8 {
    let s = match syntax {
        Syntax::Java => 0,
        Syntax::Kotlin => 1,
        Syntax::Scala => 2,
    };
    let k = match kind {
        TypeStringKind::Type => 0,
        TypeStringKind::Param => 1,
        TypeStringKind::TypeParam => 2,
        TypeStringKind::TypeNoScope => 3,
    };
    s | (k << 2)
}

/// Fuzz target `type_string`: parses a type string, parameter or type-parameter declaration
/// (layout in [`split_type_input`]); on success prints it back and parses the printed form.
pub fn type_string(data: &[u8]) {
    let Some((syntax, kind, text)) = split_type_input(data) else {
        return;
    };
    let mut arena = TypeArena::new();
    let scope: Vec<VarId> = if kind == TypeStringKind::TypeNoScope {
        Vec::new()
    } else {
        SCOPE_VARS
            .iter()
            .map(|n| arena.new_var(n, "fuzz.Scope"))
            .collect()
    };
    match kind {
        TypeStringKind::Type | TypeStringKind::TypeNoScope => {
            if let Ok(t) = parse_type(&mut arena, syntax, &text, &scope) {
                let printed = print_type(&arena, syntax, t);
                let _ = parse_type(&mut arena, syntax, &printed, &scope);
            }
        }
        TypeStringKind::Param => {
            if let Ok(p) = parse_param(&mut arena, syntax, &text, &scope) {
                let printed = print_param(&arena, syntax, p.ty, p.vararg);
                let _ = parse_param(&mut arena, syntax, &printed, &scope);
            }
        }
        TypeStringKind::TypeParam => {
            let Ok(head) = parse_type_param_head(syntax, &text) else {
                return;
            };
            let var = arena.new_var(&head.name, "fuzz.Decl");
            let mut own_scope = vec![var];
            own_scope.extend_from_slice(&scope);
            if parse_type_param(&mut arena, syntax, &text, var, &own_scope).is_ok() {
                let printed = print_type_param(&arena, syntax, var);
                let Ok(head2) = parse_type_param_head(syntax, &printed) else {
                    return;
                };
                let var2 = arena.new_var(&head2.name, "fuzz.Reparsed");
                own_scope[0] = var2;
                let _ = parse_type_param(&mut arena, syntax, &printed, var2, &own_scope);
            }
        }
    }
}

/// Fuzz target `api_json`: API JSON bytes → `ClassDoc`s → [`Api::from_docs`] → the API graph,
/// its statistics, and the documents written back ([`Api::to_docs`]).
///
/// The input is one API JSON document or a JSON array of documents (so that several classes
/// can refer to each other).
pub fn api_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = PathBuf::from("fuzz.json");
    let mut docs = Vec::new();
    let mut errors = Vec::new();
    match thalia_extractors::io::parse_class_doc(&path, text) {
        Ok(doc) => docs.push((path, doc)),
        Err(e) => match serde_json::from_str::<Vec<serde_json::Value>>(text) {
            Ok(values) => {
                for (i, v) in values.into_iter().enumerate() {
                    let p = PathBuf::from(format!("fuzz-{i}.json"));
                    if let Ok(doc) = serde_json::from_value(v) {
                        docs.push((p, doc));
                    }
                }
            }
            Err(_) => errors.push(e),
        },
    }
    let mut api = Api::from_docs(docs, errors);
    let graph = ApiGraph::build(&mut api);
    let _ = GraphStats::compute(&mut api, &graph);
    let _ = api.to_docs();
}

/// The most candidate programs [`program_ir`] makes from one input (each is a copy).
pub const MAX_FUZZ_CANDIDATES: usize = 32;

/// The most IR nodes of a program [`program_ir`] reduces (larger ones are only parsed and
/// measured, as `thalia reduce` refuses them).
pub const MAX_FUZZ_REDUCE_NODES: usize = 2_000;

/// Whether `path` (relative) has only plain components: nothing that leaves its base.
fn stays_below(path: &Path) -> bool {
    path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Fuzz target `results_line`: `results.jsonl` bytes through [`scan_results`] (every line
/// through [`parse_result_line`]), as `thalia report`, `merge` and a resumed run read them.
///
/// A line accepted has signatures that stay inside the run directory (panics otherwise), and
/// it writes back to a line that reads the same.
///
/// [`scan_results`]: crate::campaign::store::scan_results
/// [`parse_result_line`]: crate::campaign::store::parse_result_line
pub fn results_line(data: &[u8]) {
    use crate::campaign::store::{parse_result_line, scan_results};
    let scan = scan_results(data);
    let _ = scan.warnings(Path::new("results.jsonl"));
    for (_, range, r) in &scan.lines {
        assert!(range.end <= data.len());
        let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
        for f in r.finding.iter().chain(others) {
            let path = f.path();
            assert!(stays_below(Path::new(&path)), "{path:?} leaves the run");
        }
        let line = serde_json::to_string(r).expect("a results line serializes");
        let again = parse_result_line(line.as_bytes()).expect("a line written reads back");
        assert_eq!(again.key, r.key);
    }
}

/// Fuzz target `finding_json`: `finding.json` bytes as `thalia reduce`, `bisect` and `report`
/// read them ([`FindingFile`]), the program's file checked as `bisect` does, and the
/// bisection's section added to the bytes as a `report.md`.
///
/// [`FindingFile`]: crate::campaign::store::FindingFile
pub fn finding_json(data: &[u8]) {
    use crate::campaign::bisect::{with_section, REPORT_HEADING};
    use crate::campaign::store::FindingFile;
    let md = String::from_utf8_lossy(data);
    let once = with_section(&md, &format!("{REPORT_HEADING}\n\nA\n"));
    let twice = with_section(&once, &format!("{REPORT_HEADING}\n\nB\n"));
    assert!(twice.contains(REPORT_HEADING));
    let Ok(f) = serde_json::from_slice::<FindingFile>(data) else {
        return;
    };
    let bug = Path::new("run/bugs/finding");
    if let Ok(p) = crate::rundir::join_name(
        bug,
        &f.program.file,
        &bug.join("finding.json"),
        "program.file",
    ) {
        assert_eq!(p.parent(), Some(bug), "{p:?} leaves the finding");
    }
    let text = serde_json::to_string(&f).expect("a finding serializes");
    let again: FindingFile = serde_json::from_str(&text).expect("a finding written reads back");
    assert_eq!(again.signature, f.signature);
}

/// Fuzz target `program_ir`: `program.ir.json` bytes as `thalia reduce` and the clustering
/// read them: the program parsed, measured, its cluster id computed, and (when at most
/// [`MAX_FUZZ_REDUCE_NODES`] nodes) up to [`MAX_FUZZ_CANDIDATES`] reduction candidates made
/// and written in Java, each smaller than the program.
pub fn program_ir(data: &[u8]) {
    use crate::campaign::reduce::{candidates, size};
    use thalia_translators::{JavaTranslator, Translator};
    let Ok(p) = serde_json::from_slice::<thalia_translators::ir::Program>(data) else {
        return;
    };
    let n = size(&p);
    let _ = crate::campaign::cluster::cluster_id(crate::toolchain::Tool::Javac, &p);
    if n > MAX_FUZZ_REDUCE_NODES {
        return;
    }
    let _ = JavaTranslator.translate(&p);
    for q in candidates(&p, true).take(MAX_FUZZ_CANDIDATES) {
        assert!(
            q.stmts.len() < p.stmts.len() || size(&q) <= n,
            "a candidate grew the program"
        );
        let _ = JavaTranslator.translate(&q);
    }
}

/// Fuzz target `summary_json`: a synthesized directory's `summary.json` bytes as `thalia
/// check` reads them ([`RunSummary`]), and the command that regenerates its programs.
///
/// [`RunSummary`]: crate::synth::output::RunSummary
pub fn summary_json(data: &[u8]) {
    let Ok(s) = serde_json::from_slice::<crate::synth::output::RunSummary>(data) else {
        return;
    };
    let _ = s.regenerate_command(Path::new("programs"));
    let text = serde_json::to_string(&s).expect("a summary serializes");
    let _ = serde_json::from_str::<crate::synth::output::RunSummary>(&text);
}

/// Fuzz target `batch_list`: a `thalia batch` library list ([`crate::batch::parse_list`]);
/// on success every library's coordinate is formatted and parsed again as a one-line list,
/// which must give the same library.
pub fn batch_list(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(libs) = crate::batch::parse_list(&text, "fuzz.txt") else {
        return;
    };
    for lib in libs {
        let again = crate::batch::parse_list(&lib.coordinate(), "again.txt");
        assert!(
            again.as_ref().is_ok_and(|l| l.len() == 1 && l[0] == lib),
            "{} does not parse back: {again:?}",
            lib.coordinate()
        );
    }
}
