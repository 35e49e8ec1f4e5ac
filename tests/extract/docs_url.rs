//! `thalia extract --docs http://127.0.0.1:PORT/…` end to end, on sites served by the test on
//! the loopback interface (never a real host): the javadoc that JDK 17's `javadoc` writes for
//! `extractors/tests/fixtures/docs/src` gives the same API over HTTP as from its folder; the
//! Dokka pages of `extractors/tests/fixtures/dokka-ktor` give the Kotlin view; a server that
//! drops the connection in the middle of a page has that page named and skipped, the rest kept;
//! a site that answers nothing is an error naming the URL; the crawl stays under the URL's
//! folder, its page budget stops it with the pages read kept, and a page that stalls past the
//! timeout is named and skipped.

use crate::support::require;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use assert_cmd::Command as Cmd;

fn thalia() -> Cmd {
    Cmd::cargo_bin("thalia").unwrap()
}

fn work(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs-url")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How the test server answers one path.
#[derive(Clone)]
enum Answer {
    Page(Vec<u8>),
    /// Promises the whole page, sends the first bytes, then closes the connection.
    Drop(Vec<u8>),
    /// Sends the headers, then nothing for this long.
    Stall(std::time::Duration),
}

/// A site served on 127.0.0.1 by a thread; records the paths asked for.
struct Site {
    port: u16,
    asked: Arc<Mutex<Vec<String>>>,
}

fn serve(pages: BTreeMap<String, Answer>) -> Site {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let pages = Arc::new(pages);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let pages = pages.clone();
            let log = log.clone();
            std::thread::spawn(move || answer(stream, &pages, &log));
        }
    });
    Site { port, asked }
}

fn answer(mut stream: TcpStream, pages: &BTreeMap<String, Answer>, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
    }
    log.lock().unwrap().push(path.clone());
    let mut key = path
        .trim_start_matches('/')
        .replace("%5B", "[")
        .replace("%5D", "]");
    if key.is_empty() || key.ends_with('/') {
        // a folder: its index page, as web servers do
        key.push_str("index.html");
    }
    match pages.get(&key) {
        Some(Answer::Page(b)) => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                b.len()
            );
            let _ = stream.write_all(b);
        }
        Some(Answer::Drop(b)) => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                b.len()
            );
            let _ = stream.write_all(&b[..b.len() / 3]);
            let _ = stream.flush();
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Some(Answer::Stall(d)) => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
            );
            let _ = stream.flush();
            std::thread::sleep(*d);
        }
        None => {
            let _ = write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    }
}

/// Every file under `dir`, by its path relative to `dir`, served under `prefix`.
fn files(dir: &Path, prefix: &str) -> BTreeMap<String, Answer> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let mut bytes = Vec::new();
                std::fs::File::open(&p)
                    .unwrap()
                    .read_to_end(&mut bytes)
                    .unwrap();
                out.insert(format!("{prefix}{rel}"), Answer::Page(bytes));
            }
        }
    }
    out
}

/// The documents written into `dir`, by file name, as JSON values.
fn documents(dir: &Path) -> BTreeMap<String, serde_json::Value> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            out.insert(p.file_name().unwrap().to_string_lossy().into_owned(), v);
        }
    }
    out
}

fn extract(src: &str, out: &Path) -> (bool, String) {
    let o = thalia()
        .args(["extract", "--docs", src, "--out"])
        .arg(out)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn dokka_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("extractors/tests/fixtures/dokka-ktor")
}

/// The Dokka fixture with a root `index.html` linking to its package and class pages, as
/// Dokka's module page does.
fn dokka_site(prefix: &str) -> BTreeMap<String, Answer> {
    let mut pages = files(&dokka_fixture(), prefix);
    let mut index = String::from(
        "<!DOCTYPE html><html><head><script>var pathToRoot = \"\";</script>\
         <script type=\"text/javascript\" src=\"scripts/sourceset_dependencies.js\"></script>\
         </head><body><div class=\"breadcrumbs\"></div>",
    );
    for name in pages.keys() {
        let rel = name.strip_prefix(prefix).unwrap();
        index.push_str(&format!("<a href=\"{rel}\">{rel}</a>\n"));
    }
    index.push_str("</body></html>");
    pages.insert(
        format!("{prefix}index.html"),
        Answer::Page(index.into_bytes()),
    );
    pages
}

