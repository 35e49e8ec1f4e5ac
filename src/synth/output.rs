//! Writing a synthesis run to disk: one source file per program, `programs.jsonl`, and
//! `summary.json`.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thalia_translators::{translator, JavaTranslator, Language, Translator};

use super::typing::LanguageRules;
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

/// The contents of `summary.json`: what a synthesis run was and what it did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunSummary {
    /// `thalia`.
    pub tool: String,
    /// The version of thalia that wrote it.
    pub version: String,
    /// The run's seed.
    pub seed: u64,
    /// The programs' language.
    pub language: Language,
    /// The API, as `thalia synth --api` names it (a directory, `@NAME`, or the embedded
    /// API's label).
    pub api: String,
    /// The effective configuration.
    pub config: SynthConfig,
    /// Counts.
    pub summary: SynthSummary,
    /// Programs the translator refused: id and reason.
    pub untranslatable: Vec<(String, String)>,
    /// Programs whose Java twin could not be written: id and reason.
    #[serde(default)]
    pub untwinned: Vec<(String, String)>,
}

/// A problem reading `summary.json`.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a summary.
    #[error("{path} is not a thalia summary.json: {source}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The error.
        source: serde_json::Error,
    },
}

impl RunSummary {
    /// Reads `dir/summary.json`.
    pub fn read(dir: &Path) -> Result<RunSummary, SummaryError> {
        let path = dir.join("summary.json");
        // rundir: a regular file, size-limited
        let text = crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
            .map_err(|source| SummaryError::Io {
                path: path.clone(),
                source,
            })?;
        serde_json::from_str(&text).map_err(|source| SummaryError::Malformed { path, source })
    }

    /// The `thalia synth` command that regenerates the programs of the run in `dir` (add
    /// `--only ID`); a non-default config is read back from `dir/summary.json`.
    pub fn regenerate_command(&self, dir: &Path) -> String {
        synth_command(
            &self.api,
            &self.config,
            self.seed,
            Some(&dir.join("summary.json")),
        )
    }
}

/// The `thalia synth` command that writes the programs of `cfg` from `api` with `seed`
/// (append `--only ID` for one program); a config whose knobs are not all default is passed
/// as `--synth-config config_file` (a file that holds it).
pub fn synth_command(
    api: &str,
    cfg: &SynthConfig,
    seed: u64,
    config_file: Option<&Path>,
) -> String {
    // the embedded API is the default: no `--api`
    let api = if api.is_empty() || api == crate::embedded::EMBEDDED_LABEL {
        String::new()
    } else {
        format!(" --api '{api}'")
    };
    let config = match config_file {
        Some(f) if !cfg.knobs_are_default() => format!(" --synth-config '{}'", f.display()),
        _ => String::new(),
    };
    format!(
        "thalia synth{api} --lang {} --mode {}{}{config} --seed {seed}",
        cfg.lang,
        cfg.mode.as_str(),
        if cfg.erase { " --erase" } else { "" },
    )
}

/// The file of a synthesis directory that holds every written program's IR, one
/// [`ProgramIr`] per line in `programs.jsonl`'s order: what `thalia reduce` reduces a
/// finding of `thalia check` from.
pub const PROGRAMS_IR: &str = "programs.ir.jsonl";

/// One line of [`PROGRAMS_IR`]: a program's id and IR.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramIr {
    /// The program's id (first, so that a reader can find a line without parsing it).
    pub id: String,
    /// Its IR.
    pub program: thalia_translators::ir::Program,
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
            || name == PROGRAMS_IR
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
    let ir_path = out.join(PROGRAMS_IR);
    let mut ir_lines = BufWriter::new(fs::File::create(&ir_path).map_err(io(&ir_path))?);
    let mut files = 0;
    let mut untranslatable = Vec::new();
    let mut untwinned = Vec::new();
    let twin = LanguageRules::new(lang)
        .has_java_twin()
        .then_some(JavaTranslator);
    for s in programs.iter_mut() {
        match tr.translate(&s.program) {
            Ok(src) => {
                let name = tr.file_name(&s.program);
                let path = out.join(&name);
                s.record.call_lines = tr.call_lines(&src);
                fs::write(&path, src).map_err(io(&path))?;
                s.record.file = name;
                files += 1;
                if let Some(t) = &twin {
                    match t.translate(&s.program) {
                        Ok(java) => {
                            let name = t.file_name(&s.program);
                            let path = out.join(&name);
                            fs::write(&path, java).map_err(io(&path))?;
                            s.record.twin = Some(name);
                        }
                        Err(e) => {
                            // recorded: a campaign must not judge the finding by a twin
                            s.record
                                .twin_not_applicable
                                .get_or_insert_with(|| format!("Java twin: {}", e.reason()));
                            untwinned.push((s.record.id.clone(), e.to_string()))
                        }
                    }
                }
                let line = serde_json::to_string(&s.record).map_err(|e| OutputError::Io {
                    path: manifest.clone(),
                    source: e.into(),
                })?;
                writeln!(jsonl, "{line}").map_err(io(&manifest))?;
                let ir = ProgramIr {
                    id: s.record.id.clone(),
                    program: s.program.clone(),
                };
                let ir = serde_json::to_string(&ir).map_err(|e| OutputError::Io {
                    path: ir_path.clone(),
                    source: e.into(),
                })?;
                writeln!(ir_lines, "{ir}").map_err(io(&ir_path))?;
            }
            Err(e) => untranslatable.push((s.record.id.clone(), e.to_string())),
        }
    }
    jsonl.flush().map_err(io(&manifest))?;
    ir_lines.flush().map_err(io(&ir_path))?;
    let summary_path = out.join("summary.json");
    let sf = RunSummary {
        tool: "thalia".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        seed,
        language: lang,
        api: api_label.to_string(),
        config: cfg.clone(),
        summary: summary.clone(),
        untranslatable: untranslatable.clone(),
        untwinned,
    };
    let text = serde_json::to_string_pretty(&sf).map_err(|e| OutputError::Io {
        path: summary_path.clone(),
        source: e.into(),
    })?;
    fs::write(&summary_path, text + "\n").map_err(io(&summary_path))?;
    Ok(Written {
        files,
        untranslatable,
        manifest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regeneration_commands_name_the_api_unless_it_is_the_embedded_default() {
        let cfg = SynthConfig::default();
        for embedded in ["", crate::embedded::EMBEDDED_LABEL] {
            let c = synth_command(embedded, &cfg, 3, None);
            assert!(!c.contains("--api"), "{c}");
            assert!(c.ends_with("--seed 3"), "{c}");
        }
        assert!(synth_command("@java.base", &cfg, 3, None).contains("--api '@java.base'"));
    }
}
