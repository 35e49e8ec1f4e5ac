//! `RUN/findings.html` (`thalia report RUN --html`): a static page of a run's distinct
//! findings (no script, no server), open ones first, each with its status on the newest
//! release, the release range, its known label, what javac says of its Java twin, and its
//! program (the reduced one when there is one), linked to its directory and `report.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::bugreport;
use super::records::{write_atomic, FindingFile, StoreError, REDUCED};
use super::report::Report;

/// The page's file in a run directory.
pub const FINDINGS_PAGE: &str = "findings.html";

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a relative path for an `href` (each byte outside a safe set percent-encoded).
pub fn href(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The release range of a finding in words: where it still shows and where it was fixed.
pub fn range_words(f: &FindingFile) -> String {
    let Some(s) = &f.status else {
        return String::new();
    };
    let tool = f.compiler.tool.name();
    match (&s.fixed_in, &s.last_affected) {
        (Some(fixed), Some(last)) => {
            format!("{tool} {} … {last}; fixed in {fixed}", f.compiler.version)
        }
        _ if !s.open_on.is_empty() => format!("{tool} {}", s.open_on.join(", ")),
        _ => String::new(),
    }
}

/// What javac says of a finding's Java twin, in words.
fn twin_words(f: &FindingFile) -> String {
    let Some(t) = &f.twin else {
        return "no twin".into();
    };
    if let Some(reason) = &t.not_applicable {
        return format!("not applicable ({reason})");
    }
    match (&t.verdict, t.status) {
        (Some(v), Some(s)) => format!("javac {v}: {}", s.as_str()),
        (Some(v), None) => format!("javac {v}"),
        _ => "not compiled".into(),
    }
}

/// The page of the run in `dir` (`report`: its report).
pub fn findings_page(dir: &Path, report: &Report) -> String {
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>thalia findings</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:80em}\ntable{border-collapse:collapse;width:100%}\nth,td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}\ntr.open td.status{background:#fde0dc}\ntr.fixed td.status{background:#e0f3e0}\npre{margin:0;white-space:pre-wrap;font-size:85%}\n.num{text-align:right}\n</style>\n</head>\n<body>\n");
    let open = report.statuses.get("open").copied().unwrap_or(0);
    let fixed = report.statuses.get("fixed").copied().unwrap_or(0);
    let _ = writeln!(
        s,
        "<h1>thalia findings</h1>\n<p>{} ({}, {}): {} programs, {} distinct findings; on the newest release {open} open, {fixed} fixed since.</p>",
        esc(&bugreport::scrub(&report.dir)),
        esc(&report.kind),
        esc(&report.compiler),
        report.programs,
        report.signatures.len()
    );
    s.push_str("<table id=\"findings\">\n<thead><tr><th>status</th><th>kind</th><th>programs</th><th>where</th><th>known</th><th>Java twin</th><th>releases</th><th>program</th></tr></thead>\n<tbody>\n");
    for sig in &report.signatures {
        let fdir = dir.join(&sig.signature);
        let file = FindingFile::read(&fdir).ok();
        let state = sig.state.map_or("unchecked", |st| st.as_str());
        let (program, reduced) = match &file {
            Some(f) => match bugreport::reduced_program(&fdir, f.compiler.tool) {
                Some(r) => (
                    bugreport::read(&fdir.join(REDUCED), &r).unwrap_or_default(),
                    true,
                ),
                None => (
                    bugreport::read(&fdir, &f.program.file).unwrap_or_default(),
                    false,
                ),
            },
            None => (String::new(), false),
        };
        let known = sig
            .known
            .clone()
            .or_else(|| sig.intended.as_ref().map(|i| format!("intended {i}")))
            .unwrap_or_else(|| "new".into());
        let report_link = if reduced {
            format!("{}/{REDUCED}/report.md", sig.signature)
        } else {
            format!("{}/report.md", sig.signature)
        };
        let _ = writeln!(
            s,
            "<tr class=\"finding {state}\" data-status=\"{state}\"><td class=\"status\">{}</td><td>{}<br><small>{}</small></td><td class=\"num\">{}</td><td><a href=\"{}/\">{}</a><br><a href=\"{}\">report.md</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}<pre><code>{}</code></pre></td></tr>",
            esc(sig.status.as_deref().unwrap_or("not checked")),
            esc(sig.kind.as_str()),
            esc(&sig.text),
            sig.count,
            href(&sig.signature),
            esc(&sig.folder),
            href(&report_link),
            esc(&known),
            esc(&file.as_ref().map(twin_words).unwrap_or_default()),
            esc(&file.as_ref().map(range_words).unwrap_or_default()),
            if reduced { "<small>reduced</small>" } else { "" },
            esc(&program)
        );
    }
    s.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    s
}

/// Writes the page of the run in `dir`; returns its path.
pub fn write(dir: &Path) -> Result<PathBuf, StoreError> {
    let report = Report::load(dir)?;
    let path = dir.join(FINDINGS_PAGE);
    write_atomic(&path, &findings_page(dir, &report))?;
    Ok(path)
}
