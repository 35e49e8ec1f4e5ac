//! Architecture rules read from the source: the modules of `src/synth` and `src/campaign` import each other without a
//! circle, and synthesis asks the target language's rules by capability instead of switching
//! on the language outside `synth::typing::rules`.
//!
//! [`module_graph`] builds the graph of any folder of `src/` (each file a module, an arrow
//! for every path that names another module of the folder: `use super::x::Y`,
//! `crate::synth::x::f(..)`, `child::Z` in a `mod.rs`, re-exports included, test modules
//! left out), and [`cycles`] reports its circles; [`language_switches`] finds comparisons
//! and matches on a `Language` or a `lang` value.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The crate's source folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// A folder's modules and, for each, the other modules of the folder its paths name.
#[derive(Debug, Default)]
pub struct ModuleGraph {
    /// Module path (`synth::build::worker`) → the modules it names.
    pub arrows: BTreeMap<String, BTreeSet<String>>,
}

impl ModuleGraph {
    /// The number of arrows.
    pub fn arrow_count(&self) -> usize {
        self.arrows.values().map(BTreeSet::len).sum()
    }
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The files under `dir` but those of modules declared `#[cfg(test)] mod name;` (test
/// fixtures), with their parsed source.
fn sources(dir: &Path) -> Vec<(PathBuf, syn::File)> {
    let parsed: Vec<(PathBuf, syn::File)> = rust_files(dir)
        .into_iter()
        .map(|f| {
            let text =
                std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, ast)
        })
        .collect();
    let mut test_only: BTreeSet<Vec<String>> = BTreeSet::new();
    for (f, ast) in &parsed {
        for item in &ast.items {
            if let syn::Item::Mod(m) = item {
                if m.content.is_none() && is_test(&m.attrs) {
                    let mut path = module_of(f);
                    path.push(m.ident.to_string());
                    test_only.insert(path);
                }
            }
        }
    }
    parsed
        .into_iter()
        .filter(|(f, _)| !test_only.contains(&module_of(f)))
        .collect()
}

/// The module path of a file of the crate (`src/synth/build/mod.rs` → `synth::build`).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).expect("a file of src/");
    let mut segs: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

/// True for an item or module marked `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Every path a file names (outside test code), as segments: `use` trees expanded, paths in
/// expressions, types and patterns, and `a::b` sequences inside macro calls.
#[derive(Default)]
struct Paths {
    found: Vec<Vec<String>>,
}

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                self.found.push(full);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                self.found.push(full);
            }
            syn::UseTree::Glob(_) => self.found.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    fn tokens(&mut self, ts: TokenStream) {
        let mut cur: Vec<String> = Vec::new();
        let mut colons = 0;
        for tt in ts {
            match tt {
                TokenTree::Ident(i) => {
                    if colons != 2 && !cur.is_empty() {
                        self.flush(&mut cur);
                    }
                    cur.push(i.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !cur.is_empty() => colons += 1,
                TokenTree::Group(g) => {
                    self.flush(&mut cur);
                    colons = 0;
                    self.tokens(g.stream());
                }
                _ => {
                    self.flush(&mut cur);
                    colons = 0;
                }
            }
        }
        self.flush(&mut cur);
    }

    fn flush(&mut self, cur: &mut Vec<String>) {
        if cur.len() > 1 {
            self.found.push(std::mem::take(cur));
        }
        cur.clear();
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let attrs = match i {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(x) => &x.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            _ => return syn::visit::visit_item(self, i),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, i);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.found
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
    }

    // (`pub(in crate::synth)` names no module it uses)
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
}

/// The module a path of module `from` names among `modules`, if any (the longest prefix of
/// the resolved path that is one of them).
fn resolve(
    from: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let first = path.first()?;
    let abs: Vec<String> = match first.as_str() {
        "crate" => path[1..].to_vec(),
        "self" => from.iter().chain(&path[1..]).cloned().collect(),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = from.get(..from.len().checked_sub(ups)?)?;
            base.iter().chain(&path[ups..]).cloned().collect()
        }
        // a child module of `from` named relatively (`worker::Worker` in a `mod.rs`)
        _ if path.len() > 1 => {
            let mut child = from.to_vec();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
            from.iter().chain(path).cloned().collect()
        }
        _ => return None,
    };
    (1..=abs.len())
        .rev()
        .map(|n| abs[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// The module graph of the folder `src/<folder>` (`synth`, `campaign`): each of its files is
/// a module (test fixtures, `#[cfg(test)] mod name;`, left out); a path that names another
/// module of the folder is an arrow to it.
pub fn module_graph(folder: &str) -> ModuleGraph {
    let files = sources(&src().join(folder));
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(f, _)| module_of(f)).collect();
    let mut g = ModuleGraph::default();
    for (f, ast) in &files {
        let from = module_of(f);
        let mut paths = Paths::default();
        paths.visit_file(ast);
        let targets = g.arrows.entry(from.join("::")).or_default();
        for p in &paths.found {
            if let Some(to) = resolve(&from, p, &modules) {
                if to != from {
                    targets.insert(to.join("::"));
                }
            }
        }
    }
    g
}

/// The circles of a module graph: each strongly connected set of two or more modules, with
/// the arrows inside it.
pub fn cycles(g: &ModuleGraph) -> Vec<Vec<(String, String)>> {
    let mut graph: DiGraph<&str, ()> = DiGraph::new();
    let mut ids = BTreeMap::new();
    for m in g.arrows.keys().chain(g.arrows.values().flatten()) {
        ids.entry(m.as_str())
            .or_insert_with(|| graph.add_node(m.as_str()));
    }
    for (from, tos) in &g.arrows {
        for to in tos {
            graph.add_edge(ids[from.as_str()], ids[to.as_str()], ());
        }
    }
    tarjan_scc(&graph)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .map(|scc| {
            let inside: BTreeSet<&str> = scc.iter().map(|&n| graph[n]).collect();
            let mut arrows = Vec::new();
            for (from, tos) in &g.arrows {
                for to in tos {
                    if inside.contains(from.as_str()) && inside.contains(to.as_str()) {
                        arrows.push((from.clone(), to.clone()));
                    }
                }
            }
            arrows
        })
        .collect()
}

/// A place where code switches on the target language.
#[derive(Debug)]
pub struct Switch {
    /// The file, relative to `src/`.
    pub file: String,
    /// Its line.
    pub line: usize,
}

/// Finds comparisons (`==`, `!=`) and matches (`match`, `matches!`) on a `lang` value or a
/// `Language::` variant outside test code.
struct Switches {
    lines: Vec<usize>,
}

/// True when an expression is a `lang` value (`cfg.lang`, `lang`) or names a `Language`
/// variant.
fn names_language(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Field(f) => matches!(&f.member, syn::Member::Named(i) if i == "lang"),
        syn::Expr::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            segs.last().is_some_and(|s| s == "lang")
                || segs.iter().any(|s| s == "Language") && segs.len() > 1
        }
        syn::Expr::Paren(p) => names_language(&p.expr),
        syn::Expr::Reference(r) => names_language(&r.expr),
        syn::Expr::Unary(u) => names_language(&u.expr),
        _ => false,
    }
}

