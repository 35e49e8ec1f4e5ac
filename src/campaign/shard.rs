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

/// How far a count budget takes the unsharded campaign: the rounds before `round` whole, and
/// in `round` the first `lens[s]` programs of each mode's stream `s`. A shard takes its own
/// programs within these bounds, so that the shards of a count budget `N` together do the
/// `N` programs the unsharded run would (every program translated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cap {
    /// The last round the budget reaches.
    pub round: u64,
    /// Programs of each stream in that round.
    pub lens: Vec<usize>,
}

impl Cap {
    /// Replays the unsharded campaign's schedule on program counts alone: streams of
    /// `len_of(round)` programs each, interleaved in turns of at most `chunk` programs (the
    /// batch size), until `budget` programs. `len_of` is asked for each round reached.
    pub fn of_budget(budget: u64, chunk: usize, len_of: &mut dyn FnMut(u64) -> Vec<usize>) -> Cap {
        let mut round = 0;
        let mut lens = len_of(0);
        let mut next = vec![0usize; lens.len()];
        let mut turn = 0;
        let mut positions: u64 = 0;
        while positions < budget && !lens.is_empty() {
            let max = ((budget - positions).min(chunk as u64) as usize).max(1);
            let n = lens.len();
            let Some(s) = (0..n).map(|k| (turn + k) % n).find(|&s| next[s] < lens[s]) else {
                if lens.iter().all(|&l| l == 0) {
                    break;
                }
                round += 1;
                lens = len_of(round);
                next = vec![0; lens.len()];
                continue;
            };
            turn = (s + 1) % n;
            let take = max.min(lens[s] - next[s]);
            next[s] += take;
            positions += take as u64;
        }
        Cap { round, lens: next }
    }
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
        // two streams of 10, turns of 4: 4 + 4 + 4 + 4 + 2 + 2 = 20 in round 0
        let mut lens = |_r: u64| vec![10, 10];
        let cap = Cap::of_budget(9, 4, &mut lens);
        assert_eq!(
            cap,
            Cap {
                round: 0,
                lens: vec![5, 4]
            }
        );
        let cap = Cap::of_budget(20, 4, &mut lens);
        assert_eq!(
            cap,
            Cap {
                round: 0,
                lens: vec![10, 10]
            }
        );
        let cap = Cap::of_budget(23, 4, &mut lens);
        assert_eq!(
            cap,
            Cap {
                round: 1,
                lens: vec![3, 0]
            }
        );
        // an empty API never loops
        let cap = Cap::of_budget(5, 4, &mut |_| vec![0, 0]);
        assert_eq!(cap.lens, vec![0, 0]);
    }
}
