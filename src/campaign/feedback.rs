//! Findings fed back into the swarm, so that one cause cannot take half a campaign: the
//! programs that look like a family (the finding programs of one signature) that already
//! holds many programs are drawn less.
//!
//! A family is *large* once it holds more than [`FeedbackConfig::threshold`] programs; its
//! excess is the number of programs beyond that. A family *blames* the forms on in a share of
//! its programs at least [`FeedbackConfig::form_lift`] above their share among all programs
//! drawn so far (the forms that set it apart). A family that blames forms is behind a program
//! that has all of them on; one that blames none is put down to its members, and is behind a
//! program on a member with at least [`FeedbackConfig::member_repeat`] programs in it. A
//! program is kept with probability
//! `max(floor, 1 / (1 + excess / scale))` for the largest excess behind it, drawn from the
//! campaign's seed and the program's key: never below [`FeedbackConfig::floor`], so a family
//! is still sampled, and a program nothing is behind is always kept.
//!
//! Programs not kept are not compiled and do not count against a program-count budget, like
//! programs the translator cannot write; their content still depends on the seed and their
//! index alone, so every regeneration command stays valid. The weights are deterministic
//! given the seed and the order of the programs: the source learns the findings of a batch
//! only [`FeedbackConfig::lag`] batches later, waiting for them when they are late, so the
//! number of workers and their speed change nothing. A resumed run learns the findings of
//! the earlier sessions with the batches that skip their programs, where an uninterrupted run
//! learnt them, and counts their forms as drawn: a session that ended with its budget resumes
//! to the uninterrupted run's programs. After a kill or Ctrl-C the later draws can still
//! differ from an uninterrupted run's (`--no-feedback` when that matters). The shards of a campaign draw without feedback
//! (a shard does not see the others' findings, so its programs would not be the unsharded
//! run's).

use std::collections::BTreeMap;

use crate::synth::build::rng::mix_seed;

/// The random stream of the keep draw (as `synth::build::rng::RngStream`'s).
const KEEP_STREAM: u64 = 0x6b65_6570;

/// A finding program, as the source learns it: its key, member and family (its signature).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The program's key (`MODE/rROUND/pINDEX`).
    pub key: String,
    /// Its member under test.
    pub member: String,
    /// Its family: the finding's signature.
    pub family: String,
}

/// The constants of the feedback (as wasm-smith documents its `Config`).
#[derive(Clone, Debug, PartialEq)]
pub struct FeedbackConfig {
    /// Finding programs a family may hold before its programs are drawn less. Default 3: a
    /// signature with a handful of programs is still worth more of them (reduction and
    /// clustering pick the best one, and a few programs show a cause's range), while the
    /// twentieth program of one cause adds nothing.
    pub threshold: u64,
    /// The excess over the threshold at which a family's look-alikes are kept half the time.
    /// Default 4.0: a family four programs past the threshold halves its share of what
    /// follows, one twelve past it quarters it.
    pub scale: f64,
    /// The least probability that a program is kept. Default 0.1: a large family is still
    /// sampled (its members may hide a second cause with another signature), at a tenth of
    /// its rate.
    pub floor: f64,
    /// Programs of one member in a family that make the member one of the family's causes.
    /// Default 2: one finding program on a member may be the doing of its forms, a second
    /// one is the member's.
    pub member_repeat: u64,
    /// How much more often a form must be on in a family's programs than among all programs
    /// for the family to blame it. Default 0.3: swarm probabilities lie between 0.15 and 0.9,
    /// so a form on in every program of a family is blamed unless it is on in more than 70 %
    /// of all programs (those are not what sets the family apart).
    pub form_lift: f64,
    /// Batches between a batch and the batch that first sees its findings. Default: the
    /// workers plus one (set by the driver), so the source waits only for a batch that is
    /// late, not for the ones under way.
    pub lag: u64,
}

impl Default for FeedbackConfig {
    fn default() -> Self {
        FeedbackConfig {
            threshold: 3,
            scale: 4.0,
            floor: 0.1,
            member_repeat: 2,
            form_lift: 0.3,
            lag: 2,
        }
    }
}

/// One family as the feedback sees it.
#[derive(Clone, Debug, Default)]
struct Family {
    programs: u64,
    /// Programs of each member.
    members: BTreeMap<String, u64>,
    /// Programs with each form on (by form name).
    forms: BTreeMap<String, u64>,
}

