//! Class-data sharing for the one-shot driver of process mode. A JVM that lives for one batch
//! spends a good part of its life loading and verifying the compiler's classes; a dynamic CDS
//! archive of them (`-XX:ArchiveClassesAtExit`, JDK 13 and newer), dumped at the exit of the
//! first driver of a toolchain and mapped by every later one, saves most of that.
//!
//! The JVM checks an archive against its own build and the classpath and ignores one that
//! does not match (`-Xshare:auto`); the unified log is off in both runs, so neither the
//! dump's warnings nor a mismatch's reach the driver's output, which is parsed. A toolchain
//! whose dump left no archive (a JDK without a base archive) is not tried again: a marker
//! says so. One driver dumps at a time (a lock file); the others run without an archive
//! meanwhile. A JVM with an agent (JaCoCo's, for coverage) gets none: the JVM refuses to dump
//! with one, and an agent must see every class loaded. `THALIA_NO_CDS` turns it off.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::toolchain::toolchains_dir;

/// The directory of the archives, under the toolchains' directory.
const CDS_DIR: &str = ".cds";

/// A dump's lock older than this is left over from a killed process: taken over.
const STALE_LOCK: Duration = Duration::from_secs(600);

/// The options that keep the JVM's unified log (where class-data sharing warns) out of the
/// driver's output.
const QUIET: &str = "-Xlog:disable";

/// How a driver's JVM uses class-data sharing in one run.
#[derive(Debug)]
pub enum Cds {
    /// It maps this archive.
    Use(PathBuf),
    /// It dumps the archive at its exit.
    Dump(ArchiveDump),
    /// Neither: another driver is dumping it, no archive can be made, or it is turned off.
    Off,
}

impl Cds {
    /// The JVM options of this use.
    pub fn jvm_flags(&self) -> Vec<String> {
        match self {
            Cds::Use(path) => vec![
                format!("-XX:SharedArchiveFile={}", path.display()),
                "-Xshare:auto".to_string(),
                QUIET.to_string(),
            ],
            Cds::Dump(d) => vec![
                format!("-XX:ArchiveClassesAtExit={}", d.tmp.display()),
                QUIET.to_string(),
            ],
            Cds::Off => Vec::new(),
        }
    }

    /// Tells a dump how its run ended: an archive a run that exited by itself left is kept;
    /// after one that left none, the toolchain is not tried again; after a killed run, a
    /// later driver tries again.
    pub fn finish(self, exited: bool) {
        if let Cds::Dump(mut d) = self {
            d.finish(exited);
        }
    }
}

/// A dump under way: the archive's path, the file the JVM writes, and the lock held.
#[derive(Debug)]
pub struct ArchiveDump {
    path: PathBuf,
    tmp: PathBuf,
    lock: PathBuf,
}

impl ArchiveDump {
    fn finish(&mut self, exited: bool) {
        if !exited {
            return;
        }
        let dumped = std::fs::metadata(&self.tmp).is_ok_and(|m| m.is_file() && m.len() > 0);
        if !(dumped && std::fs::rename(&self.tmp, &self.path).is_ok()) {
            let _ = std::fs::write(none_marker(&self.path), b"no archive was dumped\n");
        }
    }
}

impl Drop for ArchiveDump {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
        let _ = std::fs::remove_file(&self.lock);
    }
}

/// The marker of an archive that could not be dumped.
fn none_marker(archive: &Path) -> PathBuf {
    archive.with_extension("none")
}

/// How a driver that runs `java` with `classpath` and `jvm_flags` uses class-data sharing.
pub fn plan(java: &Path, classpath: &str, jvm_flags: &[String]) -> Cds {
    let agent = |f: &String| {
        ["-javaagent", "-agentlib", "-agentpath"]
            .iter()
            .any(|a| f.trim_start_matches("-J").starts_with(a))
    };
    if std::env::var_os("THALIA_NO_CDS").is_some() || jvm_flags.iter().any(agent) {
        return Cds::Off;
    }
    let dir = toolchains_dir().join(CDS_DIR);
    if std::fs::create_dir_all(&dir).is_err() {
        return Cds::Off;
    }
    // the archive belongs to this JVM build (its binary's path and time) and classpath
    let built = std::fs::metadata(java)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let key = crate::hash::fnv1a64(
        format!(
            "{}\u{0}{built}\u{0}{classpath}\u{0}{}",
            java.display(),
            jvm_flags.join("\u{0}")
        )
        .as_bytes(),
    );
    let path = dir.join(format!("driver-{key:016x}.jsa"));
    if path.is_file() {
        return Cds::Use(path);
    }
    if none_marker(&path).exists() {
        return Cds::Off;
    }
    let lock = path.with_extension("lock");
    let stale = std::fs::metadata(&lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > STALE_LOCK);
    if stale {
        let _ = std::fs::remove_file(&lock);
    }
    let claimed = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&lock)
        .is_ok();
    if !claimed {
        return Cds::Off;
    }
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    Cds::Dump(ArchiveDump { path, tmp, lock })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_is_kept_when_its_run_exited_and_marked_missing_when_it_left_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.jsa");
        let lock = dir.path().join("a.lock");
        std::fs::write(&lock, b"").expect("lock");
        // a run that wrote its archive
        let tmp = dir.path().join("a.1.tmp");
        std::fs::write(&tmp, b"archive").expect("tmp");
        Cds::Dump(ArchiveDump {
            path: path.clone(),
            tmp: tmp.clone(),
            lock: lock.clone(),
        })
        .finish(true);
        assert!(path.is_file() && !tmp.exists() && !lock.exists());
        // a killed run: nothing kept, nothing marked, the lock given back
        let other = dir.path().join("b.jsa");
        std::fs::write(&lock, b"").expect("lock");
        Cds::Dump(ArchiveDump {
            path: other.clone(),
            tmp: dir.path().join("b.1.tmp"),
            lock: lock.clone(),
        })
        .finish(false);
        assert!(!other.exists() && !none_marker(&other).exists() && !lock.exists());
        // a run that exited without an archive: marked, not tried again
        Cds::Dump(ArchiveDump {
            path: other.clone(),
            tmp: dir.path().join("b.2.tmp"),
            lock,
        })
        .finish(true);
        assert!(none_marker(&other).is_file());
    }

    #[test]
    fn a_jvm_with_an_agent_gets_no_archive() {
        let flags = vec!["-javaagent:/j/jacocoagent.jar=destfile=/c/x.exec".to_string()];
        assert!(matches!(
            plan(Path::new("/usr/bin/java"), "/a.jar", &flags),
            Cds::Off
        ));
    }

    #[test]
    fn the_flags_map_or_dump_the_archive_with_the_log_off() {
        let used = Cds::Use(PathBuf::from("/c/a.jsa")).jvm_flags();
        assert!(used.contains(&"-XX:SharedArchiveFile=/c/a.jsa".to_string()));
        assert!(used.contains(&QUIET.to_string()));
        assert!(Cds::Off.jvm_flags().is_empty());
    }
}