/// True when tokens mention `lang` or `Language ::`.
fn tokens_name_language(ts: TokenStream) -> bool {
    let mut prev_language = false;
    for tt in ts {
        match tt {
            TokenTree::Ident(i) if i == "lang" => return true,
            TokenTree::Ident(i) => prev_language = i == "Language",
            TokenTree::Punct(p) if p.as_char() == ':' && prev_language => return true,
            TokenTree::Group(g) => {
                if tokens_name_language(g.stream()) {
                    return true;
                }
                prev_language = false;
            }
            _ => prev_language = false,
        }
    }
    false
}

impl<'ast> Visit<'ast> for Switches {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let attrs = match i {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(x) => &x.attrs,
            _ => return syn::visit::visit_item(self, i),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, i);
        }
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        let cmp = matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_));
        if cmp && (names_language(&b.left) || names_language(&b.right)) {
            self.lines
                .push(syn::spanned::Spanned::span(&b.op).start().line);
        }
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        let on_pattern = m.arms.iter().any(|a| {
            let mut p = Paths::default();
            p.visit_pat(&a.pat);
            p.found.iter().any(|s| s.iter().any(|x| x == "Language"))
        });
        if names_language(&m.expr) || on_pattern {
            self.lines
                .push(syn::spanned::Spanned::span(&m.match_token).start().line);
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if m.path.is_ident("matches") && tokens_name_language(m.tokens.clone()) {
            self.lines
                .push(syn::spanned::Spanned::span(&m.path).start().line);
        }
    }
}

/// The language switches in the files of `src/<folder>` but those in `allowed` (paths
/// relative to `src/`).
pub fn language_switches(folder: &str, allowed: &[&str]) -> Vec<Switch> {
    let mut out = Vec::new();
    for (f, ast) in sources(&src().join(folder)) {
        let rel = f
            .strip_prefix(src())
            .expect("a file of src/")
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        let mut v = Switches { lines: Vec::new() };
        v.visit_file(&ast);
        out.extend(v.lines.into_iter().map(|line| Switch {
            file: rel.clone(),
            line,
        }));
    }
    out
}

