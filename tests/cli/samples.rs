//! Every real API JSON sample under `tests/fixtures/api-samples/` (copies of the original tool's API JSON) loads with no error and
//! round-trips through the model unchanged.

use std::path::PathBuf;

use thalia::api::Api;

fn sample_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/api-samples")
}

fn sample_dirs() -> Vec<PathBuf> {
    let root = sample_root();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 3, "expected java, kotlin and scala samples");
    dirs
}

#[test]
fn every_sample_loads_without_error() {
    for dir in sample_dirs() {
        let api = Api::load_dir(&dir).expect("directory loads");
        let errors: Vec<String> = api.report.errors().map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", dir.display());
        assert_eq!(
            api.report.members_seen,
            api.members.len(),
            "{}",
            dir.display()
        );
        assert!(api.classes.len() >= 2);
    }
}

#[test]
fn every_sample_round_trips() {
    for dir in sample_dirs() {
        let api = Api::load_dir(&dir).expect("directory loads");
        let out = tempfile::tempdir().unwrap();
        let written = api.write_dir(out.path()).unwrap();
        assert_eq!(written.len(), api.classes.len());
        for class in &api.classes {
            let orig: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&class.file).unwrap()).unwrap();
            let path = out.path().join(format!("{}.json", class.name));
            let back: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if orig != back {
                let o = serde_json::to_string_pretty(&orig).unwrap();
                let b = serde_json::to_string_pretty(&back).unwrap();
                for (lo, lb) in o.lines().zip(b.lines()) {
                    if lo != lb {
                        panic!(
                            "{}: first difference:\n  original: {lo}\n  written:  {lb}",
                            class.file.display()
                        );
                    }
                }
                panic!("{}: documents differ in length", class.file.display());
            }
        }
    }
}
