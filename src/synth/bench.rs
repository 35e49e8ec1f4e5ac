//! `thalia bench synth`: how fast synthesis is, measured on a real API.

use std::time::{Duration, Instant};

use serde::Serialize;
use thalia_translators::{translator, Language};

use super::build::worker::Worker;
use super::{Run, Selection};

/// Figures of one benchmark run.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Classes in the API.
    pub classes: usize,
    /// Members in the API.
    pub members: usize,
    /// Graph nodes.
    pub graph_nodes: usize,
    /// Graph edges.
    pub graph_edges: usize,
    /// Seconds to build the synthesis context (graph, subclass index, member tables).
    pub context_seconds: f64,
    /// Programs timed one by one on one core.
    pub single_core_programs: usize,
    /// Median time of one program on one core (typing sequence enumeration of its member,
    /// inhabitants, erasure, translation to source), in microseconds.
    pub single_core_median_us: f64,
    /// 90th percentile of the same, in microseconds.
    pub single_core_p90_us: f64,
    /// Worker threads of the parallel run.
    pub jobs: usize,
    /// Programs of the parallel run (pass 1 over every member, then pass 2).
    pub parallel_programs: usize,
    /// Wall-clock seconds of the parallel run.
    pub parallel_seconds: f64,
    /// Programs per second of the parallel run.
    pub programs_per_second: f64,
    /// Peak resident memory of the process, in MiB (Linux `VmHWM`).
    pub peak_rss_mib: Option<f64>,
}

/// Peak resident set size of this process in MiB, where the OS reports it.
pub fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Times `single` programs one by one on one core, then a full parallel run of up to
/// `parallel` programs with `run.jobs` threads.
pub fn bench(run: &Run<'_>, context_seconds: f64, single: usize, parallel: usize) -> BenchReport {
    let tr = translator(Language::Java);
    // one core, one program at a time: enumerate its member, build it, translate it
    let one = Run { jobs: 1, ..*run };
    let plan = one.plan();
    let mut w = Worker::new(run.api.clone(), run.ctx, run.cfg);
    let mut times: Vec<Duration> = Vec::new();
    for (i, &(m, k)) in plan.order.iter().take(single).enumerate() {
        let t0 = Instant::now();
        if let Ok(tasks) = w.enumerate_member(m, run.seed) {
            if let Some(task) = tasks.get(k) {
                let id = super::program_id(i);
                let (p, _, _) = w.build_program(task, &id, run.seed, i as u64);
                if let Some(tr) = &tr {
                    let _ = tr.translate(&p);
                }
            }
        }
        times.push(t0.elapsed());
    }
    times.sort();
    let pct = |q: f64| -> f64 {
        if times.is_empty() {
            return 0.0;
        }
        let i = ((times.len() - 1) as f64 * q).round() as usize;
        times[i].as_secs_f64() * 1e6
    };
    // all cores: both passes, as `thalia synth` runs them
    let t0 = Instant::now();
    let plan = run.plan();
    let built = run.build(&plan, &Selection::First(parallel), &|| {});
    if let Some(tr) = &tr {
        use rayon::prelude::*;
        built.par_iter().for_each(|s| {
            let _ = tr.translate(&s.program);
        });
    }
    let secs = t0.elapsed().as_secs_f64();
    BenchReport {
        classes: run.api.classes.len(),
        members: run.api.members.len(),
        graph_nodes: run.ctx.graph.node_count(),
        graph_edges: run.ctx.graph.edge_count(),
        context_seconds,
        single_core_programs: times.len(),
        single_core_median_us: pct(0.5),
        single_core_p90_us: pct(0.9),
        jobs: run.jobs,
        parallel_programs: built.len(),
        parallel_seconds: secs,
        programs_per_second: if secs > 0.0 {
            built.len() as f64 / secs
        } else {
            0.0
        },
        peak_rss_mib: peak_rss_mib(),
    }
}

impl BenchReport {
    /// The report as a readable table.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let mut row = |k: &str, v: String| s.push_str(&format!("{k:<34} {v}\n"));
        row(
            "API",
            format!(
                "{} classes, {} members, graph {} nodes / {} edges",
                self.classes, self.members, self.graph_nodes, self.graph_edges
            ),
        );
        row("context build", format!("{:.3} s", self.context_seconds));
        row(
            "one core: median per program",
            format!(
                "{:.1} µs (p90 {:.1} µs, {} programs)",
                self.single_core_median_us, self.single_core_p90_us, self.single_core_programs
            ),
        );
        row(
            &format!("{} cores: throughput", self.jobs),
            format!(
                "{:.0} programs/s ({} programs in {:.2} s, enumeration included)",
                self.programs_per_second, self.parallel_programs, self.parallel_seconds
            ),
        );
        if let Some(m) = self.peak_rss_mib {
            row("peak memory (RSS)", format!("{m:.1} MiB"));
        }
        s
    }
}
