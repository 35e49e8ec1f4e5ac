//! Where a campaign's programs come from, in a deterministic order: synthesized on the fly
//! from an API ([`synth::SynthSource`], `thalia run`) or read from a directory written by
//! `thalia synth` ([`dir::DirSource`], `thalia check`).

pub mod dir;
pub mod synth;

use super::candidate::Candidate;
use super::feedback::Found;

/// Programs that cannot be read or made.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// Programs yielded by a source: the candidates to compile and the number of positions
/// consumed (candidates plus programs skipped because the store judged them already).
#[derive(Debug, Default)]
pub struct Batch {
    /// Programs to compile.
    pub candidates: Vec<Candidate>,
    /// Positions consumed.
    pub positions: u64,
    /// The keys of its positions the store judged already (skipped; the feedback learns
    /// their findings where an uninterrupted run would have).
    pub done: Vec<String>,
}

/// Where a campaign's programs come from, in a deterministic order.
pub trait Source {
    /// At most `max` next positions, without building programs for which `done` holds;
    /// `None` when there are no more.
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, SourceError>;

    /// Positions in one round, when known.
    fn round_len(&self) -> Option<u64>;

    /// Learns the findings of programs it yielded ([`crate::campaign::feedback`]); a source
    /// that cannot draw less of anything ignores them.
    fn learn(&mut self, _found: &[Found]) {}
}
