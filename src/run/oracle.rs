//! The run oracle: what running a compiled program (and its Java twin) ended in, which members
//! a program meant to run must not call, and which outcomes are findings — a linkage or
//! verification error anywhere is a miscompilation, an exception only the program raises and
//! its types rule out is unsoundness, and an exception both raise alike is expected.

use serde::{Deserialize, Serialize};

/// How a program's test method ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RunOutcome {
    /// It returned.
    Normal,
    /// It threw.
    Exception {
        /// The exception's class.
        class: String,
        /// The program's top frame (`Class.method:line`), when the exception passed through it.
        #[serde(default)]
        frame: Option<String>,
        /// The call it came from: the frame just above the program's top frame.
        #[serde(default)]
        call: Option<String>,
        /// The class of its cause, for an error that wraps another (`BootstrapMethodError`,
        /// `ExceptionInInitializerError`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<String>,
        /// Its message (with its cause's).
        #[serde(default)]
        message: Option<String>,
    },
    /// It ran past its time and was stopped.
    Timeout,
    /// The program has no test method the runner can call.
    NoTest {
        /// What the runner says.
        #[serde(default)]
        message: Option<String>,
    },
    /// The JVM ended while the program ran (`System.exit`, `Runtime.halt`, a limit of the
    /// sandbox): the program was ended, not obeyed.
    Ended {
        /// The JVM's exit code (`None`: killed).
        exit: Option<i32>,
    },
    /// It was not run.
    NotRun {
        /// Why (`calls java.lang.System.exit`).
        reason: String,
    },
}

impl RunOutcome {
    /// `normal`, the exception's class, `timeout`, `no-test`, `ended` or `not-run`: what two
    /// outcomes are compared by.
    pub fn class(&self) -> &str {
        match self {
            RunOutcome::Normal => "normal",
            RunOutcome::Exception { class, .. } => class,
            RunOutcome::Timeout => "timeout",
            RunOutcome::NoTest { .. } => "no-test",
            RunOutcome::Ended { .. } => "ended",
            RunOutcome::NotRun { .. } => "not-run",
        }
    }

    /// One line for reports: `normal`, `java.lang.NullPointerException at T.test:7 (from
    /// java.lang.String.length): message`, ...
    pub fn describe(&self) -> String {
        match self {
            RunOutcome::Exception {
                class,
                frame,
                call,
                message,
                ..
            } => {
                let mut s = class.clone();
                if let Some(f) = frame {
                    s.push_str(&format!(" at {f}"));
                }
                if let Some(c) = call {
                    s.push_str(&format!(" (from {c})"));
                }
                if let Some(m) = message {
                    s.push_str(&format!(": {m}"));
                }
                s
            }
            RunOutcome::Ended { exit } => match exit {
                Some(code) => format!("ended (the JVM exited with {code})"),
                None => "ended (the JVM was killed)".into(),
            },
            RunOutcome::NotRun { reason } => format!("not run: {reason}"),
            other => other.class().to_string(),
        }
    }
}

/// What running a program and its Java twin ended in, as results lines and `finding.json`
/// record it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The program's outcome.
    pub program: RunOutcome,
    /// Its Java twin's, when it has one that javac accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin: Option<RunOutcome>,
    /// This program's share of its batch's run time (seconds; its twin's included).
    #[serde(default)]
    pub seconds: f64,
}

/// The linkage and verification errors: thrown by the JVM when compiled code does not fit
/// the classes it runs against or is malformed, so a miscompilation wherever they occur.
pub const LINKAGE_ERRORS: [&str; 10] = [
    "java.lang.VerifyError",
    "java.lang.NoSuchMethodError",
    "java.lang.NoSuchFieldError",
    "java.lang.AbstractMethodError",
    "java.lang.IllegalAccessError",
    "java.lang.IncompatibleClassChangeError",
    "java.lang.ClassFormatError",
    "java.lang.InstantiationError",
    "java.lang.BootstrapMethodError",
    "java.lang.invoke.WrongMethodTypeException",
];

/// Exceptions a type-checked program must not raise where its Java twin does not: a cast the
/// source does not write, a dynamic dispatch that finds no member (Groovy), a `null` where
/// the types say none can be.
pub const RULED_OUT: [&str; 9] = [
    "java.lang.ClassCastException",
    "java.lang.ArrayStoreException",
    "groovy.lang.MissingMethodException",
    "groovy.lang.MissingPropertyException",
    "groovy.lang.MissingFieldException",
    "org.codehaus.groovy.runtime.typehandling.GroovyCastException",
    "scala.MatchError",
    "kotlin.TypeCastException",
    "java.lang.NullPointerException",
];

