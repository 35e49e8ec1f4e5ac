//! What the language-view extractors ([`crate::kotlin`], [`crate::scala`]) share for their
//! JVM helpers: the helper's library resolved through thalia's Maven resolver, the helper
//! compiled once per source and jar set into a cache folder, and a run that hands each line
//! the helper prints to the caller.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::maven::{Coordinate, MavenError, RepoConfig, Resolver, ResolverOptions};

/// Most bytes of a helper's stderr kept for its error message.
const MAX_STDERR: u64 = 1 << 20;

/// Lines of a failed helper's stderr shown in its error (the end of it).
const STDERR_TAIL_LINES: usize = 20;

/// A failure of a JVM helper, which each extractor turns into its own error.
#[derive(Debug)]
pub(crate) enum HelperError {
    /// Its library could not be resolved or downloaded.
    Resolve(MavenError),
    /// It did not compile (or its cache folder could not be written).
    Build(String),
    /// It failed as a whole.
    Run {
        /// Its exit status.
        status: String,
        /// The end of what it printed on stderr.
        stderr: String,
    },
}

impl From<MavenError> for HelperError {
    fn from(e: MavenError) -> Self {
        HelperError::Resolve(e)
    }
}

/// The jars of `coord` and its dependencies, resolved and downloaded into the Maven cache.
pub(crate) fn artifact_classpath(
    repos: &[String],
    coord: &str,
) -> Result<Vec<PathBuf>, HelperError> {
    let config = RepoConfig::discover(repos)?;
    let resolver = Resolver::new(config, ResolverOptions::default())?;
    let coord: Coordinate = coord
        .parse()
        .map_err(|e: MavenError| HelperError::Build(e.to_string()))?;
    let resolution = resolver.resolve(std::slice::from_ref(&coord))?;
    let fetched = resolver.fetch(&resolution, false)?;
    Ok(fetched.into_iter().map(|f| f.jar).collect())
}

/// Where built helpers of one kind are cached: `$env` if set, else
/// `<cache dir>/thalia/<name>`.
pub(crate) fn cache_root(env: &str, name: &str) -> PathBuf {
    if let Some(d) = std::env::var_os(env) {
        return PathBuf::from(d);
    }
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("thalia")
        .join(name)
}

/// A helper's source and how to compile it.
pub(crate) struct HelperSource<'a> {
    /// The source text.
    pub text: &'a str,
    /// Its main class (also the source file's stem).
    pub class: &'a str,
    /// The source file's extension (`java`, `scala`).
    pub extension: &'a str,
    /// The compiler's name in messages (`javac`, `scalac`).
    pub compiler: &'a str,
}

/// The folder under `root` holding the compiled helper, compiled first when it is not there
/// yet (one folder per source and jar set; a concurrent build that wins the race is used).
/// `compile` gets the output folder, the source file and the class path.
pub(crate) fn build_once(
    root: &Path,
    source: &HelperSource<'_>,
    jars: &[PathBuf],
    compile: impl FnOnce(&Path, &Path, &OsStr) -> std::io::Result<Output>,
) -> Result<PathBuf, HelperError> {
    let mut key = source.text.to_string();
    for j in jars {
        key.push('\n');
        key.push_str(&j.file_name().unwrap_or_default().to_string_lossy());
    }
    let dir = root.join(format!("{:016x}", fnv1a64(key.as_bytes())));
    let class_file = format!("{}.class", source.class);
    if dir.join(&class_file).is_file() {
        return Ok(dir);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = root.join(format!(".build-{}-{nanos}", std::process::id()));
    let io = |p: &Path, e: std::io::Error| HelperError::Build(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(&tmp).map_err(|e| io(&tmp, e))?;
    let src = tmp.join(format!("{}.{}", source.class, source.extension));
    std::fs::write(&src, source.text).map_err(|e| io(&src, e))?;
    let cp = std::env::join_paths(jars).map_err(|e| HelperError::Build(e.to_string()))?;
    let out = compile(&tmp, &src, &cp)
        .map_err(|e| HelperError::Build(format!("{} could not be run: {e}", source.compiler)))?;
    if !out.status.success() || !tmp.join(&class_file).is_file() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(HelperError::Build(format!(
            "{} failed:\n{}{}",
            source.compiler,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // another process won the race
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join(&class_file).is_file() {
            return Err(HelperError::Build(format!(
                "cannot create {}",
                dir.display()
            )));
        }
    }
    Ok(dir)
}

/// Runs `java -Xss8m -cp CLASSPATH MAIN ARGS…`, handing each line it prints (numbered from 1)
/// to `take`; a failed run is an error with the end of its stderr.
pub(crate) fn run_lines(
    java: &Path,
    classpath: &[PathBuf],
    main: &str,
    args: &[OsString],
    mut take: impl FnMut(usize, &str),
) -> Result<(), HelperError> {
    let cp = std::env::join_paths(classpath)
        .map_err(|e| HelperError::Build(format!("classpath: {e}")))?;
    let mut child = Command::new(java)
        .arg("-Xss8m")
        .arg("-cp")
        .arg(cp)
        .arg(main)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| HelperError::Run {
            status: "not started".into(),
            stderr: format!("{}: {e}", java.display()),
        })?;
    let mut stderr = child.stderr.take();
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.take(MAX_STDERR).read_to_string(&mut s);
        }
        s
    });
    if let Some(stdout) = child.stdout.take() {
        for (i, line) in BufReader::new(stdout).lines().enumerate() {
            let Ok(line) = line else { break };
            take(i + 1, &line);
        }
    }
    let status = child.wait().map_err(|e| HelperError::Run {
        status: "lost".into(),
        stderr: e.to_string(),
    })?;
    let stderr = err_thread.join().unwrap_or_default();
    if !status.success() {
        let lines: Vec<&str> = stderr.lines().collect();
        return Err(HelperError::Run {
            status: status.to_string(),
            stderr: lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..].join("\n"),
        });
    }
    Ok(())
}

/// FNV-1a, 64 bits: the cache key of a helper build.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
