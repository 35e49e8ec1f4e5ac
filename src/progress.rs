//! Progress bars: the one style every long command's bar is built from.

use indicatif::{ProgressState, ProgressStyle};

/// A bar style from `template`, in which `{rate}` is the items per second with one decimal
/// (indicatif's `{per_sec}` prints four).
pub fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1}/s", s.per_sec());
        })
}