/// The members a program meant to run must not call: they act on the process or the machine.
/// Matched against the source text (qualified or not).
const FORBIDDEN: [(&str, &str); 26] = [
    ("System.exit", "java.lang.System.exit"),
    ("Runtime", "java.lang.Runtime"),
    ("ProcessBuilder", "java.lang.ProcessBuilder"),
    ("ProcessHandle", "java.lang.ProcessHandle"),
    ("System.load", "java.lang.System.load/loadLibrary"),
    ("System.setOut", "java.lang.System.setOut"),
    ("System.setErr", "java.lang.System.setErr"),
    ("System.setIn", "java.lang.System.setIn"),
    ("System.setProperty", "java.lang.System.setProperty"),
    (
        "System.setSecurityManager",
        "java.lang.System.setSecurityManager",
    ),
    ("addShutdownHook", "java.lang.Runtime.addShutdownHook"),
    ("Thread", "java.lang.Thread"),
    ("ClassLoader", "java.lang.ClassLoader"),
    ("sun.misc.Unsafe", "sun.misc.Unsafe"),
    // the same acts through Kotlin's and Scala's own libraries
    ("exitProcess", "kotlin.system.exitProcess"),
    ("concurrent.thread", "kotlin.concurrent.thread"),
    // (the translators call a package object's members through `package`)
    ("sys.`package`.exit", "scala.sys.exit"),
    ("sys.`package`.runtime", "scala.sys.runtime"),
    ("sys.`package`.addShutdownHook", "scala.sys.addShutdownHook"),
    ("sys.`package`.props", "scala.sys.props"),
    ("sys.exit", "scala.sys.exit"),
    ("sys.runtime", "scala.sys.runtime"),
    ("sys.addShutdownHook", "scala.sys.addShutdownHook"),
    ("sys.props", "scala.sys.props"),
    ("ShutdownHookThread", "scala.sys.ShutdownHookThread"),
    ("SystemProperties", "scala.sys.SystemProperties"),
];

/// The member a program's `source` calls that acts on the process or the machine, if any:
/// such a program is not run (`not run: calls X`).
pub fn forbidden_call(source: &str) -> Option<&'static str> {
    FORBIDDEN.iter().find_map(|(needle, member)| {
        source
            .match_indices(needle)
            .any(|(i, _)| {
                // a whole name: not the tail of a longer identifier
                let before = source[..i].chars().next_back();
                let after = source[i + needle.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            })
            .then_some(*member)
    })
}

/// The kind of a run finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// A linkage or verification error: the compiled code does not fit what it runs
    /// against.
    Miscompilation,
    /// An exception only the program raises, which its types rule out.
    Unsoundness,
}

/// A finding of a run: its kind and the detail its signature is made of (the exception's
/// class and the call it came from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFinding {
    /// Miscompilation or unsoundness.
    pub kind: RunKind,
    /// `<exception class> from <call>`: what the signature abstracts.
    pub detail: String,
}

/// Judges a program's run outcome against its Java twin's (when it has one that ran): a
/// linkage error is a miscompilation; an exception the twin does not raise alike (the twin
/// ends normally, or raises another class the program's is not) is unsoundness when the
/// twin ended normally, or when the program's exception is one the types rule out; an
/// exception both raise alike, and any exception without a twin but those the types rule
/// out (save a `NullPointerException`, which a `null` inhabitant may raise), is expected.
pub fn judge_run(program: &RunOutcome, twin: Option<&RunOutcome>) -> Option<RunFinding> {
    let RunOutcome::Exception {
        class,
        call,
        cause,
        message,
        ..
    } = program
    else {
        return None;
    };
    // Kotlin's own check of a value Java handed it (a platform type used as non-null): its
    // design, which Java's twin does not have
    if class == "java.lang.NullPointerException"
        && message.as_deref().is_some_and(is_kotlin_null_check)
    {
        return None;
    }
    // an NPE without a message that the program's own code threw (no call above it): a
    // `throw`, not the JVM's (whose NPEs say what was null), which is Kotlin's `!!`, an
    // assertion the program makes and its Java twin has no reading of
    if class == "java.lang.NullPointerException" && message.is_none() && call.is_none() {
        return None;
    }
    let raised = match cause {
        Some(c) => format!("{class} ({c})"),
        None => class.clone(),
    };
    let detail = match call {
        Some(c) => format!("{raised} from {}", strip_lambda(c)),
        None => raised,
    };
    if LINKAGE_ERRORS.contains(&class.as_str()) {
        return Some(RunFinding {
            kind: RunKind::Miscompilation,
            detail,
        });
    }
    let ruled_out = RULED_OUT.contains(&class.as_str());
    // a twin stopped by Java's null check of a bound method reference's receiver (`e::m`
    // on a null `e`, JLS 15.13.3) never reached what the program ran into after it: it
    // tells nothing of the rest (Groovy's references check no receiver at creation)
    let twin = comparable_twin(twin);
    let unsound = match twin {
        Some(RunOutcome::Normal) => true,
        Some(RunOutcome::Exception { class: other, .. }) => other != class && ruled_out,
        // no twin, or one that did not run to an outcome
        _ => ruled_out && class != "java.lang.NullPointerException",
    };
    unsound.then_some(RunFinding {
        kind: RunKind::Unsoundness,
        detail,
    })
}

