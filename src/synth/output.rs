//! Writing a synthesis run to disk: one source file per program, `programs.jsonl`, and
//! `summary.json`.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use thalia_translators::{translator, Language};

use super::{SynthConfig, SynthSummary, Synthesized};

/// What a run wrote.
#[derive(Clone, Debug, Serialize)]
pub struct Written {
    /// Source files written.
    pub files: usize,
    /// Programs the translator refused, with its message.
    pub untranslatable: Vec<(String, String)>,
    /// The manifest path.
    pub manifest: PathBuf,
}

/// The contents of `summary.json`.
#[derive(Serialize)]
struct SummaryFile<'a> {
    tool: &'static str,
    version: &'static str,
    seed: u64,
    language: String,
    api: &'a str,
    config: &'a SynthConfig,
    summary: &'a SynthSummary,
    untranslatable: &'a [(String, String)],
}

/// A problem writing the output.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The language has no translator.
    #[error("no translator for {0} yet")]
    NoTranslator(Language),
    /// A file could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Removes what an earlier run wrote into `out` (its manifest, summary and program files),
/// so that a directory never mixes two runs.
fn remove_previous_run(out: &Path) -> Result<(), OutputError> {
    let entries = fs::read_dir(out).map_err(io(out))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let generated = name == "programs.jsonl"
            || name == "summary.json"
            || (name.starts_with("Test_p")
                && Language::ALL
                    .iter()
                    .any(|l| name.ends_with(&format!(".{}", l.extension()))));
        if generated {
            let p = e.path();
            fs::remove_file(&p).map_err(io(&p))?;
        }
    }
    Ok(())
}

/// Writes the programs in `lang` into `out`, plus `programs.jsonl` (one record per line, in
/// id order) and `summary.json`.
#[allow(clippy::too_many_arguments)]
pub fn write_run(
    out: &Path,
    lang: Language,
    programs: &mut [Synthesized],
    seed: u64,
    api_label: &str,
    cfg: &SynthConfig,
    summary: &SynthSummary,
) -> Result<Written, OutputError> {
    let tr = translator(lang).ok_or(OutputError::NoTranslator(lang))?;
    write_run_with(out, tr.as_ref(), programs, seed, api_label, cfg, summary)
}

/// Like [`write_run`], with a given translator (e.g. Groovy with `@TypeChecked`).
#[allow(clippy::too_many_arguments)]
pub fn write_run_with(
    out: &Path,
    tr: &(dyn thalia_translators::Translator + Send + Sync),
    programs: &mut [Synthesized],
    seed: u64,
    api_label: &str,
    cfg: &SynthConfig,
    summary: &SynthSummary,
) -> Result<Written, OutputError> {
    let lang = tr.language();
    fs::create_dir_all(out).map_err(io(out))?;
    remove_previous_run(out)?;
    let manifest = out.join("programs.jsonl");
    let mut jsonl = BufWriter::new(fs::File::create(&manifest).map_err(io(&manifest))?);
    let mut files = 0;
    let mut untranslatable = Vec::new();
    for s in programs.iter_mut() {
        match tr.translate(&s.program) {
            Ok(src) => {
                let name = tr.file_name(&s.program);
                let path = out.join(&name);
                fs::write(&path, src).map_err(io(&path))?;
                s.record.file = name;
                files += 1;
                let line = serde_json::to_string(&s.record).unwrap_or_default();
                writeln!(jsonl, "{line}").map_err(io(&manifest))?;
            }
            Err(e) => untranslatable.push((s.record.id.clone(), e.to_string())),
        }
    }
    jsonl.flush().map_err(io(&manifest))?;
    let summary_path = out.join("summary.json");
    let sf = SummaryFile {
        tool: "thalia",
        version: env!("CARGO_PKG_VERSION"),
        seed,
        language: lang.to_string(),
        api: api_label,
        config: cfg,
        summary,
        untranslatable: &untranslatable,
    };
    let text = serde_json::to_string_pretty(&sf).unwrap_or_default();
    fs::write(&summary_path, text + "\n").map_err(io(&summary_path))?;
    Ok(Written {
        files,
        untranslatable,
        manifest,
    })
}
