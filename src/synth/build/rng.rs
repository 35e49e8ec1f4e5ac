//! The random streams of synthesis: every random choice draws from a generator seeded by the
//! run's seed, a stream label and an index, so that the output depends on the seed alone.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The random number generator of synthesis (seeded per program for determinism).
pub type SynthRng = ChaCha8Rng;

/// The independent random streams drawn from a run's seed, one per purpose: each is seeded
/// by `(seed, stream, index)` ([`mix_seed`]), so that what one stream draws never shifts
/// another and the output does not depend on the order in which workers run.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u64)]
pub enum RngStream {
    /// A member's enumeration: substitutions and typing sequences (index: the member id).
    Enumerate = 1,
    /// A program's inhabitants and literals (index: the program's index in the run).
    Program = 2,
    /// The shuffled member order of a plan (index 0).
    PlanOrder = 3,
    /// A program's swarm draw: which expression forms it uses (index: the program's index).
    Swarm = 4,
    /// A program's shape drawn at build time: its generic test method's type variable and
    /// Kotlin's nullable declarations (index: the program's index).
    Shape = 5,
    /// A program's call form (Kotlin's operator and infix forms, default arguments left
    /// out; index: the program's index).
    CallForm = 6,
    /// Whether the call under test's functional arguments are written in place instead of
    /// as locals (index: the program's index).
    InlineArgs = 7,
    /// The seed of a campaign's synthesis round after the first (index: the round;
    /// `campaign::driver::round_seed` passes this value to [`mix_seed`]).
    Round = 0x7275_6e64,
}

impl RngStream {
    /// The seed of this stream's `index`-th generator under the run's `seed`.
    pub fn seed(self, seed: u64, index: u64) -> u64 {
        mix_seed(seed, self as u64, index)
    }

    /// This stream's `index`-th generator under the run's `seed`.
    pub fn rng(self, seed: u64, index: u64) -> SynthRng {
        SynthRng::seed_from_u64(self.seed(seed, index))
    }
}

/// Mixes a seed with a stream label ([`RngStream`]) and an index into a new 64-bit seed
/// (splitmix64).
pub fn mix_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_ids_are_pinned_and_streams_differ() {
        // changing an id changes every program of every seed
        assert_eq!(RngStream::Enumerate as u64, 1);
        assert_eq!(RngStream::Program as u64, 2);
        assert_eq!(RngStream::PlanOrder as u64, 3);
        assert_eq!(RngStream::Round.seed(5, 1), mix_seed(5, 0x7275_6e64, 1));
        assert_eq!(RngStream::Swarm as u64, 4);
        assert_eq!(RngStream::Shape as u64, 5);
        assert_eq!(RngStream::CallForm as u64, 6);
        assert_eq!(RngStream::InlineArgs as u64, 7);
        let streams = [
            RngStream::Enumerate,
            RngStream::Program,
            RngStream::PlanOrder,
            RngStream::Swarm,
            RngStream::Shape,
            RngStream::CallForm,
            RngStream::InlineArgs,
            RngStream::Round,
        ];
        let mut seeds: Vec<u64> = streams.iter().map(|s| s.seed(5, 0)).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), streams.len());
    }
}
