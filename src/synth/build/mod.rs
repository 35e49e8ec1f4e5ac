//! The program under construction: a worker (its API copy, memo tables and random streams),
//! random types and substitutions, the enumeration of typing sequences, inhabitants (Yen
//! paths and unification), expression forms (references, lambdas, anonymous classes, conditionals, call chains,
//! casts, the call under test held by a function), the swarm draw of forms, and the IR
//! program with its manifest record. It asks `synth::typing` what the language accepts.

pub mod alias;
pub mod anonymous;
pub mod conditional;
pub mod enumerate;
pub mod features;
pub mod inhabit;
pub mod inhabitant;
pub mod ir;
pub mod lambda;
pub mod program;
pub mod record;
pub mod ref_index;
pub mod reference;
pub mod rng;
pub mod shape;
pub mod worker;
pub mod wrap;

pub use features::Features;
pub use inhabitant::{CallShape, FnType, Inhabitant};
pub use ir::to_ir;
pub use record::{BrokenRecord, Expected, ProgramRecord, RecordKind, SequenceRecord, ShapeRecord};
pub use rng::{mix_seed, RngStream, SynthRng};
pub use worker::{Worker, WorkerState};