#[test]
fn a_dokka_site_over_http_gives_the_same_api_as_its_folder() {
    let dir = work("dokka");
    let site = serve(dokka_site("api/"));
    // a page outside the URL's folder, linked from the site: never fetched
    let (ok, stderr) = extract(
        &format!("http://127.0.0.1:{}/api/", site.port),
        &dir.join("web"),
    );
    assert!(ok, "{stderr}");
    assert!(stderr.contains("9 dokka"), "{stderr}");
    // the fixture is cut from a whole site: its links to the other class pages dangle, and
    // each is named; nothing else is a problem
    for l in stderr.lines().filter(|l| l.starts_with("warning:")) {
        assert!(l.contains("HTTP status 404"), "{l}");
    }
    // members' pages (`receive-text.html`) are not fetched on a Dokka site
    assert!(!site
        .asked
        .lock()
        .unwrap()
        .iter()
        .any(|p| p.ends_with("receive-text.html")));
    let (ok, stderr2) = extract(dokka_fixture().to_str().unwrap(), &dir.join("folder"));
    assert!(ok, "{stderr2}");
    let web = documents(&dir.join("web"));
    assert_eq!(web.len(), 9);
    assert_eq!(web, documents(&dir.join("folder")));
    assert!(web.contains_key("io.ktor.server.request.json"));
    let asked = site.asked.lock().unwrap().clone();
    assert!(
        asked.iter().all(|p| p.starts_with("/api/")),
        "fetched outside the site: {asked:?}"
    );
    // the written API loads with nothing skipped
    let o = thalia()
        .args(["api", "stats"])
        .arg(dir.join("web"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("nothing skipped"), "{err}");
}

#[test]
fn a_dropped_connection_names_the_page_and_keeps_the_rest() {
    let dir = work("drop");
    let mut pages = dokka_site("");
    let victim = "ktor-server-core/io.ktor.server.engine/-connector-type/index.html";
    let Some(Answer::Page(b)) = pages.get(victim).cloned() else {
        panic!("no {victim}")
    };
    pages.insert(victim.into(), Answer::Drop(b));
    let site = serve(pages);
    let url = format!("http://127.0.0.1:{}/index.html", site.port);
    let (ok, stderr) = extract(&url, &dir.join("out"));
    assert!(ok, "{stderr}");
    let victim_url = format!("http://127.0.0.1:{}/{victim}", site.port);
    assert!(
        stderr
            .lines()
            .any(|l| l.contains(&victim_url) && l.contains("connection failed")),
        "{stderr}"
    );
    assert!(stderr.contains("8 dokka"), "{stderr}");
    let docs = documents(&dir.join("out"));
    assert!(!docs.contains_key("io.ktor.server.engine.ConnectorType.json"));
    assert!(docs.contains_key("io.ktor.server.engine.ConnectorType.Companion.json"));
    assert_eq!(docs.len(), 8);
}

#[test]
fn a_site_that_answers_nothing_is_an_error_naming_the_url() {
    let dir = work("nothing");
    // a port with no server: bind, read the port, close
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/docs/index.html");
    let (ok, stderr) = extract(&url, &dir.join("out"));
    assert!(!ok);
    assert!(stderr.contains(&url), "{stderr}");
    // a site whose pages are all missing
    let site = serve(BTreeMap::new());
    let url = format!("http://127.0.0.1:{}/docs/", site.port);
    let (ok, stderr) = extract(&url, &dir.join("out2"));
    assert!(!ok);
    assert!(stderr.contains(&url), "{stderr}");
    assert!(stderr.contains("404"), "{stderr}");
}

#[test]
fn a_javadoc_site_over_http_gives_the_same_api_as_its_folder() {
    let javadoc = "javadoc";
    if !Command::new(javadoc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        require::missing_tool(
            "a_javadoc_site_over_http_gives_the_same_api_as_its_folder",
            "javadoc not found on PATH",
        );
        return;
    }
    let dir = work("javadoc");
    let html = dir.join("html");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("extractors/tests/fixtures/docs/src");
    let o = Command::new(javadoc)
        .args(["-quiet", "-d"])
        .arg(&html)
        .arg("-sourcepath")
        .arg(&src)
        .args(["-subpackages", "dx"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let site = serve(files(&html, "javadoc/api/"));
    let (ok, stderr) = extract(
        &format!("http://127.0.0.1:{}/javadoc/api/index.html", site.port),
        &dir.join("web"),
    );
    assert!(ok, "{stderr}");
    assert!(stderr.contains("0 problems"), "{stderr}");
    let (ok, stderr2) = extract(html.to_str().unwrap(), &dir.join("folder"));
    assert!(ok, "{stderr2}");
    let web = documents(&dir.join("web"));
    assert!(web.len() >= 17, "{}", web.len());
    assert_eq!(web, documents(&dir.join("folder")));
    // no source or class-use page was fetched
    let asked = site.asked.lock().unwrap().clone();
    assert!(
        !asked
            .iter()
            .any(|p| p.contains("class-use") || p.contains("src-html")),
        "{asked:?}"
    );
}

#[test]
fn the_page_budget_stops_the_crawl_and_keeps_what_was_read() {
    let site = serve(dokka_site(""));
    let limits = thalia_extractors::docs::CrawlLimits {
        max_pages: 4,
        ..Default::default()
    };
    let url = format!("http://127.0.0.1:{}/", site.port);
    let x = thalia_extractors::docs::extract_url_with(&url, &limits).expect("crawl");
    assert!(
        x.problems
            .iter()
            .any(|p| p.reason.contains("budget of 4 pages")),
        "{:?}",
        x.problems
    );
    assert!(site.asked.lock().unwrap().len() <= 4);
    assert!(!x.docs.is_empty() && x.docs.len() < 9, "{}", x.docs.len());
}

#[test]
fn a_stalled_page_times_out_named_and_the_rest_is_kept() {
    let mut pages = dokka_site("");
    let victim = "ktor-server-core/io.ktor.server.application/-application-startup-mode/index.html";
    assert!(pages.contains_key(victim));
    pages.insert(
        victim.into(),
        Answer::Stall(std::time::Duration::from_secs(20)),
    );
    let site = serve(pages);
    let limits = thalia_extractors::docs::CrawlLimits {
        timeout: std::time::Duration::from_secs(2),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let x = thalia_extractors::docs::extract_url_with(
        &format!("http://127.0.0.1:{}/index.html", site.port),
        &limits,
    )
    .expect("crawl");
    assert!(t.elapsed() < std::time::Duration::from_secs(15));
    let victim_url = format!("http://127.0.0.1:{}/{victim}", site.port);
    assert!(
        x.problems.iter().any(|p| p.page == victim_url),
        "{:?}",
        x.problems
    );
    assert_eq!(x.docs.len(), 8);
    assert!(!x
        .docs
        .iter()
        .any(|d| d.name == "io.ktor.server.application.ApplicationStartupMode"));
}
