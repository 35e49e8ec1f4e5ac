//! How much a campaign does: a program count, a time (a deadline), or one round.

use std::time::Duration;

/// How much a campaign does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Every program of one synthesis round (or of the checked directory).
    OneRound,
    /// This many programs in all (counted over the run, resumed sessions included; programs
    /// the translator cannot write do not count); rounds with derived seeds follow the first
    /// when it has fewer.
    Programs(u64),
    /// Until this much time has passed in this session: no batch is started after it, and
    /// a batch under way gets at most one more per-file timeout before it is given up (its
    /// programs stay unjudged, for the next session).
    Time(Duration),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::OneRound => write!(f, "one round"),
            Budget::Programs(n) => write!(f, "{n} programs"),
            Budget::Time(d) => write!(f, "{} s", d.as_secs_f64()),
        }
    }
}

/// Largest program-count budget (`--budget N`); more is an error.
pub const MAX_BUDGET_PROGRAMS: u64 = 1_000_000_000_000;

/// Largest time budget (`--budget 90s`, `2h`, `1d`): 366 days; more is an error.
pub const MAX_BUDGET_SECONDS: u64 = 366 * 86_400;

impl std::str::FromStr for Budget {
    type Err = String;
    /// `500` (programs), `90s`, `30m`, `2h`, `1d` (time), or `round`; at most
    /// [`MAX_BUDGET_PROGRAMS`] programs or [`MAX_BUDGET_SECONDS`].
    fn from_str(s: &str) -> Result<Budget, String> {
        let s = s.trim();
        if s == "round" {
            return Ok(Budget::OneRound);
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return match s.parse::<u64>() {
                Ok(n) if n <= MAX_BUDGET_PROGRAMS => Ok(Budget::Programs(n)),
                _ => Err(format!(
                    "`{s}`: a budget of at most {MAX_BUDGET_PROGRAMS} programs"
                )),
            };
        }
        // the unit is the trailing run of letters (`1.5m`, `1e3s`)
        let (num, unit) = s.split_at(s.trim_end_matches(char::is_alphabetic).len());
        let n: f64 = num
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a budget (e.g. 500, 90s, 30m, 2h, 1d, round)"))?;
        let unit_secs = match unit {
            "s" => 1.0,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            "d" => 86400.0,
            _ => return Err(format!("`{s}`: unknown time unit `{unit}` (s, m, h, d)")),
        };
        let secs = n * unit_secs;
        if !secs.is_finite() || secs < 0.0 {
            return Err(format!("`{s}` is not a budget"));
        }
        if secs > MAX_BUDGET_SECONDS as f64 {
            return Err(format!(
                "`{s}`: a time budget of at most {MAX_BUDGET_SECONDS} s ({} days)",
                MAX_BUDGET_SECONDS / 86_400
            ));
        }
        Duration::try_from_secs_f64(secs)
            .map(Budget::Time)
            .map_err(|e| format!("`{s}` is not a budget: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_counts_durations_and_rounds() {
        assert_eq!("500".parse::<Budget>(), Ok(Budget::Programs(500)));
        assert_eq!(
            "90s".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(90)))
        );
        assert_eq!(
            "2h".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(7200)))
        );
        assert_eq!(
            "1.5m".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(90)))
        );
        assert_eq!("round".parse::<Budget>(), Ok(Budget::OneRound));
        assert!("5x".parse::<Budget>().is_err());
        assert!("soon".parse::<Budget>().is_err());
    }

    #[test]
    fn budgets_beyond_the_maximum_are_errors_not_panics() {
        for huge in [
            "18446744073709551615s",
            "18446744073709551615",
            "99999999999999999999999",
            "1e300s",
            "367d",
            "inf s",
            "NaNs",
            "-1s",
        ] {
            let e = huge.parse::<Budget>().unwrap_err();
            assert!(e.contains(huge.trim()), "{huge}: {e}");
        }
        assert!("18446744073709551615s"
            .parse::<Budget>()
            .unwrap_err()
            .contains("at most"));
        assert_eq!(
            format!("{}d", MAX_BUDGET_SECONDS / 86_400).parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(MAX_BUDGET_SECONDS)))
        );
        assert_eq!(
            MAX_BUDGET_PROGRAMS.to_string().parse::<Budget>(),
            Ok(Budget::Programs(MAX_BUDGET_PROGRAMS))
        );
    }
}
