//! Shards of a campaign: `thalia run --shard I/N` synthesizes and compiles only the programs
//! whose index (the number in `p000042`) is congruent to `I` modulo `N`, with the seed and
//! the program numbering of the unsharded run, so that `N` shards run anywhere (a Slurm job
//! array, a Kubernetes Indexed Job) together make exactly the unsharded campaign and no
//! program is synthesized twice. `thalia merge` ([`super::merge`]) joins their run
//! directories.
//!
//! Shard indices are 0-based (`0/4` … `3/4`), like `JOB_COMPLETION_INDEX` and a Slurm array
//! declared `--array=0-3`; a Slurm array that starts elsewhere is shifted by
//! `SLURM_ARRAY_TASK_MIN`.

use serde::{Deserialize, Serialize};

/// The most shards a campaign may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// One shard of a campaign: the programs whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's index, `0 ≤ index < count`.
    pub index: u64,
    /// How many shards the campaign is split into.
    pub count: u64,
}

/// A shard that cannot be had from the command line or the environment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// `--shard` is not `I/N` with `0 ≤ I < N ≤ MAX_SHARDS`.
    #[error(
        "`{0}` is not a shard: give I/N with 0 <= I < N <= {MAX_SHARDS} (0-based, e.g. 0/4 .. 3/4)"
    )]
    Syntax(String),
    /// An environment variable holds no usable number.
    #[error("{var}={value} is not a shard index or count")]
    Env {
        /// The variable.
        var: String,
        /// Its value.
        value: String,
    },
    /// `--shards` without an index in the environment.
    #[error("--shards needs this process's shard index: give --shard I/N, or run in a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)")]
    NoIndex,
    /// `--shards auto` outside a Slurm job array.
    #[error("--shards auto takes the count from SLURM_ARRAY_TASK_COUNT, which is not set: give --shards N")]
    NoCount,
    /// The index from the environment is not below the count.
    #[error("shard index {index} (from {var}) is not below the shard count {count}")]
    OutOfRange {
        /// The index.
        index: u64,
        /// The count.
        count: u64,
        /// Where the index came from.
        var: String,
    },
    /// `--shard` and `--shards` disagree.
    #[error("--shard {shard} and --shards {count} disagree")]
    Conflict {
        /// `--shard`.
        shard: Shard,
        /// `--shards`.
        count: u64,
    },
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    /// `I/N`, 0-based.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Syntax(s.to_string());
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
}

impl Shard {
    /// Shard `index` of `count`, when `index < count ≤ MAX_SHARDS`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        ((1..=MAX_SHARDS).contains(&count) && index < count).then_some(Shard { index, count })
    }

    /// True when the program with index `i` belongs to this shard.
    pub fn owns(&self, i: usize) -> bool {
        i as u64 % self.count == self.index
    }

    /// The first index at or after `start` that this shard owns.
    pub fn first_at(&self, start: usize) -> usize {
        let n = self.count as usize;
        let i = self.index as usize;
        start + (i + n - start % n) % n
    }

    /// How many indices in `0..len` this shard owns.
    pub fn owned_below(&self, len: usize) -> usize {
        let (n, i) = (self.count as usize, self.index as usize);
        if len <= i {
            0
        } else {
            (len - i).div_ceil(n)
        }
    }

    /// The shard of this process from the flags and the environment (read through `env`):
    /// `--shard I/N` as given (checked against `--shards`); with `--shards N` (or `auto`: the
    /// count from `SLURM_ARRAY_TASK_COUNT`) the index comes from `SLURM_ARRAY_TASK_ID` (minus
    /// `SLURM_ARRAY_TASK_MIN`) or `JOB_COMPLETION_INDEX`; neither flag: no shard.
    pub fn resolve(
        shard: Option<Shard>,
        shards: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Shard>, ShardError> {
        let number = |var: &str| -> Result<Option<u64>, ShardError> {
            match env(var) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| ShardError::Env {
                    var: var.to_string(),
                    value: v,
                }),
            }
        };
        let count = match shards.map(str::trim) {
            None => None,
            Some("auto") => Some(number("SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::NoCount)?),
            Some(n) => Some(
                n.parse::<u64>()
                    .ok()
                    .filter(|&n| (1..=MAX_SHARDS).contains(&n))
                    .ok_or_else(|| ShardError::Syntax(format!("--shards {n}")))?,
            ),
        };
        match (shard, count) {
            (Some(s), Some(n)) if s.count != n => Err(ShardError::Conflict { shard: s, count: n }),
            (Some(s), _) => Ok(Some(s)),
            (None, None) => Ok(None),
            (None, Some(count)) => {
                let (var, index) = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
                    let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
                    ("SLURM_ARRAY_TASK_ID", id.saturating_sub(min))
                } else if let Some(i) = number("JOB_COMPLETION_INDEX")? {
                    ("JOB_COMPLETION_INDEX", i)
                } else {
                    return Err(ShardError::NoIndex);
                };
                Shard::new(index, count)
                    .map(Some)
                    .ok_or_else(|| ShardError::OutOfRange {
                        index,
                        count,
                        var: var.to_string(),
                    })
            }
        }
    }
}

