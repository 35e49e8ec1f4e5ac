//! The README and the user guide are right about themselves: every offline command block of
//! `README.md` runs as written (`support/readme.rs` says how), and every relative link of
//! `README.md` and `docs/**/*.md` leads to a file of the repository (and, with `#anchor`, to
//! a heading of that file).

use crate::support::readme;

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use readme::{blocks, run, Block, Lane, README};

#[test]
fn readme_offline_blocks_run_as_written() {
    let n = readme::run_lane(Lane::Offline);
    assert!(n >= 1, "README.md has no offline command block");
}

#[test]
fn readme_every_shell_block_has_a_lane_and_both_lanes_are_used() {
    let all = blocks(README);
    assert!(all.iter().any(|b| b.lane == Lane::Offline));
    assert!(all.iter().any(|b| b.lane == Lane::Online));
    // the two commands of the README are there, as CI runs them
    let online: String = all
        .iter()
        .filter(|b| b.lane == Lane::Online)
        .map(|b| b.script.as_str())
        .collect();
    assert!(online.contains("cargo run --release -- run --seed 2 --budget 1000 --out thalia-run"));
    assert!(online.contains("bash scripts/test.sh"));
}

#[test]
fn readme_runner_fails_a_failing_block_and_a_missing_output() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let block = |script: &str, expect: &[&str]| Block {
        lane: Lane::Offline,
        line: 1,
        script: script.to_string(),
        expect: expect.iter().map(|s| s.to_string()).collect(),
    };
    let fails = |b: Block| {
        let d = dir.path().to_path_buf();
        std::panic::catch_unwind(move || run(&b, &d)).is_err()
    };
    assert!(fails(block("thalia no-such-command\n", &[])));
    assert!(fails(block("thalia --version\n", &["not in the output"])));
    // the stand-ins: the build does nothing, `cargo run -- ...` is the test build's thalia
    let out = run(
        &block(
            "cargo build --release\ncargo run --release -- --version\n",
            &["thalia "],
        ),
        dir.path(),
    );
    assert!(out.contains(env!("CARGO_PKG_VERSION")), "{out}");
}

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `README.md` and every `.md` file under `docs/`.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("docs/ reads") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

/// `markdown` without fenced blocks and inline code spans (their brackets are no links); a
/// code span may run over a line break.
fn prose(markdown: &str) -> String {
    let text = prose_keep_code(markdown);
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let after = &rest[start + ticks..];
        match after.find(&"`".repeat(ticks)) {
            Some(end) => rest = &after[end + ticks..],
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// The link targets of `markdown`'s prose: `[text](target)` and `<target>`.
fn links(markdown: &str) -> Vec<String> {
    let inline = regex::Regex::new(r"\]\(([^)\s]+)\)").expect("a regex");
    inline
        .captures_iter(&prose(markdown))
        .map(|c| c[1].to_string())
        .collect()
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as
/// `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of `markdown`'s headings.
fn anchors(markdown: &str) -> BTreeSet<String> {
    prose_keep_code(markdown)
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let level = t.chars().take_while(|c| *c == '#').count();
            (1..=6).contains(&level).then(|| anchor(&t[level..]))
        })
        .collect()
}

/// `markdown` without fenced blocks (headings keep their code spans, whose text makes
/// their anchors).
fn prose_keep_code(markdown: &str) -> String {
    let mut fenced = false;
    markdown
        .lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `path` with `.` and `..` resolved lexically; `None` when it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

#[test]
fn readme_and_docs_relative_links_resolve_to_files_of_the_repository() {
    let root = root();
    let mut checked = 0;
    let mut broken = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("the document reads");
        let rel_doc = doc
            .strip_prefix(&root)
            .expect("under the root")
            .to_path_buf();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, frag) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() {
                Some(rel_doc.clone())
            } else {
                normalize(&rel_doc.parent().unwrap_or(Path::new("")).join(file))
            };
            let Some(dest) = dest else {
                broken.push(format!(
                    "{}: {target} leaves the repository",
                    rel_doc.display()
                ));
                continue;
            };
            let abs = root.join(&dest);
            if !abs.exists() {
                broken.push(format!(
                    "{}: {target} (no {})",
                    rel_doc.display(),
                    dest.display()
                ));
                continue;
            }
            if let Some(frag) = frag {
                if abs.extension().is_some_and(|x| x == "md") {
                    let text = std::fs::read_to_string(&abs).expect("the target reads");
                    if !anchors(&text).contains(frag) {
                        broken.push(format!(
                            "{}: {target} (no heading #{frag} in {})",
                            rel_doc.display(),
                            dest.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} relative links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn readme_link_checker_finds_links_and_anchors() {
    let md =
        "# The `run` page\n\nSee [a](docs/x.md#the-run-page) and `[not](a-link.md)`, `f[B](x:\n\
              B)` [=> B]`((A)`.\n\
              ```sh\n[no](link.md)\n```\n## groovyc 6.0.0: the round\n";
    assert_eq!(links(md), vec!["docs/x.md#the-run-page".to_string()]);
    let a = anchors(md);
    assert!(a.contains("the-run-page"), "{a:?}");
    assert!(a.contains("groovyc-600-the-round"), "{a:?}");
    assert_eq!(normalize(Path::new("docs/../../x")), None);
}
