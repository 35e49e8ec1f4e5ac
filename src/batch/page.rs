//! `BATCH/index.html`: a static page of a batch (no script, no server): the table per library
//! × mode with the findings linked to their bug directories, the failed libraries, and with
//! coverage the increment of each mode over the well-typed base, the union coverage and two
//! SVG plots drawn inline (checker line coverage per library and mode; each library's
//! increment per mode).

use std::fmt::Write;

use super::{BatchMode, BatchSummary, State};
use crate::campaign::page::{esc, href};
use crate::coverage::{Counts, ALL};

/// A colour per mode.
fn colour(m: BatchMode) -> &'static str {
    match m {
        BatchMode::WellTyped => "#4e79a7",
        BatchMode::WellTypedErased => "#76b7b2",
        BatchMode::IllTyped => "#e15759",
        BatchMode::IllTypedErased => "#f28e2b",
    }
}

/// The checker line coverage of a library's cell in a mode, in percent.
fn cell_percent(summary: &BatchSummary, lib: usize, mode: BatchMode) -> Option<f64> {
    summary.libraries[lib]
        .cells
        .iter()
        .find(|c| c.mode == mode)
        .and_then(|c| c.record.as_ref())
        .and_then(|r| r.coverage.get(ALL))
        .map(Counts::line_percent)
}

/// The plot of checker line coverage per library, a bar per mode.
fn coverage_plot(summary: &BatchSummary) -> String {
    let modes = &summary.manifest.modes;
    let libs: Vec<usize> = (0..summary.libraries.len())
        .filter(|&l| modes.iter().any(|&m| cell_percent(summary, l, m).is_some()))
        .collect();
    let top = libs
        .iter()
        .flat_map(|&l| {
            modes
                .iter()
                .filter_map(move |&m| cell_percent(summary, l, m))
        })
        .fold(1.0f64, f64::max)
        * 1.1;
    // rotated labels reach down and left by about 0.75 × their width (6 px a character)
    let longest = libs
        .iter()
        .map(|&l| summary.libraries[l].coordinate.chars().count())
        .max()
        .unwrap_or(0) as f64;
    let reach = 0.75 * 6.0 * longest;
    let (left, bottom, height) = (60.0f64.max(reach + 10.0), reach + 60.0, 260.0);
    let bar = 14.0;
    let group = bar * modes.len() as f64 + 16.0;
    let width = (left + group * libs.len().max(1) as f64 + 20.0)
        .max(left + 130.0 * modes.len() as f64 + 20.0);
    let mut s = format!(
        "<svg id=\"coverage-plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{:.0}\" role=\"img\" aria-label=\"checker line coverage per library and mode\">\n",
        height + bottom
    );
    axis(&mut s, left, height, width, top, "lines covered (%)");
    for (i, &l) in libs.iter().enumerate() {
        let x0 = left + 8.0 + group * i as f64;
        for (j, &m) in modes.iter().enumerate() {
            if let Some(p) = cell_percent(summary, l, m) {
                let h = height * p / top;
                let _ = writeln!(
                    s,
                    "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{h:.1}\" fill=\"{}\"><title>{} {}: {p:.2}%</title></rect>",
                    x0 + bar * j as f64,
                    20.0 + height - h,
                    colour(m),
                    esc(&summary.libraries[l].coordinate),
                    m
                );
            }
        }
        let cx = x0 + bar * modes.len() as f64 / 2.0;
        let _ = writeln!(
            s,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-45 {cx:.1} {:.1})\">{}</text>",
            height + 34.0,
            height + 34.0,
            esc(&summary.libraries[l].coordinate)
        );
    }
    legend(&mut s, modes, left, height + bottom - 14.0);
    s.push_str("</svg>\n");
    s
}

