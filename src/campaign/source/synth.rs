//! Programs synthesized on the fly from an API (`thalia run`): the modes' programs interleaved
//! batch by batch, round after round, each round with a seed derived from the run's.

use std::path::{Path, PathBuf};

use thalia_translators::{JavaTranslator, Language, Translator};

use super::{Batch, Source, SourceError};
use crate::api::Api;
use crate::campaign::candidate::{Candidate, Twin};
use crate::campaign::feedback::{forms_on, Feedback, FeedbackConfig, Found};
use crate::campaign::records::{CENSUS_FILE, SYNTH_CONFIG_FILE};
use crate::campaign::shard::{schedule_round, Shard};
use crate::stages::{self, Stage};
use crate::synth::build::features::Features;
use crate::synth::build::rng::RngStream;
use crate::synth::census::Census;
use crate::synth::output::synth_command;
use crate::synth::{self, Expected, Mode, Plan, Selection, SynthConfig, SynthContext};

/// The seed of synthesis round `round` (round 0 uses the run's seed).
pub fn round_seed(seed: u64, round: u64) -> u64 {
    if round == 0 {
        seed
    } else {
        RngStream::Round.seed(seed, round)
    }
}

/// One stream of a synthesis source: a mode with its configuration.
struct Stream {
    label: String,
    cfg: SynthConfig,
    plan: Option<Plan>,
    /// The worker states and threads of the plan's builds (the states cleared with the plan
    /// at the end of a round).
    workers: synth::Workers,
    next: usize,
}

/// Programs synthesized on the fly from an API: the modes' programs interleaved batch by
/// batch, round after round (each round with a seed derived from the run's).
pub struct SynthSource {
    api: Api,
    ctx: SynthContext,
    translator: Box<dyn Translator + Send + Sync>,
    streams: Vec<Stream>,
    seed: u64,
    jobs: usize,
    api_arg: String,
    rounds: bool,
    round: u64,
    turn: usize,
    untranslatable: std::collections::BTreeMap<String, u64>,
    twin: Option<JavaTranslator>,
    untwinned: std::collections::BTreeMap<String, u64>,
    config_file: Option<PathBuf>,
    census: Census,
    census_file: Option<PathBuf>,
    shard: Option<Shard>,
    cap: Option<RoundCap>,
    feedback: Option<Feedback>,
}

/// Where a sharded source stands in the unsharded schedule of a count budget.
#[derive(Clone, Debug)]
struct RoundCap {
    /// The batch size, the unsharded schedule's turns.
    chunk: usize,
    /// Budget left after the current round.
    left: u64,
    /// The unsharded schedule's next stream after the current round.
    turn: usize,
    /// Programs of each stream the current round may take.
    lens: Vec<usize>,
    /// The budget ends in (or with) the current round.
    last: bool,
}