/// What the feedback knows: the families of the findings learnt so far and the forms of all
/// programs drawn.
#[derive(Clone, Debug)]
pub struct Feedback {
    cfg: FeedbackConfig,
    seed: u64,
    families: BTreeMap<String, Family>,
    drawn: u64,
    drawn_forms: BTreeMap<String, u64>,
    skipped: u64,
}

impl Feedback {
    /// No findings yet, for a campaign with `seed`.
    pub fn new(cfg: FeedbackConfig, seed: u64) -> Feedback {
        Feedback {
            cfg,
            seed,
            families: BTreeMap::new(),
            drawn: 0,
            drawn_forms: BTreeMap::new(),
            skipped: 0,
        }
    }

    /// Counts a program drawn with the forms `forms` on (whether kept or not).
    pub fn saw(&mut self, forms: &[String]) {
        self.drawn += 1;
        for f in forms {
            *self.drawn_forms.entry(f.clone()).or_default() += 1;
        }
    }

    /// Learns a finding program with the forms `forms` on.
    pub fn learn(&mut self, found: &Found, forms: &[String]) {
        let fam = self.families.entry(found.family.clone()).or_default();
        fam.programs += 1;
        *fam.members.entry(found.member.clone()).or_default() += 1;
        for f in forms {
            *fam.forms.entry(f.clone()).or_default() += 1;
        }
    }

    /// The forms the large family `fam` blames.
    fn blamed<'a>(&self, fam: &'a Family) -> Vec<&'a str> {
        let drawn = self.drawn.max(1) as f64;
        fam.forms
            .iter()
            .filter(|(f, &n)| {
                let share = n as f64 / fam.programs.max(1) as f64;
                let base = self.drawn_forms.get(*f).copied().unwrap_or(0) as f64 / drawn;
                share - base >= self.cfg.form_lift
            })
            .map(|(f, _)| f.as_str())
            .collect()
    }

    /// The probability of keeping a program on `member` with the forms `forms` on.
    pub fn weight(&self, member: &str, forms: &[String]) -> f64 {
        let mut excess = 0;
        for fam in self.families.values() {
            if fam.programs <= self.cfg.threshold {
                continue;
            }
            let blamed = self.blamed(fam);
            let behind = if blamed.is_empty() {
                fam.members.get(member).copied().unwrap_or(0) >= self.cfg.member_repeat
            } else {
                blamed.iter().all(|b| forms.iter().any(|f| f == b))
            };
            if behind {
                excess = excess.max(fam.programs - self.cfg.threshold);
            }
        }
        if excess == 0 {
            return 1.0;
        }
        (1.0 / (1.0 + excess as f64 / self.cfg.scale.max(f64::MIN_POSITIVE))).max(self.cfg.floor)
    }

    /// Whether the program `key` on `member` with `forms` on is kept (drawn with its weight
    /// from the seed and the key); counts it as drawn, and as skipped when it is not.
    pub fn keep(&mut self, key: &str, member: &str, forms: &[String]) -> bool {
        let w = self.weight(member, forms);
        self.saw(forms);
        if w >= 1.0 {
            return true;
        }
        let h = mix_seed(self.seed, KEEP_STREAM, crate::hash::fnv1a64(key.as_bytes()));
        let u = (h >> 11) as f64 / (1u64 << 53) as f64;
        let kept = u < w;
        if !kept {
            self.skipped += 1;
        }
        kept
    }

    /// Programs not kept so far.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

/// The forms on in a program's swarm draw, by name (`references`, `conditionals`, ...).
pub fn forms_on(f: &crate::synth::build::features::Features) -> Vec<String> {
    match serde_json::to_value(f) {
        Ok(serde_json::Value::Object(m)) => m
            .into_iter()
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|(k, _)| k)
            .collect(),
        _ => Vec::new(),
    }
}