/// The unsharded campaign's schedule within one round under a count budget: what
/// [`schedule_round`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSchedule {
    /// Programs taken from each mode's stream, from its start.
    pub taken: Vec<usize>,
    /// Programs taken in all (positions of the budget used).
    pub used: u64,
    /// The stream whose turn comes next.
    pub turn: usize,
}

/// Replays, on program counts alone, one round of the unsharded campaign's schedule: streams
/// of `lens` programs, interleaved in turns of at most `chunk` programs (the batch size),
/// starting with stream `turn`, until `budget` programs. A shard takes its own programs
/// within `taken`, so that the shards of a count budget together do the programs the
/// unsharded run would (every program translated); the rounds before are whole.
pub fn schedule_round(lens: &[usize], chunk: usize, turn: usize, budget: u64) -> RoundSchedule {
    let n = lens.len();
    let mut taken = vec![0usize; n];
    let mut turn = turn;
    let mut used: u64 = 0;
    while used < budget && n > 0 {
        let max = ((budget - used).min(chunk.max(1) as u64) as usize).max(1);
        let Some(s) = (0..n).map(|k| (turn + k) % n).find(|&s| taken[s] < lens[s]) else {
            break;
        };
        turn = (s + 1) % n;
        let take = max.min(lens[s] - taken[s]);
        taken[s] += take;
        used += take as u64;
    }
    RoundSchedule { taken, used, turn }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_own_their_residues() {
        let s: Shard = "1/4".parse().expect("parses");
        assert_eq!(s, Shard { index: 1, count: 4 });
        assert_eq!(s.to_string(), "1/4");
        for bad in ["4/4", "1", "a/4", "0/0", "-1/4", "1/2000000"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!(s.owns(5) && !s.owns(4));
        assert_eq!(s.first_at(0), 1);
        assert_eq!(s.first_at(2), 5);
        assert_eq!(s.first_at(5), 5);
        assert_eq!(s.owned_below(0), 0);
        assert_eq!(s.owned_below(1), 0);
        assert_eq!(s.owned_below(2), 1);
        assert_eq!(s.owned_below(9), 2);
        let total: usize = (0..4)
            .map(|i| Shard { index: i, count: 4 }.owned_below(10))
            .sum();
        assert_eq!(total, 10);
    }

    #[test]
    fn the_index_comes_from_slurm_or_kubernetes() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let none = env(&[]);
        assert_eq!(Shard::resolve(None, None, &none), Ok(None));
        assert_eq!(
            Shard::resolve(None, Some("4"), &none),
            Err(ShardError::NoIndex)
        );
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            Shard::resolve(None, Some("auto"), &slurm),
            Ok(Some(Shard { index: 2, count: 4 }))
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "3")]);
        assert_eq!(
            Shard::resolve(None, Some("4"), &k8s),
            Ok(Some(Shard { index: 3, count: 4 }))
        );
        assert!(matches!(
            Shard::resolve(None, Some("3"), &k8s),
            Err(ShardError::OutOfRange { .. })
        ));
        assert_eq!(
            Shard::resolve(None, Some("auto"), &k8s),
            Err(ShardError::NoCount)
        );
        let given = Shard { index: 0, count: 2 };
        assert_eq!(Shard::resolve(Some(given), None, &k8s), Ok(Some(given)));
        assert!(matches!(
            Shard::resolve(Some(given), Some("4"), &k8s),
            Err(ShardError::Conflict { .. })
        ));
    }

    #[test]
    fn a_count_budget_caps_the_streams_as_the_unsharded_schedule_does() {
        // two streams of 10, turns of 4: 4 + 4 + 4 + 4 + 2 + 2 = 20 in a round
        let r = schedule_round(&[10, 10], 4, 0, 9);
        assert_eq!((r.taken, r.used), (vec![5, 4], 9));
        let r = schedule_round(&[10, 10], 4, 0, 23);
        assert_eq!((r.taken, r.used, r.turn), (vec![10, 10], 20, 0));
        let next = schedule_round(&[10, 10], 4, r.turn, 23 - r.used);
        assert_eq!((next.taken, next.used), (vec![3, 0], 3));
        // the turn carries over: the second stream starts
        let r = schedule_round(&[10, 10], 4, 1, 3);
        assert_eq!(r.taken, vec![0, 3]);
        // empty streams and no budget never loop
        assert_eq!(schedule_round(&[0, 0], 4, 0, 5).used, 0);
        assert_eq!(schedule_round(&[10], 4, 0, 0).taken, vec![0]);
    }
}
