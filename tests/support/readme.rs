//! The command blocks of `README.md`, read and run as a reader would run them. Shared by the
//! offline (`tests/cli/readme.rs`) and the online (`tests/online/online_readme.rs`) README tests
//! (`support::readme`).
//!
//! A block fenced ```` ```sh offline ```` or ```` ```sh online ```` is a command block of that
//! lane; a `sh` or `bash` block without a lane is an error, so that no command block goes
//! untested. `<!-- expect: TEXT -->` lines right before a block say what its output must
//! contain. The blocks of a lane run in document order, each with `bash` in one temporary
//! working directory shared by the lane (a later block may read what an earlier one wrote),
//! with the test build's `thalia` first on `PATH` and the user's `HOME` (its caches), and
//! must exit 0. Two commands stand for something the test already is: `cargo install` and
//! `cargo build` (the test build is their result) do nothing, `cargo run [ARGS] -- CMD...`
//! runs `thalia CMD...`, and `bash scripts/test.sh` (the tests themselves) does nothing.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The README, as the reader sees it.
pub const README: &str = include_str!("../../README.md");

/// Which lane of `scripts/test.sh` runs a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// No network, no compiler under test, no root.
    Offline,
    /// Maven Central through the user's Maven configuration, compilers installed on demand.
    Online,
}

/// One command block of the README.
#[derive(Debug, Clone)]
pub struct Block {
    /// The lane that runs it.
    pub lane: Lane,
    /// The line of its opening fence (1-based).
    pub line: usize,
    /// The commands, as written.
    pub script: String,
    /// Texts its output must contain.
    pub expect: Vec<String>,
}

/// The command blocks of `markdown`; panics on a shell block without a lane or an unclosed
/// fence.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut expect: Vec<String> = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim();
        if let Some(text) = trimmed
            .strip_prefix("<!-- expect:")
            .and_then(|t| t.strip_suffix("-->"))
        {
            expect.push(text.trim().to_string());
            continue;
        }
        let Some(info) = trimmed.strip_prefix("```") else {
            if !trimmed.is_empty() {
                expect.clear();
            }
            continue;
        };
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let lane = words.next();
        let mut body = String::new();
        let mut closed = false;
        for (_, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        assert!(closed, "README.md:{}: the block is not closed", i + 1);
        let taken = std::mem::take(&mut expect);
        if !matches!(lang, "sh" | "bash" | "shell" | "console") {
            assert!(
                taken.is_empty(),
                "README.md:{}: an expect comment before a block that is not run",
                i + 1
            );
            continue;
        }
        let lane = match lane {
            Some("offline") => Lane::Offline,
            Some("online") => Lane::Online,
            other => panic!(
                "README.md:{}: a shell block must say its lane (```sh offline or ```sh online), not {other:?}",
                i + 1
            ),
        };
        out.push(Block {
            lane,
            line: i + 1,
            script: body,
            expect: taken,
        });
    }
    out
}

/// What the blocks' shell knows before a block runs: the stand-ins for building thalia and
/// for the test script.
const PRELUDE: &str = r#"set -euo pipefail
cargo() {
    case "${1:-}" in
        install|build) return 0 ;;
        run) while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
             [ $# -gt 0 ] || { echo "cargo run without --" >&2; return 2; }
             shift; thalia "$@" ;;
        *) command cargo "$@" ;;
    esac
}
bash() {
    if [ "${1:-}" = "scripts/test.sh" ]; then return 0; fi
    command bash "$@"
}
"#;

/// The directory of the test build's `thalia`.
pub fn thalia_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_thalia"))
        .parent()
        .expect("the binary's directory")
        .to_path_buf()
}

/// Runs `block` in `dir` with the test build's `thalia` first on `PATH`; panics when it
/// fails or its output lacks an expected text, and returns the output (stdout and stderr
/// together).
pub fn run(block: &Block, dir: &Path) -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![thalia_dir()];
    paths.extend(std::env::split_paths(&path));
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1\n{PRELUDE}\n{}", block.script))
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "README.md:{}: the block failed ({}):\n{}\n--- output ---\n{}",
        block.line,
        out.status,
        block.script,
        text
    );
    for e in &block.expect {
        assert!(
            text.contains(e.as_str()),
            "README.md:{}: the output lacks {e:?}:\n{text}",
            block.line
        );
    }
    text
}

/// Runs every block of `lane` in document order in one temporary directory; returns how many
/// ran.
pub fn run_lane(lane: Lane) -> usize {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut n = 0;
    for b in blocks(README).iter().filter(|b| b.lane == lane) {
        run(b, dir.path());
        n += 1;
    }
    n
}