impl SynthSource {
    /// A source over `api` for `modes` (each with the knobs and erasure of `base`), written
    /// by `translator`; `api_arg` is how `thalia synth --api` names the API (for
    /// regeneration commands); `rounds` allows more than one round.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mut api: Api,
        translator: Box<dyn Translator + Send + Sync>,
        modes: &[Mode],
        base: &SynthConfig,
        seed: u64,
        jobs: usize,
        api_arg: &str,
        rounds: bool,
    ) -> SynthSource {
        let lang = translator.language();
        let native = crate::synth::LanguageRules::from(lang).native_syntax();
        let ctx = SynthContext::for_native(&mut api, native);
        let streams = modes
            .iter()
            .map(|&mode| Stream {
                label: format!(
                    "{}{}",
                    mode.as_str(),
                    if base.erase { "+erase" } else { "" }
                ),
                cfg: SynthConfig {
                    mode,
                    lang,
                    ..base.clone()
                },
                plan: None,
                workers: synth::Workers::new(jobs),
                next: 0,
            })
            .collect();
        SynthSource {
            api,
            ctx,
            translator,
            streams,
            seed,
            jobs: jobs.max(1),
            api_arg: api_arg.to_string(),
            rounds,
            round: 0,
            turn: 0,
            untranslatable: Default::default(),
            twin: (lang != Language::Java).then_some(JavaTranslator),
            untwinned: Default::default(),
            config_file: None,
            census: Census::default(),
            census_file: None,
            shard: None,
            cap: None,
            feedback: None,
        }
    }

    /// Feeds the campaign's findings back into this source ([`crate::campaign::feedback`]):
    /// programs that look like a large family are drawn less.
    pub fn set_feedback(&mut self, cfg: FeedbackConfig) {
        self.feedback = Some(Feedback::new(cfg, self.seed));
    }

    /// Programs the feedback did not keep, in this session.
    pub fn feedback_skipped(&self) -> u64 {
        self.feedback.as_ref().map_or(0, Feedback::skipped)
    }

    /// The forms on in the swarm draw of the program `key` (`MODE/rROUND/pINDEX`) of one of
    /// this source's streams, `None` for a key it did not make.
    fn forms_of(&self, key: &str) -> Option<Vec<String>> {
        let mut parts = key.split('/');
        let (label, round, id) = (parts.next()?, parts.next()?, parts.next()?);
        let round: u64 = round.strip_prefix('r')?.parse().ok()?;
        let index: u64 = id.strip_prefix('p')?.parse().ok()?;
        let stream = self.streams.iter().find(|s| s.label == label)?;
        Some(forms_of(&stream.cfg, round_seed(self.seed, round), index))
    }

    /// Makes this source shard `shard` of its campaign: it yields only the programs whose
    /// index the shard owns (numbered as in the unsharded run). With `budget`, a program
    /// count, it stops where the unsharded run with that budget and batch size `chunk` would
    /// (see [`schedule_round`]), round by round, and then ends.
    pub fn set_shard(&mut self, shard: Shard, budget: Option<u64>, chunk: usize) {
        self.shard = Some(shard);
        if let Some(b) = budget {
            self.cap = Some(RoundCap {
                chunk: chunk.max(1),
                left: b,
                turn: self.turn,
                lens: Vec::new(),
                last: false,
            });
            self.cap_round();
        }
    }

    /// Caps the current round by the unsharded schedule of the budget left.
    fn cap_round(&mut self) {
        let Some(mut cap) = self.cap.take() else {
            return;
        };
        let lens: Vec<usize> = (0..self.streams.len())
            .map(|s| self.plan_of(s).order.len())
            .collect();
        let r = schedule_round(&lens, cap.chunk, cap.turn, cap.left);
        cap.last = r.used >= cap.left;
        cap.left -= r.used.min(cap.left);
        cap.turn = r.turn;
        cap.lens = r.taken;
        self.cap = Some(cap);
    }

    /// Programs of stream `s` in the current round this source may take (the plan's, cut by
    /// a count budget's cap).
    fn stream_len(&mut self, s: usize) -> usize {
        let len = self.plan_of(s).order.len();
        match &self.cap {
            Some(cap) => len.min(cap.lens.get(s).copied().unwrap_or(0)),
            None => len,
        }
    }

    /// Keeps the census of the programs this source writes in `dir/census.json`, adding to
    /// the one there when the run is resumed.
    pub fn keep_census(&mut self, dir: &Path, resuming: bool) -> Result<(), SourceError> {
        let path = dir.join(CENSUS_FILE);
        if resuming {
            // rundir: a regular file, size-limited
            if let Ok(text) =
                crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
            {
                match serde_json::from_str::<Census>(&text) {
                    Ok(c) => self.census = c,
                    Err(e) => eprintln!(
                        "warning: {}: {e}; the census restarts from this session",
                        path.display()
                    ),
                }
            }
        }
        self.census_file = Some(path);
        Ok(())
    }

    /// The census of the programs written so far.
    pub fn census(&self) -> &Census {
        &self.census
    }

    fn write_census(&self) -> Result<(), SourceError> {
        let Some(path) = &self.census_file else {
            return Ok(());
        };
        let text = serde_json::to_string_pretty(&self.census)
            .map_err(|e| SourceError(format!("{}: {e}", path.display())))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| SourceError(format!("cannot write {}: {e}", path.display())))
    }

    /// Writes the effective synthesis config into `dir/synth-config.json`, which the
    /// findings' regeneration commands name when its knobs are not the defaults.
    pub fn write_config(&mut self, dir: &Path) -> Result<(), SourceError> {
        let Some(stream) = self.streams.first() else {
            return Ok(());
        };
        let path = dir.join(SYNTH_CONFIG_FILE);
        let text = serde_json::to_string_pretty(&stream.cfg)
            .map_err(|e| SourceError(format!("{}: {e}", path.display())))?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| SourceError(format!("cannot write {}: {e}", path.display())))?;
        self.config_file = Some(path);
        Ok(())
    }

    /// Programs the translator could not write (skipped), in all.
    pub fn untranslatable(&self) -> u64 {
        self.untranslatable.values().sum()
    }

    /// Programs the translator could not write (skipped) and programs written without their
    /// Java twin (`Java twin: ...`), counted by reason.
    pub fn untranslatable_reasons(&self) -> std::collections::BTreeMap<String, u64> {
        let mut all = self.untranslatable.clone();
        all.extend(self.untwinned.iter().map(|(k, v)| (k.clone(), *v)));
        all
    }

    fn plan_of(&mut self, s: usize) -> &Plan {
        let seed = round_seed(self.seed, self.round);
        let (api, ctx, jobs) = (&self.api, &self.ctx, self.jobs);
        let stream = &mut self.streams[s];
        let cfg = &stream.cfg;
        let workers = &stream.workers;
        stream.plan.get_or_insert_with(|| {
            let plan = stages::time(Stage::Plan, || {
                synth::Run {
                    api,
                    ctx,
                    cfg,
                    seed,
                    jobs,
                }
                .plan_kept(workers)
            });
            stages::add_planned(plan.order.len());
            plan
        })
    }
}