/// The plot of each library's increment over the well-typed base, per mode (a dot per
/// library, the median as a bar).
fn increment_plot(summary: &BatchSummary) -> String {
    let incs = summary.increments();
    let (lo, hi) = incs.iter().fold((0.0f64, 1.0f64), |(lo, hi), i| {
        (lo.min(i.min), hi.max(i.max))
    });
    let (lo, hi) = (lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo));
    let (left, height, col) = (60.0, 260.0, 120.0);
    let width = left + col * incs.len().max(1) as f64 + 20.0;
    let y = |v: f64| 20.0 + height * (hi - v) / (hi - lo);
    let mut s = format!(
        "<svg id=\"increment-plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{:.0}\" role=\"img\" aria-label=\"coverage increment per mode over well-typed\">\n",
        height + 70.0
    );
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"20\" x2=\"{left}\" y2=\"{:.1}\" stroke=\"#333\"/>",
        20.0 + height
    );
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{width:.1}\" y2=\"{:.1}\" stroke=\"#999\" stroke-dasharray=\"4\"/>",
        y(0.0),
        y(0.0)
    );
    for v in [lo, 0.0, hi] {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{v:+.2}</text>",
            left - 4.0,
            y(v) + 3.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"12\" y=\"{:.1}\" font-size=\"11\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\">increment (points)</text>",
        20.0 + height / 2.0,
        20.0 + height / 2.0
    );
    for (i, inc) in incs.iter().enumerate() {
        let cx = left + col * (i as f64 + 0.5);
        for (k, v) in inc.per_library.iter().enumerate() {
            let dx = (k % 7) as f64 * 4.0 - 12.0;
            let _ = writeln!(
                s,
                "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\" fill-opacity=\"0.7\"><title>{v:+.2}</title></circle>",
                cx + dx,
                y(*v),
                colour(inc.mode)
            );
        }
        let _ = writeln!(
            s,
            "<line class=\"median\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"2\"><title>median {:+.2}</title></line>",
            cx - 30.0,
            y(inc.median),
            cx + 30.0,
            y(inc.median),
            inc.median
        );
        let _ = writeln!(
            s,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            height + 40.0,
            inc.mode
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The y axis of a bar plot from 0 to `top`.
fn axis(s: &mut String, left: f64, height: f64, width: f64, top: f64, label: &str) {
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"20\" x2=\"{left}\" y2=\"{:.1}\" stroke=\"#333\"/>\n<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{width:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>",
        20.0 + height,
        20.0 + height,
        20.0 + height
    );
    for k in 0..=4 {
        let v = top * k as f64 / 4.0;
        let y = 20.0 + height - height * k as f64 / 4.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{v:.1}</text>",
            left - 4.0,
            y + 3.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"12\" y=\"{:.1}\" font-size=\"11\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\">{}</text>",
        20.0 + height / 2.0,
        20.0 + height / 2.0,
        esc(label)
    );
}

/// The legend of the modes' colours.
fn legend(s: &mut String, modes: &[BatchMode], left: f64, y: f64) {
    for (j, m) in modes.iter().enumerate() {
        let x = left + 130.0 * j as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"11\">{m}</text>",
            y - 9.0,
            colour(*m),
            x + 14.0
        );
    }
}

/// `covered/total (p%)` of lines, or empty.
fn lines(c: Option<&Counts>) -> String {
    c.map(|c| {
        format!(
            "{}/{} ({:.2}%)",
            c.lines_covered,
            c.lines_total,
            c.line_percent()
        )
    })
    .unwrap_or_default()
}

