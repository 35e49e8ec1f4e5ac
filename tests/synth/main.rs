//! Integration tests: synthesis: typing sequences, program forms, languages, determinism. One binary of modules, one per former test file.

mod kotlin_nullness;
mod kotlin_synthesis;
mod language_models;
mod scala_implicits;
mod scala_lists;
mod scala_synthesis;
#[path = "../support/mod.rs"]
mod support;
mod synth_config;
mod synth_declared;
mod synth_determinism;
mod synth_forms_deep;
mod synth_forms_expr;
mod synth_forms_program;
mod synth_forms_shape;
mod synth_javac;
mod synth_languages;
mod synth_paper;