/// The twin's outcome when it can confirm or refute the program's: not when the twin stopped
/// at Java's null check of a bound method reference's receiver, before the rest, nor when
/// the machine stopped it (an I/O or network error: a port the program still holds).
pub fn comparable_twin(twin: Option<&RunOutcome>) -> Option<&RunOutcome> {
    twin.filter(|t| !stopped_at_reference_null_check(t) && !stopped_by_environment(t))
}

/// The packages of the exceptions the machine raises (files, sockets, channels), not the
/// program's types.
const ENVIRONMENT_EXCEPTION_PACKAGES: [&str; 4] = [
    "java.io.",
    "java.net.",
    "java.nio.file.",
    "java.nio.channels.",
];

/// True when `outcome` is an exception of the machine's (an I/O or network error).
fn stopped_by_environment(outcome: &RunOutcome) -> bool {
    matches!(outcome, RunOutcome::Exception { class, .. }
        if ENVIRONMENT_EXCEPTION_PACKAGES.iter().any(|p| class.starts_with(p)))
}

/// True when `outcome` is the `NullPointerException` of Java's check that a bound method
/// reference's receiver is not `null` (`Objects.requireNonNull` called by the program).
fn stopped_at_reference_null_check(outcome: &RunOutcome) -> bool {
    matches!(outcome, RunOutcome::Exception { class, call: Some(call), .. }
        if class == "java.lang.NullPointerException" && call == "java.util.Objects.requireNonNull")
}

/// True for the message of Kotlin's null checks at the Java boundary
/// (`Intrinsics.checkNotNullExpressionValue`: "pollLast(...) must not be null";
/// `checkNotNullParameter`: "Parameter specified as non-null is null: ...") and of its cast
/// of `null` to a non-null type ("null cannot be cast to non-null type T").
fn is_kotlin_null_check(message: &str) -> bool {
    message.ends_with(" must not be null")
        || message.starts_with("Parameter specified as non-null is null")
        // a cast the program writes (a typed `null as T` for a non-null `T`): checked at run
        // time by design
        || message.starts_with("null cannot be cast to non-null type")
}