/// The page.
pub fn page(summary: &BatchSummary) -> String {
    let m = &summary.manifest;
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thalia batch</title>\n<style>\n\
         body{font-family:sans-serif;margin:2em;color:#222}\ntable{border-collapse:collapse;margin:1em 0}\n\
         th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}\nth{background:#f0f0f0}\n\
         td.num{text-align:right}\n.failed{color:#b00}\nul.links{margin:0;padding-left:1.2em}\n</style>\n</head>\n<body>\n",
    );
    let _ = writeln!(
        s,
        "<h1>thalia batch</h1>\n<p>{} libraries ({} failed) × {} modes; {} cells done, {} failed. Language {}, compiler {}, view {}, seed {}, budget {} per cell.</p>",
        summary.libraries.len(),
        summary.libraries_failed,
        m.modes.len(),
        summary.cells_done,
        summary.cells_failed,
        esc(&m.language),
        esc(&m.compiler),
        esc(&m.view),
        m.seed,
        esc(&m.budget)
    );
    if let Some(filters) = &m.coverage {
        let _ = writeln!(
            s,
            "<p>Coverage (JaCoCo) counted on the checker's classes: <code>{}</code>; <em>checker lines</em> counts the classes matching any of them.</p>",
            esc(&filters.join(", "))
        );
    }
    s.push_str("<h2>Libraries × modes</h2>\n<table id=\"cells\">\n<thead><tr><th>library</th><th>mode</th><th>state</th><th>programs</th><th>as expected</th><th>findings</th><th>checker lines</th><th>distinct findings</th></tr></thead>\n<tbody>\n");
    for lib in &summary.libraries {
        if lib.state == State::Failed {
            let e = lib
                .error
                .as_ref()
                .map(|e| format!("{}: {}", e.stage, e.error))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "<tr class=\"failed\"><td>{}</td><td>-</td><td>failed</td><td colspan=\"5\">{}</td></tr>",
                esc(&lib.coordinate),
                esc(&e)
            );
            continue;
        }
        for c in &lib.cells {
            let state = match c.state {
                State::Done => "done",
                State::Failed => "failed",
                State::Pending => "pending",
            };
            let Some(r) = &c.record else {
                let e = c
                    .error
                    .as_ref()
                    .map(|e| format!("{}: {}", e.stage, e.error))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "<tr><td>{}</td><td>{}</td><td>{state}</td><td colspan=\"5\">{}</td></tr>",
                    esc(&lib.coordinate),
                    c.mode,
                    esc(&e)
                );
                continue;
            };
            let (k, n) = if c.mode.mode() == crate::synth::Mode::WellTyped {
                r.well_typed_accepted
            } else {
                r.ill_typed_rejected
            };
            let rate = if n == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * k as f64 / n as f64)
            };
            let mut links = String::new();
            if !r.links.is_empty() {
                links.push_str("<ul class=\"links\">");
                for f in &r.links {
                    let _ = write!(
                        links,
                        "<li><a href=\"{}/\">{}</a> ×{} <small>{}</small></li>",
                        href(&f.path),
                        esc(&f.kind),
                        f.count,
                        esc(&f.text)
                    );
                }
                links.push_str("</ul>");
            }
            let view = match lib.view.as_deref() {
                Some(v) if v != "java" => format!(" <small>({} view)</small>", esc(v)),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "<tr><td>{}{view}</td><td>{}</td><td>{state}</td><td class=\"num\">{}</td><td class=\"num\">{rate}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{links}</td></tr>",
                esc(&lib.coordinate),
                c.mode,
                r.programs,
                r.findings,
                lines(r.coverage.get(ALL))
            );
        }
    }
    s.push_str("</tbody>\n</table>\n");
    findings_section(&mut s, summary);
    if m.coverage.is_some() {
        s.push_str("<h2>Increment over well-typed</h2>\n<p>The checker lines that a mode's campaign covers beyond the well-typed campaign of the same library (lines covered by the two together minus those of the well-typed one, never negative), in percentage points of the checker's lines and in lines, over the libraries with both (as Table 4 of the thalia paper).</p>\n<table id=\"increments\">\n<thead><tr><th>mode</th><th>libraries</th><th>min</th><th>max</th><th>median</th><th>mean</th><th>std</th></tr></thead>\n<tbody>\n");
        for i in summary.increments() {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td></tr>",
                i.mode,
                i.libraries,
                esc(&i.show(i.min)),
                esc(&i.show(i.max)),
                esc(&i.show(i.median)),
                esc(&i.show(i.mean)),
                i.std
            );
        }
        s.push_str("</tbody>\n</table>\n<h2>Union coverage of all libraries</h2>\n<table id=\"union\">\n<thead><tr><th>modes</th><th>filter</th><th>lines</th><th>branches</th></tr></thead>\n<tbody>\n");
        for (mode, counts) in &summary.union {
            for (f, c) in counts {
                let _ = writeln!(
                    s,
                    "<tr><td>{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}/{}</td></tr>",
                    esc(mode),
                    esc(f),
                    lines(Some(c)),
                    c.branches_covered,
                    c.branches_total
                );
            }
        }
        s.push_str(
            "</tbody>\n</table>\n<h2>Plots</h2>\n<h3>Checker line coverage per library</h3>\n",
        );
        s.push_str(&coverage_plot(summary));
        s.push_str("<h3>Increment per mode over well-typed</h3>\n");
        s.push_str(&increment_plot(summary));
    }
    s.push_str("</body>\n</html>\n");
    s
}

/// The order of findings: open ones first, then those not checked, then the fixed ones.
fn status_rank(status: Option<&str>) -> u8 {
    match status {
        Some("open") => 0,
        Some(s) if s.starts_with("fixed") => 2,
        _ => 1,
    }
}

