//! The OS sandbox programs run in: bubblewrap (`bwrap`) with no network and no other
//! namespace shared, the whole file system read-only but a throwaway directory, under a
//! CPU-time and file-size limit (`prlimit`), a heap limit (`-Xmx`) and a wall-clock timeout
//! that kills the process group.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::RunError;

/// How to install bubblewrap, for the error that says it is missing.
pub const INSTALL_HINT: &str =
    "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`), or put a `bwrap` on the PATH";

/// The limits of one sandboxed JVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time of the whole JVM, after which its process group is killed.
    pub wall: Duration,
    /// CPU seconds of the JVM (`RLIMIT_CPU`).
    pub cpu_seconds: u64,
    /// The JVM's heap (`-Xmx`), in MiB.
    pub heap_mib: u64,
    /// The largest file it may write (`RLIMIT_FSIZE`), in MiB.
    pub file_mib: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(60),
            cpu_seconds: 120,
            heap_mib: 256,
            file_mib: 16,
        }
    }
}

/// A sandbox: the `bwrap` and `prlimit` it runs commands through.
#[derive(Clone, Debug)]
pub struct Sandbox {
    bwrap: PathBuf,
    prlimit: Option<PathBuf>,
}

/// What a sandboxed process did.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Its exit code (`None`: killed by a signal, or by the timeout).
    pub exit: Option<i32>,
    /// It ran past its wall-clock limit and was killed.
    pub timed_out: bool,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// The executable `name` on the `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

impl Sandbox {
    /// The sandbox of this machine: `THALIA_BWRAP`, else `bwrap` on the `PATH`; an error
    /// naming how to install it when there is none or it cannot make a sandbox here.
    pub fn find() -> Result<Sandbox, RunError> {
        let bwrap = std::env::var_os("THALIA_BWRAP")
            .map(PathBuf::from)
            .or_else(|| on_path("bwrap"))
            .ok_or_else(|| RunError::NoSandbox {
                reason: "no `bwrap` on the PATH".into(),
            })?;
        let sandbox = Sandbox {
            bwrap,
            prlimit: on_path("prlimit"),
        };
        sandbox.probe()?;
        Ok(sandbox)
    }

    /// Checks that `bwrap` can make a sandbox here (user namespaces allowed).
    fn probe(&self) -> Result<(), RunError> {
        let dir = std::env::temp_dir();
        let out = self
            .command(&dir, &[], &["true".to_string()])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| RunError::NoSandbox {
                reason: format!("{}: {e}", self.bwrap.display()),
            })?;
        if out.status.success() {
            Ok(())
        } else {
            Err(RunError::NoSandbox {
                reason: format!(
                    "{} cannot make a sandbox here: {}",
                    self.bwrap.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
            })
        }
    }

    /// `program` (`argv`) in the sandbox: everything read-only but `dir` (its working
    /// directory) and a fresh, empty `/tmp` (over which `readable`, such as class
    /// directories under the host's `/tmp`, are bound read-only), no network, its own PID
    /// namespace, ended with its parent.
    pub fn command(&self, dir: &Path, readable: &[PathBuf], argv: &[String]) -> Command {
        let mut cmd = Command::new(&self.bwrap);
        cmd.args(["--ro-bind", "/", "/"])
            .args(["--unshare-all", "--die-with-parent", "--new-session"])
            .args(["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]);
        for r in readable.iter().filter(|r| r.exists()) {
            cmd.arg("--ro-bind").arg(r).arg(r);
        }
        cmd.arg("--bind")
            .arg(dir)
            .arg(dir)
            .arg("--chdir")
            .arg(dir)
            .arg("--")
            .args(argv);
        cmd
    }

    /// Runs `argv` in the sandbox in `dir` under `limits`; kills its process group at the
    /// wall-clock limit.
    pub fn run(
        &self,
        dir: &Path,
        readable: &[PathBuf],
        argv: &[String],
        limits: &Limits,
    ) -> Result<Finished, RunError> {
        let mut full = Vec::with_capacity(argv.len() + 4);
        if let Some(p) = &self.prlimit {
            full.push(p.display().to_string());
            full.push(format!("--cpu={}", limits.cpu_seconds));
            full.push(format!("--fsize={}", limits.file_mib * 1024 * 1024));
        }
        full.extend(argv.iter().cloned());
        let mut cmd = self.command(dir, readable, &full);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| RunError::Spawn {
                program: self.bwrap.display().to_string(),
                message: e.to_string(),
            })?;
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut p) = pipe {
                    let _ = p.read_to_end(&mut bytes);
                }
                String::from_utf8_lossy(&bytes).into_owned()
            })
        };
        let t_out = drain(child.stdout.take().map(|p| Box::new(p) as _));
        let t_err = drain(child.stderr.take().map(|p| Box::new(p) as _));
        let start = Instant::now();
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() >= limits.wall => {
                    timed_out = true;
                    kill_group(&mut child);
                    break child.wait().ok();
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => {
                    kill_group(&mut child);
                    break None;
                }
            }
        };
        let stdout = t_out.join().unwrap_or_default();
        let stderr = t_err.join().unwrap_or_default();
        Ok(Finished {
            exit: if timed_out {
                None
            } else {
                status.and_then(|s| s.code())
            },
            timed_out,
            stdout,
            stderr,
        })
    }
}

/// Kills the child's process group (the sandbox and everything in it).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is
            // touched
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}
