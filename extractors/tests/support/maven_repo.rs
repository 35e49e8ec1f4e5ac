//! A Maven-layout repository built in a temporary directory and served over HTTP on
//! 127.0.0.1 (tiny_http), with fault injection and request counting.

#![allow(dead_code)]

use std::collections::HashMap;
use std::fs;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use md5::Md5;
use sha1::{Digest, Sha1};

/// The group of every fixture artifact.
pub const G: &str = "org.thalia.fixture";

/// Hex SHA-1 of some bytes.
pub fn sha1_hex(bytes: &[u8]) -> String {
    hex::encode(Sha1::digest(bytes))
}

/// Hex MD5 of some bytes.
pub fn md5_hex(bytes: &[u8]) -> String {
    hex::encode(Md5::digest(bytes))
}

/// A Maven-layout directory.
pub struct RepoDir {
    dir: tempfile::TempDir,
}

impl Default for RepoDir {
    fn default() -> Self {
        Self::new()
    }
}

impl RepoDir {
    /// An empty repository.
    pub fn new() -> RepoDir {
        RepoDir {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// Its root directory.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The path of a repository file.
    pub fn path(&self, rel: &str) -> PathBuf {
        rel.split('/')
            .fold(self.root().to_path_buf(), |p, c| p.join(c))
    }

    /// Writes a file without checksum files.
    pub fn put_raw(&self, rel: &str, bytes: &[u8]) {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(&p, bytes).expect("write");
    }

    /// Writes a file with its `.sha1` and `.md5`.
    pub fn put(&self, rel: &str, bytes: &[u8]) {
        self.put_raw(rel, bytes);
        self.put_raw(&format!("{rel}.sha1"), sha1_hex(bytes).as_bytes());
        self.put_raw(&format!("{rel}.md5"), md5_hex(bytes).as_bytes());
    }

    /// The repository path of `artifact-version[-classifier].ext` in the fixture group.
    pub fn rel(artifact: &str, version: &str, classifier: Option<&str>, ext: &str) -> String {
        let file = match classifier {
            Some(c) => format!("{artifact}-{version}-{c}.{ext}"),
            None => format!("{artifact}-{version}.{ext}"),
        };
        format!("{}/{artifact}/{version}/{file}", G.replace('.', "/"))
    }

    /// Writes a POM of the fixture group; `inner` is the XML after the coordinates.
    pub fn pom(&self, artifact: &str, version: &str, inner: &str) {
        let xml = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <project xmlns=\"urn:thalia:test-pom\">\n  <modelVersion>4.0.0</modelVersion>\n  \
             <groupId>{G}</groupId>\n  <artifactId>{artifact}</artifactId>\n  \
             <version>{version}</version>\n{inner}\n</project>\n"
        );
        self.put(&Self::rel(artifact, version, None, "pom"), xml.as_bytes());
    }

    /// Writes a POM (with dependencies given as XML) and a jar.
    pub fn lib(&self, artifact: &str, version: &str, deps: &str, jar: &[u8]) {
        let inner = if deps.is_empty() {
            String::new()
        } else {
            format!("  <dependencies>\n{deps}  </dependencies>")
        };
        self.pom(artifact, version, &inner);
        self.put(&Self::rel(artifact, version, None, "jar"), jar);
    }

    /// Writes `maven-metadata.xml` for an artifact of the fixture group.
    pub fn metadata(&self, artifact: &str, versions: &[&str], release: Option<&str>) {
        let vs: String = versions
            .iter()
            .map(|v| format!("      <version>{v}</version>\n"))
            .collect();
        let rel = release
            .map(|r| format!("    <release>{r}</release>\n"))
            .unwrap_or_default();
        let xml = format!(
            "<?xml version=\"1.0\"?>\n<metadata>\n  <groupId>{G}</groupId>\n  \
             <artifactId>{artifact}</artifactId>\n  <versioning>\n{rel}    <versions>\n{vs}    \
             </versions>\n  </versioning>\n</metadata>\n"
        );
        self.put(
            &format!("{}/{artifact}/maven-metadata.xml", G.replace('.', "/")),
            xml.as_bytes(),
        );
    }
}

/// XML of one dependency of the fixture group; `extra` goes inside `<dependency>`.
pub fn dep(artifact: &str, version: Option<&str>, extra: &str) -> String {
    let v = version
        .map(|v| format!("<version>{v}</version>"))
        .unwrap_or_default();
    format!(
        "    <dependency><groupId>{G}</groupId><artifactId>{artifact}</artifactId>{v}{extra}\
         </dependency>\n"
    )
}

/// A fault to inject for one repository path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Answer 404.
    NotFound,
    /// Answer with this status and an empty body.
    Status(u16),
    /// Send the headers with the full Content-Length, half the body, then close the connection.
    DropMidBody,
    /// Send a body without a length that never ends (zeros, as fast as the client reads).
    Endless,
    /// Send a body without a length one byte every this many milliseconds, forever.
    Drip(u64),
    /// Send the headers and a few bytes, then nothing (the connection stays open).
    Stall,
    /// Announce a Content-Length of 10 GiB, then send zeros.
    HugeLength,
    /// Accept the request and never answer (the connection stays open).
    Silent,
}

