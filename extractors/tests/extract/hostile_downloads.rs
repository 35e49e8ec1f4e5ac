//! Downloads from hostile repositories on 127.0.0.1, with small limits set through the
//! resolver's options: an endless body, a 10 GiB Content-Length, a dripping server, a stalled
//! one, a silent one, `.part` files left by a killed fetch, and `file://` repositories holding a FIFO, a
//! device or an oversized file. Each ends quickly with an error naming the URL, leaves no
//! temporary file, and the next good artifact is still fetched.

use crate::support::maven_repo;

use std::fs;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use maven_repo::{files_under, some_jar, Fault, RepoDir, RepoServer, G};
use thalia_extractors::maven::limits::STALE_PART_AGE;
use thalia_extractors::maven::{Coordinate, RepoConfig, Repository, Resolver, ResolverOptions};

fn options() -> ResolverOptions {
    ResolverOptions {
        connect_timeout: Duration::from_secs(5),
        timeout: Duration::from_secs(20),
        initial_backoff: Duration::from_millis(20),
        attempts: 2,
        progress: false,
        max_download_bytes: 1 << 20,
        file_deadline: Duration::from_millis(1500),
        stall_timeout: Duration::from_millis(400),
        ..ResolverOptions::default()
    }
}

fn resolver(url: &str, cache: &Path) -> Resolver {
    let repo = Repository::from_spec("test", url, None).expect("repo");
    Resolver::new(RepoConfig::new(vec![repo], cache.to_path_buf()), options()).expect("resolver")
}

fn fx(artifact_version: &str) -> Coordinate {
    format!("{G}:{artifact_version}")
        .parse()
        .expect("coordinate")
}

fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("did not finish within {secs} s"))
}

fn no_temp_files(cache: &Path) {
    let stray: Vec<String> = files_under(cache)
        .into_iter()
        .filter(|f| f.contains(".part") || f.contains(".thalia-"))
        .collect();
    assert!(
        stray.is_empty(),
        "temporary files left in the cache: {stray:?}"
    );
}

/// Serves `bad` (a POM and a jar with `fault` on the jar) and `good`; downloads `bad` (its
/// error and how long it took), then `good`.
fn fetch_with_fault(fault: Fault) -> (String, Duration) {
    let repo = RepoDir::new();
    repo.lib("bad", "1.0", "", &some_jar());
    repo.lib("good", "1.0", "", &some_jar());
    let server = RepoServer::start(&repo);
    server.fault(&RepoDir::rel("bad", "1.0", None, "jar"), fault);
    let cache = tempfile::tempdir().expect("temp dir");
    let r = resolver(&server.url, cache.path());
    let cache_dir = cache.path().to_path_buf();
    let (err, took) = within(30, move || {
        let t = Instant::now();
        let err = r
            .download(&fx("bad:1.0"))
            .expect_err("a hostile download fails");
        let took = t.elapsed();
        let good = r.download(&fx("good:1.0")).expect("the good artifact");
        assert!(good.jar.is_file());
        (err.to_string(), took)
    });
    assert!(err.contains("bad-1.0.jar"), "{err}");
    assert!(err.contains(&server.url), "{err}");
    no_temp_files(&cache_dir);
    assert!(files_under(&cache_dir)
        .iter()
        .all(|f| !f.ends_with("bad-1.0.jar")));
    (err, took)
}

