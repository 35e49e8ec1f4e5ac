//! The shape of the campaign code: the module graph of `src/campaign/` (an edge for every
//! `use` or path through `super::`, `self::`, `crate::campaign::` or a child module) has no
//! cycle, and the library (everything under `src/` but the command line) does not depend on
//! clap: campaigns and batches are driven through typed options, never through an argument
//! vector.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module graph: each module (`""` for the root, `store`, `source::dir`) and the modules it
/// uses.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The files of the module tree under `dir`, by module path (`mod.rs` is its directory's
/// module).
fn module_files(dir: &Path, prefix: &str, out: &mut BTreeMap<String, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read the module directory")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    let join = |name: &str| {
        if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}::{name}")
        }
    };
    for p in entries {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 file name")
            .to_string();
        if p.is_dir() {
            module_files(&p, &join(&name), out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let module = if name == "mod" {
                prefix.to_string()
            } else {
                join(&name)
            };
            out.insert(module, p);
        }
    }
}

/// The code of a file without comments and without its test module (everything from the
/// first `#[cfg(test)]` on: test code may use what it likes).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        let line = match line.find(" // ") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`).
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    // split the inner list at top-level commas
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |x| format!("{prefix}{x}")))
        .collect()
}

/// The module a path used in module `from` names, if it is in the tree: `super`, `self`,
/// `crate::campaign` or a child module, then as many module names as follow.
fn target(from: &str, path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").collect();
    let mut at: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    let child = |at: &[&str], name: &str| {
        let mut v = at.to_vec();
        v.push(name);
        modules.contains(&v.join("::"))
    };
    match segs.first().copied() {
        Some("crate") if segs.get(1) == Some(&"campaign") => {
            at.clear();
            segs.drain(..2);
        }
        Some("self") => {
            segs.remove(0);
        }
        Some("super") => {
            while segs.first() == Some(&"super") {
                at.pop()?;
                segs.remove(0);
            }
        }
        Some(name) if child(&at, name) => {}
        _ => return None,
    }
    for s in segs {
        if child(&at, s) {
            at.push(s);
        } else {
            break;
        }
    }
    Some(at.join("::"))
}

/// The module graph of the tree under `dir`.
fn module_graph(dir: &Path) -> Graph {
    let mut files = BTreeMap::new();
    module_files(dir, "", &mut files);
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let inline =
        regex::Regex::new(r"\b(?:super|self|crate::campaign)(?:::[A-Za-z_][A-Za-z0-9_]*)+")
            .expect("a regex");
    let uses = regex::Regex::new(r"(?s)\buse\s+([^;]+);").expect("a regex");
    let alias = regex::Regex::new(r"\s+as\s+[A-Za-z_][A-Za-z0-9_]*").expect("a regex");
    let mut graph = Graph::new();
    for (module, file) in &files {
        let text = code(&std::fs::read_to_string(file).expect("read a module"));
        let text = alias.replace_all(&text, "");
        let mut paths: Vec<String> = uses
            .captures_iter(&text)
            .flat_map(|c| expand(&c[1]))
            .collect();
        paths.extend(inline.find_iter(&text).map(|m| m.as_str().to_string()));
        let edges = graph.entry(module.clone()).or_default();
        for p in paths {
            if let Some(t) = target(module, &p, &modules) {
                if &t != module {
                    edges.insert(t);
                }
            }
        }
    }
    graph
}

/// A cycle of `graph` (its modules in order, the first repeated at the end), if it has one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    // depth-first search with colours: 1 on the stack, 2 done
    fn visit(
        n: &str,
        graph: &Graph,
        colour: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        colour.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match colour.get(m).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, colour, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(n.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for n in graph.keys() {
        if colour.get(n).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut colour, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn show(cycle: &[String]) -> String {
    cycle
        .iter()
        .map(|m| if m.is_empty() { "campaign" } else { m.as_str() })
        .collect::<Vec<_>>()
        .join(" → ")
}

#[test]
fn the_campaign_modules_import_each_other_without_a_cycle() {
    let graph = module_graph(&src().join("campaign"));
    // the graph is read, not empty: the front door and the layers below it are there
    let has = |a: &str, b: &str| graph.get(a).is_some_and(|e| e.contains(b));
    assert!(has("launch", "driver"), "{graph:#?}");
    assert!(has("driver", "store"), "{graph:#?}");
    assert!(has("driver", "judge"), "{graph:#?}");
    assert!(has("store", "records"), "{graph:#?}");
    assert!(has("source::dir", "source"), "{graph:#?}");
    assert!(has("", "launch"), "the root re-exports launch: {graph:#?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("an import cycle in src/campaign/: {}", show(&cycle));
    }
}

#[test]
fn judging_reads_and_writes_nothing() {
    let graph = module_graph(&src().join("campaign"));
    let judge = &graph["judge"];
    for kept in ["store", "driver", "launch", "report", "merge"] {
        assert!(!judge.contains(kept), "judge uses {kept}: {judge:?}");
    }
    let text = code(&std::fs::read_to_string(src().join("campaign/judge.rs")).expect("judge.rs"));
    for io in ["std::fs", "File::", "create_dir", "read_to_string"] {
        assert!(!text.contains(io), "judge.rs does I/O: {io}");
    }
}

#[test]
fn the_cycle_finder_finds_cycles_through_super_crate_and_child_paths() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    };
    write(
        "mod.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub use a::A;\n",
    );
    write("a.rs", "use super::{b::B, c};\n");
    write("b.rs", "// use super::a;\nuse crate::campaign::c::C;\n");
    write("c/mod.rs", "pub mod d;\n");
    write("c/d.rs", "fn f() { let _ = super::super::b::B; }\n#[cfg(test)]\nmod tests { use super::super::a; }\n");
    let graph = module_graph(dir.path());
    assert_eq!(graph[""], BTreeSet::from(["a".to_string()]));
    assert_eq!(
        graph["a"],
        BTreeSet::from(["b".to_string(), "c".to_string()])
    );
    assert_eq!(graph["b"], BTreeSet::from(["c".to_string()]));
    assert_eq!(graph["c::d"], BTreeSet::from(["b".to_string()]));
    assert_eq!(find_cycle(&graph), None);
    // b → c::d → b closes a cycle
    write("b.rs", "use crate::campaign::c::d;\n");
    let cycle = find_cycle(&module_graph(dir.path())).expect("a cycle");
    assert_eq!(show(&cycle), "b → c::d → b");
}

#[test]
fn the_library_does_not_depend_on_clap() {
    let mut files = BTreeMap::new();
    module_files(&src(), "", &mut files);
    let mut seen = 0;
    for (module, file) in files {
        if module == "main" || module == "cli" || module.starts_with("cli::") {
            continue;
        }
        seen += 1;
        let text = code(&std::fs::read_to_string(&file).expect("read"));
        for word in ["clap::", "try_parse_from", "parse_from("] {
            assert!(!text.contains(word), "{}: {word}", file.display());
        }
    }
    assert!(seen > 20, "only {seen} library files read");
}
