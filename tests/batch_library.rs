//! `thalia::batch::run::run`, the library behind `thalia batch`, called in this process with
//! typed options: every cell's campaign is launched through `thalia::campaign::launch` (the
//! library has no command-line parser: `tests/architecture_campaign.rs`), its run directory
//! records this process's command line, the cells equal those of the `thalia batch` command
//! with the same settings, and a second session redoes no finished cell.
//!
//! Offline: a library built with javac in the test, published on a Maven-layout repository
//! served on 127.0.0.1. This binary sets the toolchain and Maven cache variables of its own
//! process (the library reads them), so it holds this one test.

#[path = "support/mod.rs"]
mod support;

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use support::maven_repo::{have_jdk, publish, serve, ALPHA};
use support::{fake, runs};
use thalia::batch::run::{run, BatchEvents, BatchOptions};
use thalia::batch::BatchMode;
use thalia::campaign::launch::Summary;

/// Hears every cell that ends.
#[derive(Default)]
struct Cells(RefCell<Vec<(PathBuf, u64)>>);

impl BatchEvents for Cells {
    fn cell_done(&self, summary: &Summary) {
        self.0
            .borrow_mut()
            .push((summary.dir.clone(), summary.outcome.judged));
    }
}

/// The cells' results by `library/mode`.
fn cells(out: &Path) -> Vec<(String, runs::Judged, usize)> {
    let mut v = Vec::new();
    for mode in ["well-typed", "ill-typed"] {
        let dir = out.join("g_alpha_1.0").join(mode);
        let r = runs::results(&dir);
        let n = r.len();
        for (k, j) in r {
            v.push((format!("{mode}/{k}"), j, n));
        }
    }
    v
}

#[test]
fn a_batch_runs_its_cells_in_process_through_the_library() {
    let test = "a_batch_runs_its_cells_in_process_through_the_library";
    if !have_jdk(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let repo = root.path().join("repo");
    publish(root.path(), &repo, "alpha", "1.0", ALPHA);
    let url = serve(repo);
    let libs = root.path().join("libs.txt");
    std::fs::write(&libs, "g:alpha:1.0\n").expect("write list");
    let toolchains = root.path().join("toolchains");
    let cache = root.path().join("cache");
    let settings = root.path().join("no-settings.xml");
    // this process's toolchains and Maven cache, as `thalia` gets them from its environment
    std::env::set_var("THALIA_TOOLCHAINS", &toolchains);
    std::env::set_var("THALIA_MAVEN_CACHE", &cache);
    std::env::set_var("THALIA_MAVEN_SETTINGS", &settings);
    std::env::remove_var("THALIA_MAVEN_REPOS");

    let out = root.path().join("in-process");
    let command = vec!["batch_library-test".to_string()];
    let opts = BatchOptions {
        modes: vec![BatchMode::WellTyped, BatchMode::IllTyped],
        budget_per_lib: "10".into(),
        batch_size: 5,
        jobs: Some(1),
        seed: Some(5),
        repos: vec![url.clone()],
        command: command.clone(),
        ..BatchOptions::new(libs.clone(), out.clone())
    };
    let heard = Cells::default();
    let outcome = run(&opts, &heard).expect("the batch runs");
    assert_eq!(outcome.summary.cells_done, 2, "{}", outcome.summary.table());
    assert_eq!(outcome.interrupted, None);
    assert!(outcome.page.is_file());
    // every cell's campaign ended through the library, with its own run directory
    let heard = heard.0.into_inner();
    let dirs: Vec<PathBuf> = heard.iter().map(|(d, _)| d.clone()).collect();
    assert_eq!(
        dirs,
        [
            out.join("g_alpha_1.0/well-typed"),
            out.join("g_alpha_1.0/ill-typed")
        ]
    );
    for (dir, judged) in &heard {
        assert!(*judged > 0 && *judged <= 10, "{}: {judged}", dir.display());
        assert_eq!(runs::results(dir).len() as u64, *judged);
        // the session records the caller's command: no `thalia run` command line was made
        let manifest: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
        )
        .expect("JSON");
        assert_eq!(
            manifest["sessions"][0]["options"]["command"],
            serde_json::json!(command)
        );
        assert_eq!(manifest["identity"]["seed"], 5);
        assert_eq!(manifest["sessions"][0]["options"]["batch_size"], 5);
    }

    // the command line's batch with the same settings judges the same programs the same way
    let cli = root.path().join("command-line");
    let o = fake::thalia(&toolchains)
        .env("THALIA_MAVEN_CACHE", &cache)
        .env("THALIA_MAVEN_SETTINGS", &settings)
        .args(["batch", "--mode", "well-typed", "--mode", "ill-typed"])
        .args(["--budget-per-lib", "10", "--batch-size", "5", "--jobs", "1"])
        .args(["--seed", "5", "--repo", &url, "--libs"])
        .arg(&libs)
        .arg("--out")
        .arg(&cli)
        .output()
        .expect("thalia batch runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(cells(&cli), cells(&out));
    assert!(
        stdout.contains(&format!("page: {}", cli.join("index.html").display())),
        "{stdout}"
    );

    // a second session: every cell is finished, none is run again
    let again = Cells::default();
    let outcome = run(&opts, &again).expect("the batch resumes");
    assert_eq!(outcome.summary.cells_done, 2);
    assert!(again.0.into_inner().is_empty());
}