impl Fault {
    /// The mode the raw side serves, or `None` when the HTTP server answers itself.
    fn raw_mode(self) -> Option<&'static str> {
        match self {
            Fault::DropMidBody => Some("drop"),
            Fault::Endless => Some("endless"),
            Fault::Drip(_) => Some("drip"),
            Fault::Stall => Some("stall"),
            Fault::HugeLength => Some("huge"),
            Fault::Silent => Some("silent"),
            Fault::NotFound | Fault::Status(_) => None,
        }
    }
}

struct State {
    root: PathBuf,
    faults: Mutex<HashMap<String, Fault>>,
    log: Mutex<Vec<String>>,
    dropped: Mutex<Vec<String>>,
}

/// The HTTP server of a [`RepoDir`]; it stops when dropped.
pub struct RepoServer {
    /// The repository URL, `http://127.0.0.1:<port>/repo`.
    pub url: String,
    state: Arc<State>,
    stop: Arc<AtomicBool>,
    http: Option<JoinHandle<()>>,
    dropper_addr: String,
    dropper: Option<JoinHandle<()>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Serves a hostile body (`mode` is the first path segment): zeros without end, a drip, a
/// stall, or a 10 GiB Content-Length; stops when the client goes away or the server stops.
fn serve_hostile(mut stream: TcpStream, mode: &str, drip_ms: u64, stop: &AtomicBool) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    if mode == "silent" {
        while !stop.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(20));
        }
        return;
    }
    let head = match mode {
        "huge" => "HTTP/1.1 200 OK\r\nContent-Length: 10737418240\r\n\r\n".to_string(),
        _ => "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".to_string(),
    };
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let zeros = vec![0u8; 64 * 1024];
    match mode {
        "endless" | "huge" => {
            while !stop.load(Ordering::SeqCst) {
                if stream.write_all(&zeros).is_err() {
                    return;
                }
            }
        }
        "drip" => {
            while !stop.load(Ordering::SeqCst) {
                if stream.write_all(b"x").and_then(|_| stream.flush()).is_err() {
                    return;
                }
                thread::sleep(Duration::from_millis(drip_ms));
            }
        }
        _ => {
            let _ = stream.write_all(b"PK\x03\x04");
            let _ = stream.flush();
            while !stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// Reads a request's head; its path without the leading `/`.
fn request_path(stream: &mut TcpStream) -> Option<String> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&head);
    Some(
        text.split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .trim_start_matches('/')
            .to_string(),
    )
}

/// Serves a file with a Content-Length larger than what is written, then drops the connection.
fn serve_dropping(mut stream: TcpStream, path: String, state: &State) {
    lock(&state.dropped).push(path.clone());
    let rel = path.strip_prefix("repo/").unwrap_or(&path);
    let body =
        fs::read(rel.split('/').fold(state.root.clone(), |p, c| p.join(c))).unwrap_or_default();
    let half = body.len() / 2;
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/java-archive\r\nContent-Length: {}\r\n\r\n",
        body.len().max(1)
    );
    let _ = stream.write_all(&body[..half]);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Both);
}