impl Source for SynthSource {
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, SourceError> {
        loop {
            // the next stream with programs left in this round
            let n = self.streams.len();
            let mut pick = None;
            for k in 0..n {
                let s = (self.turn + k) % n;
                let len = self.stream_len(s);
                let next = match self.shard {
                    Some(sh) => sh.first_at(self.streams[s].next),
                    None => self.streams[s].next,
                };
                if next < len {
                    pick = Some((s, len));
                    break;
                }
            }
            let Some((s, len)) = pick else {
                let empty = self
                    .streams
                    .iter()
                    .all(|st| st.plan.as_ref().is_none_or(|p| p.order.is_empty()));
                let capped = self.cap.as_ref().is_some_and(|c| c.last);
                if !self.rounds || empty || capped {
                    return Ok(None);
                }
                self.round += 1;
                for st in &mut self.streams {
                    st.plan = None;
                    st.workers.clear();
                    st.next = 0;
                }
                self.cap_round();
                continue;
            };
            self.turn = (s + 1) % n;
            let seed = round_seed(self.seed, self.round);
            let round = self.round;
            let start = self.streams[s].next;
            // the positions of this batch: `max` programs of the stream, or of the shard's
            let indices: Vec<usize> = match self.shard {
                None => (start..(start + max).min(len)).collect(),
                Some(sh) => (sh.first_at(start)..len)
                    .step_by(sh.count as usize)
                    .take(max)
                    .collect(),
            };
            let end = indices.last().map_or(len, |&i| i + 1);
            self.streams[s].next = end;
            let label = self.streams[s].label.clone();
            let key = |i: usize| format!("{label}/r{round}/{}", synth::program_id(i));
            let todo: Vec<usize> = indices
                .iter()
                .copied()
                .filter(|&i| !done(&key(i)))
                .collect();
            let mut batch = Batch {
                candidates: Vec::new(),
                positions: indices.len() as u64,
                done: indices
                    .iter()
                    .map(|&i| key(i))
                    .filter(|k| done(k))
                    .collect(),
            };
            if todo.is_empty() {
                return Ok(Some(batch));
            }
            let stream = &self.streams[s];
            let Some(plan) = stream.plan.as_ref() else {
                return Ok(Some(batch));
            };
            let run = synth::Run {
                api: &self.api,
                ctx: &self.ctx,
                cfg: &stream.cfg,
                seed,
                jobs: self.jobs,
            };
            let mut built = run.build_kept(plan, &Selection::Only(todo), &stream.workers, &|| {});
            built.sort_by_key(|p| p.index);
            let mut untranslatable = 0;
            let mut skipped = 0;
            let regenerate = synth_command(
                &self.api_arg,
                &stream.cfg,
                seed,
                self.config_file.as_deref(),
            );
            // the feedback sees every position in order, those judged earlier too (as the
            // session that judged them did), and keeps or skips the others
            let mut kept = Vec::with_capacity(built.len());
            let mut built = built.into_iter().peekable();
            for &i in &indices {
                let next = built.next_if(|p| p.index == i);
                let Some(fb) = &mut self.feedback else {
                    kept.extend(next);
                    continue;
                };
                let forms = forms_of(&stream.cfg, seed, i as u64);
                match next {
                    Some(p) => {
                        if fb.keep(&key(i), &p.record.member, &forms) {
                            kept.push(p);
                        } else {
                            skipped += 1;
                        }
                    }
                    None if done(&key(i)) => fb.saw(&forms),
                    None => {}
                }
            }
            for mut p in kept {
                let source = match self.translator.translate(&p.program) {
                    Ok(s) => s,
                    Err(e) => {
                        untranslatable += 1;
                        *self
                            .untranslatable
                            .entry(e.reason().to_string())
                            .or_default() += 1;
                        continue;
                    }
                };
                self.census.add_record(&p.program, &p.record);
                let file = self.translator.file_name(&p.program);
                p.record.file = file.clone();
                p.record.call_lines = self.translator.call_lines(&source);
                let twin = match &self.twin {
                    Some(t) => match t.translate(&p.program) {
                        Ok(source) => {
                            let file = t.file_name(&p.program);
                            p.record.twin = Some(file.clone());
                            Some(Twin { file, source })
                        }
                        Err(e) => {
                            let reason = format!("Java twin: {}", e.reason());
                            p.record
                                .twin_not_applicable
                                .get_or_insert_with(|| reason.clone());
                            *self.untwinned.entry(reason).or_default() += 1;
                            None
                        }
                    },
                    None => None,
                };
                batch.candidates.push(Candidate {
                    twin,
                    program: Some(std::sync::Arc::new(p.program)),
                    key: key(p.index),
                    id: p.record.id.clone(),
                    mode: label.clone(),
                    round,
                    file,
                    source,
                    expected: Expected::of_mode(stream.cfg.mode),
                    regenerate: Some(format!("{regenerate} --only {}", p.record.id)),
                    record: p.record,
                });
            }
            // a program the translator cannot write is no program: it does not count
            batch.positions -= untranslatable;
            // nor does one the feedback does not keep (it is not compiled)
            batch.positions -= skipped;
            self.write_census()?;
            return Ok(Some(batch));
        }
    }