/// A finding of a batch's page: its library, its cell's mode, and its link.
type FindingRow<'a> = (&'a str, super::BatchMode, &'a super::FindingLink);

/// The distinct findings of every cell, open ones first, with their status, known label and
/// folder.
fn findings_section(s: &mut String, summary: &BatchSummary) {
    let rows: Vec<FindingRow<'_>> = summary
        .libraries
        .iter()
        .flat_map(|lib| {
            lib.cells.iter().flat_map(move |c| {
                c.record.iter().flat_map(move |r| {
                    r.links
                        .iter()
                        .map(move |f| (lib.coordinate.as_str(), c.mode, f))
                })
            })
        })
        .collect();
    findings_table(s, rows);
}

/// The findings table of `rows`, sorted: open ones first, then those not checked, then the
/// fixed ones; the most programs first within each.
fn findings_table(s: &mut String, mut rows: Vec<FindingRow<'_>>) {
    rows.sort_by(|a, b| {
        status_rank(a.2.status.as_deref())
            .cmp(&status_rank(b.2.status.as_deref()))
            .then_with(|| b.2.count.cmp(&a.2.count))
            .then_with(|| a.2.path.cmp(&b.2.path))
    });
    let open = rows
        .iter()
        .filter(|f| f.2.status.as_deref() == Some("open"))
        .count();
    let _ = writeln!(
        s,
        "<h2>Findings</h2>\n<p>{} distinct findings over the cells, {open} open on the newest release of the compiler (open ones first; each links to its directory and <code>report.md</code>).</p>\n<table id=\"findings\">\n<thead><tr><th>status</th><th>library</th><th>mode</th><th>kind</th><th>programs</th><th>where</th><th>known</th><th>signature</th></tr></thead>\n<tbody>",
        rows.len()
    );
    for (lib, mode, f) in rows {
        let status = f.status.as_deref().unwrap_or("not checked");
        let _ = writeln!(
            s,
            "<tr class=\"finding\" data-status=\"{}\"><td>{}</td><td>{}</td><td>{mode}</td><td>{}</td><td class=\"num\">{}</td><td><a href=\"{}/\">{}</a> <a href=\"{}/report.md\">report.md</a></td><td>{}</td><td><small>{}</small></td></tr>",
            esc(status.split(' ').next().unwrap_or(status)),
            esc(status),
            esc(lib),
            esc(&f.kind),
            f.count,
            href(&f.path),
            esc(if f.folder.is_empty() { "bugs" } else { &f.folder }),
            href(&f.path),
            esc(f.known.as_deref().unwrap_or("new")),
            esc(&f.text)
        );
    }
    s.push_str("</tbody>\n</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_links_are_escaped() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(href("a b/c\"d"), "a%20b/c%22d");
    }

    #[test]
    fn the_findings_table_lists_open_findings_first_then_unchecked_then_fixed() {
        let link = |path: &str, count: u64, status: Option<&str>, known: Option<&str>| {
            super::super::FindingLink {
                kind: "unexpected-rejection".into(),
                count,
                text: format!("sig of {path}"),
                path: path.into(),
                folder: if known.is_some() { "known" } else { "bugs" }.into(),
                status: status.map(str::to_string),
                known: known.map(str::to_string),
            }
        };
        let links = [
            link("a/fixed", 9, Some("fixed since 2.1.0"), None),
            link("a/unchecked", 5, None, Some("RB9")),
            link("b/open-few", 1, Some("open"), None),
            link("b/open-many", 3, Some("open"), None),
        ];
        let mode = super::super::BatchMode::WellTyped;
        let rows: Vec<FindingRow<'_>> = links.iter().map(|l| ("g:a:1", mode, l)).collect();
        let mut s = String::new();
        findings_table(&mut s, rows);
        let order: Vec<usize> = ["b/open-many/", "b/open-few/", "a/unchecked/", "a/fixed/"]
            .iter()
            .map(|p| s.find(&format!("href=\"{p}\"")).expect(p))
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{s}");
        assert!(
            s.contains("4 distinct findings over the cells, 2 open"),
            "{s}"
        );
        assert!(
            s.contains("data-status=\"fixed\"><td>fixed since 2.1.0</td>"),
            "{s}"
        );
        assert!(
            s.contains("<td>RB9</td>") && s.contains(">known</a>"),
            "{s}"
        );
        assert!(s.contains("<td>not checked</td>"), "{s}");
    }
}