impl RepoServer {
    /// Serves `repo` at `http://127.0.0.1:<port>/repo`.
    pub fn start(repo: &RepoDir) -> RepoServer {
        let state = Arc::new(State {
            root: repo.root().to_path_buf(),
            faults: Mutex::new(HashMap::new()),
            log: Mutex::new(Vec::new()),
            dropped: Mutex::new(Vec::new()),
        });
        let stop = Arc::new(AtomicBool::new(false));

        // The dropping side: a bare listener, reached through a redirect from the server.
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind dropper");
        let dropper_addr = listener.local_addr().expect("addr").to_string();
        let (st, sp) = (state.clone(), stop.clone());
        let dropper = thread::spawn(move || {
            for stream in listener.incoming() {
                if sp.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut s) = stream else { continue };
                let Some(path) = request_path(&mut s) else {
                    continue;
                };
                let (mode, rest) = path.split_once('/').unwrap_or(("drop", ""));
                if mode == "drop" {
                    serve_dropping(s, rest.to_string(), &st);
                } else {
                    let (mode, stop) = (mode.to_string(), sp.clone());
                    let drip_ms = lock(&st.faults)
                        .values()
                        .find_map(|f| match f {
                            Fault::Drip(ms) => Some(*ms),
                            _ => None,
                        })
                        .unwrap_or(1000);
                    lock(&st.dropped).push(rest.to_string());
                    thread::spawn(move || serve_hostile(s, &mode, drip_ms, &stop));
                }
            }
        });

        let server = tiny_http::Server::http("127.0.0.1:0").expect("bind server");
        let port = server.server_addr().to_ip().expect("ip listener").port();
        let (st, sp) = (state.clone(), stop.clone());
        let daddr = dropper_addr.clone();
        let http = thread::spawn(move || {
            while !sp.load(Ordering::SeqCst) {
                let rq = match server.recv_timeout(Duration::from_millis(50)) {
                    Ok(Some(rq)) => rq,
                    Ok(None) => continue,
                    Err(_) => break,
                };
                let path = rq
                    .url()
                    .split('?')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('/')
                    .to_string();
                lock(&st.log).push(path.clone());
                let Some(rel) = path.strip_prefix("repo/").map(str::to_string) else {
                    let _ = rq.respond(tiny_http::Response::empty(404));
                    continue;
                };
                let fault = lock(&st.faults).get(&rel).copied();
                let _ = match fault {
                    Some(Fault::NotFound) => rq.respond(tiny_http::Response::empty(404)),
                    Some(Fault::Status(s)) => rq.respond(tiny_http::Response::empty(s)),
                    Some(
                        f @ (Fault::DropMidBody
                        | Fault::Endless
                        | Fault::Drip(_)
                        | Fault::Stall
                        | Fault::HugeLength
                        | Fault::Silent),
                    ) => {
                        let mode = f.raw_mode().unwrap_or("drop");
                        let location = format!("http://{daddr}/{mode}/{path}");
                        let header =
                            tiny_http::Header::from_bytes(&b"Location"[..], location.as_bytes())
                                .expect("header");
                        rq.respond(tiny_http::Response::empty(302).with_header(header))
                    }
                    None => {
                        let file = rel.split('/').fold(st.root.clone(), |p, c| p.join(c));
                        if rel.split('/').any(|c| c == "..") || !file.is_file() {
                            rq.respond(tiny_http::Response::empty(404))
                        } else {
                            match fs::read(&file) {
                                Ok(bytes) => rq.respond(tiny_http::Response::from_data(bytes)),
                                Err(_) => rq.respond(tiny_http::Response::empty(500)),
                            }
                        }
                    }
                };
            }
        });
        RepoServer {
            url: format!("http://127.0.0.1:{port}/repo"),
            state,
            stop,
            http: Some(http),
            dropper_addr,
            dropper: Some(dropper),
        }
    }

    /// Injects a fault for a repository path.
    pub fn fault(&self, rel: &str, fault: Fault) {
        lock(&self.state.faults).insert(rel.to_string(), fault);
    }

    /// Every request path the server received so far (`repo/...`), in order.
    pub fn requests(&self) -> Vec<String> {
        lock(&self.state.log).clone()
    }

    /// How many requests asked for this repository path.
    pub fn count(&self, rel: &str) -> usize {
        let want = format!("repo/{rel}");
        lock(&self.state.log).iter().filter(|p| **p == want).count()
    }

    /// How many connections the raw side (cut, endless, dripping, stalling) served.
    pub fn dropped(&self) -> usize {
        lock(&self.state.dropped).len()
    }
}