#[test]
fn synthesis_modules_import_each_other_without_a_circle() {
    let g = module_graph("synth");
    let circles = cycles(&g);
    println!(
        "synth: {} modules, {} arrows, {} circles",
        g.arrows.len(),
        g.arrow_count(),
        circles.len()
    );
    assert!(
        circles.is_empty(),
        "import circles among synth's modules: {circles:#?}"
    );
}

#[test]
fn synthesis_switches_on_the_language_only_in_the_typing_rules() {
    let found: Vec<String> = language_switches("synth", &["synth/typing/rules.rs"])
        .iter()
        .map(|s| format!("src/{}:{}", s.file, s.line))
        .collect();
    assert!(
        found.is_empty(),
        "ask `LanguageRules` by capability instead: {found:#?}"
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    // the rules are proven on a small folder of the crate written in the test's image:
    // a circle and a language switch in `synth` before the split would be found
    let modules: BTreeSet<Vec<String>> = [
        vec!["s".to_string()],
        vec!["s".into(), "a".into()],
        vec!["s".into(), "b".into()],
    ]
    .into_iter()
    .collect();
    let from_a = vec!["s".to_string(), "a".into()];
    let seg = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(
        resolve(&from_a, &seg("super::b::f"), &modules),
        Some(seg("s::b"))
    );
    assert_eq!(
        resolve(&from_a, &seg("crate::s::Run"), &modules),
        Some(seg("s"))
    );
    assert_eq!(
        resolve(&seg("s"), &seg("a::Worker"), &modules),
        Some(seg("s::a"))
    );
    assert_eq!(resolve(&from_a, &seg("crate::api::Api"), &modules), None);
    let mut g = ModuleGraph::default();
    g.arrows
        .entry("s::a".into())
        .or_default()
        .insert("s::b".into());
    assert!(cycles(&g).is_empty());
    g.arrows
        .entry("s::b".into())
        .or_default()
        .insert("s::a".into());
    assert_eq!(cycles(&g).len(), 1);
    let switch: syn::File = syn::parse_str(
        "fn f(cfg: &C) -> bool { cfg.lang == Language::Kotlin }
         fn g(l: Language) -> u8 { match l { Language::Java => 1, _ => 2 } }
         fn h(lang: Language) -> bool { matches!(lang, Language::Groovy) }
         fn ok(r: Rules) -> bool { r.has_raw_types() }
         #[cfg(test)] mod tests { fn t(l: Language) -> bool { l == Language::Java } }",
    )
    .expect("parses");
    let mut v = Switches { lines: Vec::new() };
    v.visit_file(&switch);
    assert_eq!(v.lines.len(), 3, "{:?}", v.lines);
}

#[test]
fn campaign_modules_import_each_other_without_a_circle() {
    let g = module_graph("campaign");
    // the graph is read, not empty: the front door and the layers below it are there
    let has = |a: &str, b: &str| {
        g.arrows
            .get(&format!("campaign::{a}"))
            .is_some_and(|e| e.contains(&format!("campaign::{b}")))
    };
    for (a, b) in [
        ("launch", "driver"),
        ("driver", "store"),
        ("driver", "judge"),
        ("store", "records"),
        ("source::dir", "source"),
    ] {
        assert!(has(a, b), "{a} -> {b} missing: {:#?}", g.arrows);
    }
    let circles = cycles(&g);
    assert!(
        circles.is_empty(),
        "import circles among campaign's modules: {circles:#?}"
    );
}

#[test]
fn judging_reads_and_writes_nothing() {
    let g = module_graph("campaign");
    let judge = &g.arrows["campaign::judge"];
    for kept in ["store", "driver", "launch", "report", "merge"] {
        assert!(
            !judge.contains(&format!("campaign::{kept}")),
            "judge uses {kept}: {judge:?}"
        );
    }
    let file = src().join("campaign/judge.rs");
    let text = std::fs::read_to_string(&file).expect("judge.rs");
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for io in ["std::fs", "File::", "create_dir", "read_to_string"] {
        assert!(!code.contains(io), "judge.rs does I/O: {io}");
    }
}

#[test]
fn the_library_does_not_depend_on_clap() {
    let mut seen = 0;
    for file in rust_files(&src()) {
        let rel = file.strip_prefix(src()).expect("under src");
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&file).expect("read");
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for word in ["clap::", "try_parse_from", "parse_from("] {
            assert!(!code.contains(word), "{}: {word}", file.display());
        }
    }
    assert!(seen > 20, "only {seen} library files read");
}