#[test]
fn an_endless_body_stops_at_the_size_ceiling() {
    let (err, took) = fetch_with_fault(Fault::Endless);
    assert!(err.contains("size limit of 1048576 bytes"), "{err}");
    assert!(err.contains("after 1 attempt"), "{err}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_10_gib_content_length_is_refused_before_reading() {
    let (err, took) = fetch_with_fault(Fault::HugeLength);
    assert!(err.contains("10737418240 bytes"), "{err}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_dripping_server_hits_the_deadline() {
    let (err, took) = fetch_with_fault(Fault::Drip(100));
    assert!(err.contains("deadline"), "{err}");
    assert!(took >= Duration::from_millis(1400), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_stalled_server_ends_the_attempt() {
    let (err, took) = fetch_with_fault(Fault::Stall);
    assert!(err.contains("stalled") || err.contains("deadline"), "{err}");
    assert!(
        err.contains("stall_timeout") || err.contains("file_deadline"),
        "{err}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_server_that_never_answers_hits_the_deadline() {
    let (err, took) = fetch_with_fault(Fault::Silent);
    assert!(err.contains("deadline of 1.5s (file_deadline)"), "{err}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

fn age(path: &Path, by: Duration) {
    let f = fs::File::options().write(true).open(path).expect("open");
    f.set_modified(SystemTime::now() - by).expect("set mtime");
}

#[test]
fn stale_part_files_of_killed_fetches_are_cleaned() {
    let repo = RepoDir::new();
    repo.lib("lib", "1.0", "", &some_jar());
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().expect("temp dir");
    let dir = cache
        .path()
        .join(G.replace('.', "/"))
        .join("lib")
        .join("1.0");
    fs::create_dir_all(&dir).expect("mkdir");
    // left by a fetch of this very jar that was killed a minute ago
    let own = dir.join(".thalia-lib-1.0.jar-Ab12Cd.part");
    // left long ago by some other download in the same folder
    let old = dir.join(".thalia-lib-1.0.pom-Zz99Yy.part");
    // a download of another file that may still be running
    let live = dir.join(".thalia-lib-1.0-sources.jar-Qq11Ww.part");
    // not ours
    let other = dir.join("notes.part");
    for p in [&own, &old, &live, &other] {
        fs::write(p, b"partial").expect("write");
    }
    age(&own, Duration::from_secs(60));
    age(&old, STALE_PART_AGE + Duration::from_secs(60));
    age(&other, STALE_PART_AGE + Duration::from_secs(60));
    let r = resolver(&server.url, cache.path());
    let f = r.download(&fx("lib:1.0")).expect("download");
    assert!(f.jar.is_file());
    assert!(!own.exists(), "the jar's own stale .part is removed");
    assert!(!old.exists(), "an old .part is removed");
    assert!(live.exists(), "a recent .part of another file is kept");
    assert!(other.exists(), "files thalia did not write are kept");
}

#[cfg(unix)]
#[test]
fn a_file_repository_serves_regular_files_only_within_the_ceiling() {
    let repo = RepoDir::new();
    repo.lib("good", "1.0", "", &some_jar());
    // a POM that is a FIFO (no writer: opening it would block forever)
    let fifo = repo.path(&RepoDir::rel("fifo", "1.0", None, "pom"));
    fs::create_dir_all(fifo.parent().expect("parent")).expect("mkdir");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    // a POM that is /dev/zero
    let zero = repo.path(&RepoDir::rel("zero", "1.0", None, "pom"));
    fs::create_dir_all(zero.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
    // a jar above the ceiling (sparse: no disk used)
    repo.pom("big", "1.0", "");
    let big = repo.path(&RepoDir::rel("big", "1.0", None, "jar"));
    fs::File::create(&big)
        .and_then(|f| f.set_len(3 << 20))
        .expect("sparse file");

    let cache = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}", repo.root().display());
    let r = resolver(&url, cache.path());
    let cache_dir = cache.path().to_path_buf();
    let (errs, good) = within(20, move || {
        let mut errs = Vec::new();
        if made {
            errs.push(("fifo", r.effective_pom(&fx("fifo:1.0")).map(|_| ())));
        }
        errs.push(("zero", r.effective_pom(&fx("zero:1.0")).map(|_| ())));
        errs.push(("big", r.download(&fx("big:1.0")).map(|_| ())));
        let good = r.download(&fx("good:1.0")).map(|f| f.jar);
        (errs, good)
    });
    for (name, res) in errs {
        let err = res.expect_err(name).to_string();
        assert!(err.contains(&format!("{name}-1.0.")), "{err}");
        if name == "big" {
            assert!(err.contains("size limit of 1048576 bytes"), "{err}");
        } else {
            assert!(err.contains("not a regular file"), "{err}");
        }
    }
    assert!(good.expect("good").is_file());
    no_temp_files(&cache_dir);
}
