//! One program of a campaign, ready to compile, and its Java twin.

use crate::synth::{Expected, ProgramRecord};

/// The Java twin of a program: the same IR program written in Java. javac is the reference:
/// a finding whose twin gets the expected verdict from javac is confirmed; one whose twin does
/// not is suspected to be the generator's mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// The twin's file name (`Test_p000042.java`).
    pub file: String,
    /// Its source.
    pub source: String,
}

/// One program of a campaign, ready to compile.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Unique key of the program within the run (`well-typed/r0/p000042`).
    pub key: String,
    /// The program id (`p000042`).
    pub id: String,
    /// `well-typed` / `ill-typed`, with `+erase` when type arguments were erased.
    pub mode: String,
    /// The synthesis round (each round re-synthesizes the API with a derived seed).
    pub round: u64,
    /// The source file's name.
    pub file: String,
    /// The program's source.
    pub source: String,
    /// What the compiler must do with it.
    pub expected: Expected,
    /// Its `programs.jsonl` record.
    pub record: ProgramRecord,
    /// A command that regenerates the program, when known.
    pub regenerate: Option<String>,
    /// Its Java twin, for a program in another language.
    pub twin: Option<Twin>,
    /// Its IR, when synthesized in this run (kept with a finding for `thalia reduce`).
    pub program: Option<std::sync::Arc<thalia_translators::ir::Program>>,
}