/// A call without its synthetic lambda numbering (`lambda$test$0` → `lambda$test`).
fn strip_lambda(call: &str) -> String {
    call.trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('$')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threw(class: &str) -> RunOutcome {
        RunOutcome::Exception {
            class: class.into(),
            frame: Some("T.test:3".into()),
            call: Some("lib.A.m".into()),
            cause: None,
            message: None,
        }
    }

    #[test]
    fn kotlins_null_checks_and_its_not_null_assertion_are_expected_though_the_twin_ends_normally() {
        let checked = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:6".into()),
            call: None,
            cause: None,
            message: Some("pollLast(...) must not be null".into()),
        };
        assert_eq!(judge_run(&checked, Some(&RunOutcome::Normal)), None);
        let cast = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:6".into()),
            call: None,
            cause: None,
            message: Some("null cannot be cast to non-null type T of T.test".into()),
        };
        assert_eq!(judge_run(&cast, Some(&RunOutcome::Normal)), None);
        // Kotlin's `!!` on a `null` (`r.replace(k, v)!!`): thrown by the program's own frame,
        // without a message
        let bang = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:11".into()),
            call: None,
            cause: None,
            message: None,
        };
        assert_eq!(judge_run(&bang, Some(&RunOutcome::Normal)), None);
        // one without a message from a call the program made stays one
        let from_call = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:11".into()),
            call: Some("lib.A.m".into()),
            cause: None,
            message: None,
        };
        assert_eq!(
            judge_run(&from_call, Some(&RunOutcome::Normal)).map(|f| f.kind),
            Some(RunKind::Unsoundness)
        );
        // an NPE with another message the twin does not share stays a finding
        let other = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:6".into()),
            call: None,
            cause: None,
            message: Some("Cannot invoke \"Object.toString()\"".into()),
        };
        assert_eq!(
            judge_run(&other, Some(&RunOutcome::Normal)).map(|f| f.kind),
            Some(RunKind::Unsoundness)
        );
    }

    #[test]
    fn a_twin_stopped_at_a_null_references_check_or_by_the_machine_confirms_nothing() {
        // groovyc's `(Era) aNullMap::size` reaches `HijrahChronology.date`, whose own check
        // throws; the twin's `null::size` stopped at `Objects.requireNonNull` before it
        let api_check = RunOutcome::Exception {
            class: "java.lang.ClassCastException".into(),
            frame: Some("T.test:6".into()),
            call: Some("java.time.chrono.HijrahChronology.date".into()),
            cause: None,
            message: Some("Era must be HijrahEra".into()),
        };
        let twin = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:5".into()),
            call: Some("java.util.Objects.requireNonNull".into()),
            cause: None,
            message: None,
        };
        // judged as without a twin: unconfirmed, never confirmed by this twin
        assert_eq!(
            judge_run(&api_check, Some(&twin)),
            judge_run(&api_check, None)
        );
        // the program's own NPE there is no finding
        let npe = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:5".into()),
            call: Some("lib.A.m".into()),
            cause: None,
            message: Some("Cannot invoke \"Map.size()\"".into()),
        };
        assert_eq!(judge_run(&npe, Some(&twin)), None);
        // a twin the machine stopped (the port the program still held) confirms nothing
        let bind = RunOutcome::Exception {
            class: "java.net.BindException".into(),
            frame: Some("T.test:7".into()),
            call: Some("java.net.DatagramSocket.<init>".into()),
            cause: None,
            message: Some("Address already in use".into()),
        };
        let api_null = RunOutcome::Exception {
            class: "java.lang.NullPointerException".into(),
            frame: Some("T.test:7".into()),
            call: None,
            cause: None,
            message: Some("Cannot invoke \"DatagramChannel.setOption()\"".into()),
        };
        assert_eq!(judge_run(&api_null, Some(&bind)), None);
        assert_eq!(comparable_twin(Some(&bind)), None);
    }

    #[test]
    fn a_linkage_error_is_a_miscompilation_whatever_the_twin_does() {
        let f = judge_run(
            &threw("java.lang.NoSuchMethodError"),
            Some(&threw("java.lang.NoSuchMethodError")),
        );
        assert_eq!(f.map(|f| f.kind), Some(RunKind::Miscompilation));
    }

    #[test]
    fn an_exception_the_twin_shares_is_expected_and_one_it_does_not_is_unsound() {
        let npe = threw("java.lang.NullPointerException");
        assert_eq!(judge_run(&npe, Some(&npe)), None);
        assert_eq!(
            judge_run(&npe, Some(&RunOutcome::Normal)).map(|f| f.kind),
            Some(RunKind::Unsoundness)
        );
        assert_eq!(judge_run(&npe, None), None);
        let iae = threw("java.lang.IllegalArgumentException");
        assert_eq!(
            judge_run(&iae, Some(&threw("java.lang.IllegalStateException"))),
            None
        );
        assert_eq!(
            judge_run(&threw("groovy.lang.MissingFieldException"), None).map(|f| f.kind),
            Some(RunKind::Unsoundness)
        );
        assert_eq!(judge_run(&RunOutcome::Normal, Some(&npe)), None);
    }

    #[test]
    fn members_acting_on_the_process_are_found_as_whole_names() {
        assert_eq!(
            forbidden_call("java.lang.System.exit(1);"),
            Some("java.lang.System.exit")
        );
        assert_eq!(
            forbidden_call("Runtime.getRuntime().halt(0)"),
            Some("java.lang.Runtime")
        );
        assert_eq!(
            forbidden_call("MyRuntimeHelper.x(); String s = \"a\";"),
            None
        );
        assert_eq!(
            forbidden_call("new java.lang.ProcessBuilder(\"ls\")"),
            Some("java.lang.ProcessBuilder")
        );
        // Kotlin's and Scala's own ways to end the process or register a hook
        assert_eq!(
            forbidden_call("kotlin.system.exitProcess(a0)"),
            Some("kotlin.system.exitProcess")
        );
        assert_eq!(
            forbidden_call("val r = scala.sys.ShutdownHookThread.apply(())"),
            Some("scala.sys.ShutdownHookThread")
        );
        for src in ["scala.sys.`package`.exit(3)", "scala.sys.exit(3)"] {
            assert_eq!(forbidden_call(src), Some("scala.sys.exit"), "{src}");
        }
        assert!(forbidden_call("scala.sys.`package`.addShutdownHook(())").is_some());
        assert_eq!(
            forbidden_call("scala.sys.`package`.props"),
            Some("scala.sys.props")
        );
    }
}
