//! Scratch directories for the files a campaign writes and deletes by the hundred per second
//! (each batch's sources, the compilers' class files): on a RAM file system when the machine
//! has one.
//!
//! On ext4, creating a file where many were deleted within the last minutes scans the inode
//! bitmap past every recently deleted inode (`recently_deleted` in the kernel's inode
//! allocator): a campaign that writes and removes a few hundred files a second spent about
//! half of its own CPU time creating files, beside the compiler on the same cores. A tmpfs
//! has no such cost. The root is, in this order: `$THALIA_SCRATCH` (a directory; `run` for the
//! run directory), `/dev/shm` when it is a tmpfs with [`MIN_FREE_BYTES`] free, else the run
//! directory.

use std::path::{Path, PathBuf};

/// The environment variable that names the scratch root (`run`: the run directory).
pub const SCRATCH_ENV: &str = "THALIA_SCRATCH";

/// The prefix of a scratch directory's name, followed by the owning process's id.
const PREFIX: &str = "thalia-work-";

/// A compile scratch directory: a fresh one under the scratch root (removed when dropped), or
/// `fallback` itself.
#[derive(Debug)]
pub enum Scratch {
    /// A temporary directory under the scratch root.
    Temp(tempfile::TempDir),
    /// The directory given as the fallback (its owner removes it).
    Fallback(PathBuf),
}

impl Scratch {
    /// The directory.
    pub fn path(&self) -> &Path {
        match self {
            Scratch::Temp(t) => t.path(),
            Scratch::Fallback(p) => p,
        }
    }
}

/// A scratch directory under the scratch root, or `fallback` (the caller's directory, such
/// as a run's `work/`) when the root is the run directory or no RAM file system is at hand.
pub fn dir(fallback: &Path) -> Scratch {
    match root() {
        Some(root) => {
            remove_stale(&root);
            let made = tempfile::Builder::new()
                .prefix(&format!("{PREFIX}{}-", std::process::id()))
                .tempdir_in(&root);
            match made {
                Ok(t) => Scratch::Temp(t),
                Err(_) => Scratch::Fallback(fallback.to_path_buf()),
            }
        }
        None => Scratch::Fallback(fallback.to_path_buf()),
    }
}

/// The scratch root: `$THALIA_SCRATCH`, else `/dev/shm` when it is a tmpfs with room; `None`
/// for the run directory.
pub fn root() -> Option<PathBuf> {
    match std::env::var_os(SCRATCH_ENV) {
        Some(v) if v == "run" => None,
        Some(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            std::fs::create_dir_all(&p).ok()?;
            Some(p)
        }
        _ => {
            let shm = Path::new("/dev/shm");
            is_tmpfs_with_room(shm, MIN_FREE_BYTES).then(|| shm.to_path_buf())
        }
    }
}

/// The free space a RAM file system needs to be the scratch root: a container's `/dev/shm` is
/// often 64 MiB, which the class files of a few workers' batches could fill (a compiler that
/// cannot write its classes fails every program of its batch).
pub const MIN_FREE_BYTES: u64 = 512 * 1024 * 1024;

/// Whether `p` is a directory on a tmpfs.
#[cfg(test)]
fn is_tmpfs(p: &Path) -> bool {
    is_tmpfs_with_room(p, 0)
}

/// Whether `p` is a directory on a tmpfs with at least `free` bytes free.
fn is_tmpfs_with_room(p: &Path, free: u64) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        const TMPFS_MAGIC: i64 = 0x0102_1994;
        let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
            return false;
        };
        let mut st: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: `c` is a NUL-terminated path and `st` a writable statfs buffer
        let rc = unsafe { libc::statfs(c.as_ptr(), &mut st) };
        #[allow(clippy::unnecessary_cast)]
        let kind = st.f_type as i64;
        #[allow(clippy::unnecessary_cast)]
        let room = (st.f_bavail as u64).saturating_mul(st.f_bsize as u64);
        rc == 0 && kind == TMPFS_MAGIC && room >= free && p.is_dir()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (p, free);
        false
    }
}

/// Removes the scratch directories under `root` whose process is gone (a campaign killed
/// before it could remove its own).
fn remove_stale(root: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_scratch_directory_is_removed_and_a_live_ones_kept() {
        let root = tempfile::tempdir().expect("tempdir");
        // no process has this id (above the kernel's pid_max)
        let stale = root.path().join(format!("{PREFIX}4194305-abc"));
        let live = root
            .path()
            .join(format!("{PREFIX}{}-abc", std::process::id()));
        let other = root.path().join("someone-elses");
        for d in [&stale, &live, &other] {
            std::fs::create_dir_all(d.join("w0")).expect("mkdir");
        }
        remove_stale(root.path());
        assert!(!stale.exists());
        assert!(live.exists());
        assert!(other.exists());
    }

    #[test]
    fn tmpfs_is_told_apart_as_proc_mounts_tells_it() {
        assert!(!is_tmpfs(Path::new("/no/such/directory")));
        let Ok(mounts) = std::fs::read_to_string("/proc/mounts") else {
            return;
        };
        let shm = Path::new("/dev/shm");
        let said = mounts.lines().any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1) == Some(&"/dev/shm") && f.get(2) == Some(&"tmpfs")
        });
        assert_eq!(is_tmpfs(shm), said && shm.is_dir());
        // no file system has this much room: a tmpfs too small is not taken
        assert!(!is_tmpfs_with_room(shm, u64::MAX));
    }
}