impl Drop for RepoServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the dropper's accept loop.
        let _ = TcpStream::connect(&self.dropper_addr);
        if let Some(h) = self.http.take() {
            let _ = h.join();
        }
        if let Some(h) = self.dropper.take() {
            let _ = h.join();
        }
    }
}

/// Jars compiled by the real `javac` + `jar`, built once per test run.
pub struct JavaJars {
    /// `fixture.core.Box<T extends Comparable<? super T>>`.
    pub core: Vec<u8>,
    /// `fixture.util.Boxes`, which uses `Box`.
    pub util: Vec<u8>,
    /// A javadoc-style jar (HTML pages).
    pub javadoc: Vec<u8>,
    _dir: tempfile::TempDir,
}

fn have(tool: &str) -> bool {
    ["--version", "-version"].iter().any(|flag| {
        Command::new(tool)
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("run tool");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const BOX_JAVA: &str = r#"package fixture.core;

import java.util.function.Function;

/** A box over comparable values. */
public final class Box<T extends Comparable<? super T>> implements Comparable<Box<T>> {
    private final T value;

    public Box(T value) { this.value = value; }

    public T get() { return value; }

    public <R extends Comparable<? super R>> Box<R> map(Function<? super T, ? extends R> f) {
        return new Box<>(f.apply(value));
    }

    @Override
    public int compareTo(Box<T> other) { return value.compareTo(other.value); }
}
"#;

const BOXES_JAVA: &str = r#"package fixture.util;

import fixture.core.Box;
import java.util.List;

/** Helpers over boxes. */
public final class Boxes {
    private Boxes() {}

    public static <T extends Comparable<? super T>> Box<T> max(List<? extends Box<T>> boxes) {
        Box<T> best = null;
        for (Box<T> b : boxes) {
            if (best == null || b.compareTo(best) > 0) best = b;
        }
        return best;
    }
}
"#;

/// The compiled fixture jars, or `None` when `javac`/`jar` are missing.
pub fn java_jars() -> Option<&'static JavaJars> {
    static JARS: OnceLock<Option<JavaJars>> = OnceLock::new();
    JARS.get_or_init(|| {
        if !have("javac") || !have("jar") {
            return None;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let src = d.join("src");
        fs::create_dir_all(src.join("fixture/core")).expect("mkdir");
        fs::create_dir_all(src.join("fixture/util")).expect("mkdir");
        fs::write(src.join("fixture/core/Box.java"), BOX_JAVA).expect("write");
        fs::write(src.join("fixture/util/Boxes.java"), BOXES_JAVA).expect("write");
        run(Command::new("javac")
            .arg("-d")
            .arg(d.join("core"))
            .arg(src.join("fixture/core/Box.java")));
        run(Command::new("javac")
            .arg("-cp")
            .arg(d.join("core"))
            .arg("-d")
            .arg(d.join("util"))
            .arg(src.join("fixture/util/Boxes.java")));
        fs::create_dir_all(d.join("doc")).expect("mkdir");
        fs::write(d.join("doc/index.html"), "<html><body>Box</body></html>").expect("write");
        for name in ["core", "util", "doc"] {
            run(Command::new("jar")
                .arg("--create")
                .arg("--file")
                .arg(d.join(format!("{name}.jar")))
                .arg("-C")
                .arg(d.join(name))
                .arg("."));
        }
        let read = |n: &str| fs::read(d.join(format!("{n}.jar"))).expect("read jar");
        Some(JavaJars {
            core: read("core"),
            util: read("util"),
            javadoc: read("doc"),
            _dir: dir,
        })
    })
    .as_ref()
}

/// A small valid jar written with `zip` (for tests where the classes do not matter).
pub fn some_jar() -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("META-INF/MANIFEST.MF", opts).expect("zip");
        z.write_all(b"Manifest-Version: 1.0\r\n\r\n").expect("zip");
        z.start_file("fixture/README.txt", opts).expect("zip");
        z.write_all(&[b'x'; 2048]).expect("zip");
        z.finish().expect("zip");
    }
    buf.into_inner()
}

/// Files under `dir` (relative paths with `/`), sorted.
pub fn files_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, d: &Path, out: &mut Vec<String>) {
        let Ok(rd) = fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else if let Ok(r) = p.strip_prefix(base) {
                out.push(r.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}