/// The share of the largest family among `counts` (finding programs per family), 0 when
/// there are none.
pub fn largest_share<'a>(counts: impl IntoIterator<Item = &'a u64>) -> f64 {
    let (mut total, mut max) = (0u64, 0u64);
    for &c in counts {
        total += c;
        max = max.max(c);
    }
    if total == 0 {
        0.0
    } else {
        max as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(i: usize, member: &str, family: &str) -> Found {
        Found {
            key: format!("well-typed/r0/p{i:06}"),
            member: member.into(),
            family: family.into(),
        }
    }

    fn forms(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_family_below_the_threshold_changes_nothing() {
        let mut fb = Feedback::new(FeedbackConfig::default(), 1);
        for i in 0..3 {
            fb.learn(&found(i, "m", "sig"), &forms(&["references"]));
        }
        assert_eq!(fb.weight("m", &forms(&["references"])), 1.0);
    }

    #[test]
    fn the_weight_decays_with_the_excess_and_stops_at_the_floor() {
        let cfg = FeedbackConfig::default();
        let mut fb = Feedback::new(cfg.clone(), 1);
        let mut last = 1.0;
        for i in 0..60 {
            fb.learn(&found(i, "m", "sig"), &[]);
            let w = fb.weight("m", &[]);
            let excess = (i as u64 + 1).saturating_sub(cfg.threshold);
            if excess == 0 {
                assert_eq!(w, 1.0);
            } else {
                let want = (1.0 / (1.0 + excess as f64 / cfg.scale)).max(cfg.floor);
                assert!((w - want).abs() < 1e-12, "{i}: {w} vs {want}");
                assert!(w <= last);
            }
            last = w;
        }
        assert_eq!(last, cfg.floor);
        // another member with no form in common: nothing is behind it
        assert_eq!(fb.weight("other", &forms(&["references"])), 1.0);
    }

    #[test]
    fn a_member_is_behind_a_family_once_it_repeats_there() {
        let mut fb = Feedback::new(FeedbackConfig::default(), 1);
        for i in 0..10 {
            fb.learn(&found(i, &format!("m{i}"), "sig"), &[]);
        }
        // ten members with one program each: none is a cause
        assert_eq!(fb.weight("m3", &[]), 1.0);
        fb.learn(&found(10, "m3", "sig"), &[]);
        assert!(fb.weight("m3", &[]) < 1.0);
        assert_eq!(fb.weight("m4", &[]), 1.0);
    }

    #[test]
    fn a_family_blames_the_forms_that_set_it_apart() {
        let mut fb = Feedback::new(FeedbackConfig::default(), 1);
        // 100 programs drawn: references on in 40, typed lambda parameters in 90
        for i in 0..100 {
            let mut f = vec!["typed_lambda_params".to_string()];
            if i % 10 == 9 {
                f.clear();
            }
            if i % 5 < 2 {
                f.push("references".into());
            }
            fb.saw(&f);
        }
        // a family of 12 programs over 12 members, all with references and typed params
        for i in 0..12 {
            fb.learn(
                &found(i, &format!("m{i}"), "refs"),
                &forms(&["references", "typed_lambda_params"]),
            );
        }
        let w_refs = fb.weight("fresh", &forms(&["references"]));
        assert!(w_refs < 0.5, "{w_refs}");
        // typed parameters are on in 90 % of all programs: not blamed
        assert_eq!(fb.weight("fresh", &forms(&["typed_lambda_params"])), 1.0);
        assert_eq!(fb.weight("fresh", &[]), 1.0);
    }

    #[test]
    fn the_keep_draw_follows_the_weight_and_the_seed() {
        let mut fb = Feedback::new(FeedbackConfig::default(), 9);
        for i in 0..15 {
            fb.learn(&found(i, "m", "sig"), &[]);
        }
        let w = fb.weight("m", &[]);
        let mut a = fb.clone();
        let kept: Vec<bool> = (0..2000)
            .map(|i| fb.keep(&format!("well-typed/r1/p{i:06}"), "m", &[]))
            .collect();
        let again: Vec<bool> = (0..2000)
            .map(|i| a.keep(&format!("well-typed/r1/p{i:06}"), "m", &[]))
            .collect();
        assert_eq!(kept, again, "deterministic");
        let share = kept.iter().filter(|&&k| k).count() as f64 / 2000.0;
        assert!((share - w).abs() < 0.05, "{share} vs {w}");
        assert_eq!(fb.skipped(), kept.iter().filter(|&&k| !k).count() as u64);
        assert!((0..50).all(|i| fb.keep(&format!("k{i}"), "other", &[])));
    }

    #[test]
    fn the_largest_share_is_the_biggest_family_over_all() {
        assert_eq!(largest_share(&[]), 0.0);
        assert_eq!(largest_share(&[3, 1]), 0.75);
    }
}