    fn learn(&mut self, found: &[Found]) {
        for f in found {
            let Some(forms) = self.forms_of(&f.key) else {
                continue;
            };
            if let Some(fb) = &mut self.feedback {
                fb.learn(f, &forms);
            }
        }
    }

    fn round_len(&self) -> Option<u64> {
        let lens: Option<Vec<usize>> = self
            .streams
            .iter()
            .map(|s| s.plan.as_ref().map(|p| p.order.len()))
            .collect();
        let mut lens = lens?;
        if let Some(cap) = &self.cap {
            for (l, c) in lens.iter_mut().zip(&cap.lens) {
                *l = (*l).min(*c);
            }
        }
        Some(match self.shard {
            Some(sh) => lens.iter().map(|&l| sh.owned_below(l) as u64).sum(),
            None => lens.iter().sum::<usize>() as u64,
        })
    }
}

/// The forms on in the swarm draw of program `index` of a round with `seed` under `cfg`.
fn forms_of(cfg: &SynthConfig, seed: u64, index: u64) -> Vec<String> {
    let rules = crate::synth::LanguageRules::from(cfg.lang);
    forms_on(&Features::draw(&cfg.swarm, rules, seed, index))
}

impl SynthSource {
    /// Computes the first round's plans (so that [`Source::round_len`] is known).
    pub fn prepare(&mut self) {
        for s in 0..self.streams.len() {
            self.plan_of(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sources and keys of the first `n` programs of a Java source over `@NAME`, drawn
    /// in batches of `batch` with `jobs` threads (worker states kept between batches).
    fn drawn(name: &str, n: usize, batch: usize, jobs: usize) -> Vec<(String, String)> {
        let arg = std::path::PathBuf::from(name);
        let src = crate::api::source::ApiSource::from_arg(Some(&arg));
        let api = src.load_for(None).expect("an embedded API");
        let mut source = SynthSource::new(
            api,
            Box::new(JavaTranslator),
            &[Mode::WellTyped, Mode::IllTyped],
            &SynthConfig::default(),
            5,
            jobs,
            name,
            false,
        );
        let mut out = Vec::new();
        while out.len() < n {
            let Some(b) = source.next_batch(batch, &|_| false).expect("a batch") else {
                break;
            };
            out.extend(b.candidates.into_iter().map(|c| (c.key, c.source)));
        }
        out.sort();
        out
    }

    #[test]
    fn worker_states_kept_between_batches_change_no_program() {
        // batches of 7 with two threads reuse each worker state many times; batches of 40
        // with one thread in another order: the same programs, byte for byte
        let small = drawn("@commons-lang3-3.12.0", 80, 7, 2);
        let large = drawn("@commons-lang3-3.12.0", 80, 40, 1);
        assert!(small.len() >= 80, "{} programs", small.len());
        let by_key = |v: &[(String, String)]| -> std::collections::BTreeMap<String, String> {
            v.iter().cloned().collect()
        };
        let (a, b) = (by_key(&small), by_key(&large));
        let common: Vec<&String> = a.keys().filter(|k| b.contains_key(*k)).collect();
        assert!(common.len() >= 60, "{} programs in common", common.len());
        for &k in &common {
            assert_eq!(a[k], b[k], "{k} differs between the two drawings");
        }
        // and the programs of fresh workers, as `thalia synth` builds them
        let arg = std::path::PathBuf::from("@commons-lang3-3.12.0");
        let mut api = crate::api::source::ApiSource::from_arg(Some(&arg))
            .load_for(None)
            .expect("an embedded API");
        let native = crate::synth::LanguageRules::from(Language::Java).native_syntax();
        let ctx = SynthContext::for_native(&mut api, native);
        let cfg = SynthConfig {
            mode: Mode::IllTyped,
            lang: Language::Java,
            ..SynthConfig::default()
        };
        let run = synth::Run {
            api: &api,
            ctx: &ctx,
            cfg: &cfg,
            seed: 5,
            jobs: 1,
        };
        let plan = run.plan();
        let ill: Vec<(usize, &String)> = common
            .iter()
            .copied()
            .filter_map(|k| {
                let i = k.strip_prefix("ill-typed/r0/p")?.parse().ok()?;
                Some((i, k))
            })
            .collect();
        assert!(ill.len() >= 20, "{} ill-typed programs", ill.len());
        let fresh = run.build(
            &plan,
            &Selection::Only(ill.iter().map(|&(i, _)| i).collect()),
            &|| {},
        );
        assert_eq!(fresh.len(), ill.len());
        for (p, (_, k)) in fresh.iter().zip(&ill) {
            let text = JavaTranslator.translate(&p.program).expect("translatable");
            assert_eq!(text, a[*k], "{k} differs from a fresh worker's");
        }
    }

    #[test]
    fn round_zero_uses_the_run_seed_and_later_rounds_differ() {
        assert_eq!(round_seed(7, 0), 7);
        assert_ne!(round_seed(7, 1), 7);
        assert_ne!(round_seed(7, 1), round_seed(7, 2));
    }
}
