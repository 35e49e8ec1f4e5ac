//! A published documentation site (an `http`/`https` URL) read through the same layout readers
//! as a folder: the pages under the URL are crawled breadth-first by their links, with
//! `reqwest` (blocking), within [`CrawlLimits`]: connect and per-request timeouts, at most
//! [`MAX_PAGE_BYTES`] per page and [`MAX_TOTAL_BYTES`] in all, and a budget of pages fetched.
//!
//! Only the site's own pages are fetched: same scheme, host and port as the URL, and a path
//! under the URL's folder (`http://h/docs/api/index.html` → everything under
//! `http://h/docs/api/`); redirects are not followed off the site. Besides the URL itself the
//! crawl starts from the pages that list every class (`allclasses-index.html`,
//! `allclasses.html`, Dokka's `navigation.html`) and the folder's `index.html`, when the site
//! has them.
//!
//! On a Dokka site only `index.html` pages (packages and classes) are followed, not members'
//! pages.
//!
//! A page that cannot be fetched (connection refused or dropped midway, a timeout, too large,
//! an HTTP error status for a page that can be a class page) is a problem naming its URL, and the crawl goes on with the pages
//! already found: what was read is kept. Only a start URL that gives nothing at all is an
//! error.

use std::collections::{HashSet, VecDeque};
use std::io::Read;
use std::time::{Duration, Instant};

use reqwest::Url;
use scraper::Selector;

use super::{
    detect, is_candidate, Collector, DocProblem, DocsError, DocsExtraction, IndexPage, Layout,
    HEAD_BYTES, INDEX_PAGES, MAX_PAGE_BYTES, MAX_TOTAL_BYTES,
};

/// The limits of one crawl.
#[derive(Clone, Debug)]
pub struct CrawlLimits {
    /// The most pages fetched (class pages and the pages that link to them).
    pub max_pages: usize,
    /// Time allowed to connect to the site.
    pub connect_timeout: Duration,
    /// Time allowed for one page (request and body).
    pub timeout: Duration,
    /// Time allowed for the whole crawl; past it, the pages read so far are kept.
    pub deadline: Duration,
}

impl Default for CrawlLimits {
    fn default() -> Self {
        CrawlLimits {
            max_pages: 50_000,
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(60),
            deadline: Duration::from_secs(3600),
        }
    }
}

/// Whether `s` is an `http` or `https` URL (what [`extract_url`] reads).
pub fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("http://") || l.starts_with("https://")
}

/// The folder of the site under `url` (the URL itself when it ends with `/`).
fn base_of(url: &Url) -> Url {
    let mut b = url.clone();
    b.set_query(None);
    b.set_fragment(None);
    if !b.path().ends_with('/') {
        let path = b.path().to_string();
        let last = path.rsplit('/').next().unwrap_or("");
        if last.contains('.') {
            let dir = &path[..path.len() - last.len()];
            b.set_path(dir);
        } else {
            b.set_path(&format!("{path}/"));
        }
    }
    b
}

/// The page's name relative to the site's folder (`dx/Box.html`), if it is under it.
fn relative(base: &Url, url: &Url) -> Option<String> {
    if url.scheme() != base.scheme()
        || url.host_str() != base.host_str()
        || url.port_or_known_default() != base.port_or_known_default()
    {
        return None;
    }
    let rest = url.path().strip_prefix(base.path())?;
    let rest = percent_decode(rest);
    if rest.split('/').any(|s| s == "..") {
        return None;
    }
    Some(if rest.is_empty() || rest.ends_with('/') {
        format!("{rest}index.html")
    } else {
        rest
    })
}

/// Decodes `%XX` escapes (Dokka's `[root]` folder is linked as `%5Broot%5D`).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Pages worth following: HTML pages (or folders) that are not sources or uses of classes.
fn worth_following(name: &str) -> bool {
    (name.ends_with(".html") || name.ends_with('/'))
        && !name
            .split('/')
            .any(|s| matches!(s, "class-use" | "src-html" | "index-files" | "legal"))
}

/// One fetched page.
enum Fetched {
    Page(Url, Vec<u8>),
    /// The site does not have it (an HTTP error status): not a problem for a seed page.
    Missing(String),
    Failed(String),
}

fn fetch(client: &reqwest::blocking::Client, url: &Url) -> Fetched {
    let resp = match client.get(url.clone()).send() {
        Ok(r) => r,
        Err(e) => return Fetched::Failed(format!("cannot fetch: {}", error_chain(&e))),
    };
    let status = resp.status();
    if !status.is_success() {
        return Fetched::Missing(format!("HTTP status {status}"));
    }
    if resp.content_length().is_some_and(|n| n > MAX_PAGE_BYTES) {
        return Fetched::Failed(format!(
            "larger than MAX_PAGE_BYTES = {MAX_PAGE_BYTES} bytes (Content-Length)"
        ));
    }
    let final_url = resp.url().clone();
    let mut buf = Vec::new();
    match resp.take(MAX_PAGE_BYTES + 1).read_to_end(&mut buf) {
        Ok(_) => Fetched::Page(final_url, buf),
        Err(e) => Fetched::Failed(format!(
            "connection failed while reading the page ({} bytes read): {e}",
            buf.len()
        )),
    }
}

/// The error and its causes, on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        s.push_str(": ");
        s.push_str(&c.to_string());
        src = c.source();
    }
    s
}

/// Extracts the API documented on a published site, with the default [`CrawlLimits`].
pub fn extract_url(url: &str) -> Result<DocsExtraction, DocsError> {
    extract_url_with(url, &CrawlLimits::default())
}

/// Extracts the API documented on a published site (an `http`/`https` URL of its root folder
/// or of one of its pages). Pages that cannot be fetched or read are problems naming their URL;
/// a URL that is not `http`/`https`, or whose start page cannot be fetched when nothing else
/// was, is an error.
pub fn extract_url_with(url: &str, limits: &CrawlLimits) -> Result<DocsExtraction, DocsError> {
    let start = Instant::now();
    let bad = |reason: String| DocsError::Url {
        url: url.to_string(),
        reason,
    };
    let parsed = Url::parse(url).map_err(|e| bad(format!("not a URL: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http and https URLs are read".into()));
    }
    let loopback = parsed.host_str().is_some_and(|h| {
        h == "localhost"
            || h.trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|a| a.is_loopback())
    });
    let base = base_of(&parsed);
    let mut b = reqwest::blocking::Client::builder()
        .user_agent(concat!("thalia/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(limits.connect_timeout)
        .timeout(limits.timeout)
        .redirect({
            let site = (
                parsed.scheme().to_string(),
                parsed.host_str().map(str::to_string),
                parsed.port_or_known_default(),
            );
            reqwest::redirect::Policy::custom(move |attempt| {
                let u = attempt.url();
                let same = u.scheme() == site.0
                    && u.host_str().map(str::to_string) == site.1
                    && u.port_or_known_default() == site.2;
                if attempt.previous().len() >= 5 {
                    attempt.error("more than 5 redirects")
                } else if same {
                    attempt.follow()
                } else {
                    attempt.stop()
                }
            })
        });
    if loopback {
        b = b.no_proxy();
    }
    let client = b
        .build()
        .map_err(|e| bad(format!("cannot create the HTTP client: {e}")))?;
    let links = Selector::parse("a[href]").map_err(|_| bad("bad selector".into()))?;

    let mut c = Collector::new();
    let mut index: IndexPage = None;
    let mut problems: Vec<DocProblem> = Vec::new();
    let mut queue: VecDeque<(Url, bool)> = VecDeque::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut push = |u: Url, seed: bool, queue: &mut VecDeque<(Url, bool)>| {
        let mut u = u;
        u.set_fragment(None);
        u.set_query(None);
        // a folder and its `index.html` are one page
        let mut key = u.as_str().to_string();
        if key.ends_with('/') {
            key.push_str("index.html");
        }
        if seen.insert(key) {
            queue.push_back((u, seed));
        }
    };
    push(parsed.clone(), false, &mut queue);
    // the class lists, fetched when the pages the URL leads to are done (most sites link
    // them from their first page anyway)
    let mut seeds: Vec<Url> = INDEX_PAGES
        .iter()
        .chain(["index.html", "navigation.html"].iter())
        .filter_map(|s| base.join(s).ok())
        .collect();
    seeds.reverse();
    let mut fetched = 0usize;
    let mut total = 0u64;
    let mut read_any = false;
    let mut dokka = false;
    let mut first_failure: Option<String> = None;
    loop {
        if queue.is_empty() {
            match seeds.pop() {
                Some(u) => push(u, true, &mut queue),
                None => break,
            }
            continue;
        }
        let Some((u, seed)) = queue.pop_front() else {
            break;
        };
        if fetched >= limits.max_pages {
            problems.push(DocProblem {
                page: u.to_string(),
                reason: format!(
                    "not fetched: the crawl's budget of {} pages is spent ({} more pages queued)",
                    limits.max_pages,
                    queue.len()
                ),
            });
            break;
        }
        if start.elapsed() > limits.deadline {
            problems.push(DocProblem {
                page: u.to_string(),
                reason: format!(
                    "not fetched: the crawl's deadline of {:?} passed ({} more pages queued)",
                    limits.deadline,
                    queue.len()
                ),
            });
            break;
        }
        fetched += 1;
        let (final_url, bytes) = match fetch(&client, &u) {
            Fetched::Page(f, b) => (f, b),
            // a missing page that cannot be a class page is a dangling link, not a loss
            Fetched::Missing(_)
                if seed
                    || (u != parsed && !relative(&base, &u).is_some_and(|n| is_candidate(&n))) =>
            {
                continue
            }
            Fetched::Missing(reason) | Fetched::Failed(reason) => {
                if first_failure.is_none() && !read_any {
                    first_failure = Some(reason.clone());
                }
                problems.push(DocProblem {
                    page: u.to_string(),
                    reason,
                });
                continue;
            }
        };
        read_any = true;
        let Some(name) = relative(&base, &final_url) else {
            problems.push(DocProblem {
                page: u.to_string(),
                reason: format!("redirected off the site to {final_url}: not read"),
            });
            continue;
        };
        total += bytes.len() as u64;
        if total > MAX_TOTAL_BYTES {
            problems.push(DocProblem {
                page: u.to_string(),
                reason: format!("the site's pages pass MAX_TOTAL_BYTES = {MAX_TOTAL_BYTES} bytes"),
            });
            break;
        }
        if !dokka {
            let head = &bytes[..bytes.len().min(HEAD_BYTES)];
            dokka = detect(&String::from_utf8_lossy(head)) == Some(Layout::Dokka);
        }
        let parsed = if bytes.len() as u64 <= MAX_PAGE_BYTES {
            super::html::parse_page(&String::from_utf8_lossy(&bytes)).map(Some)
        } else {
            Ok(None)
        };
        if let Err(reason) = &parsed {
            // a class page is reported (for the same reason) when it is read
            if !is_candidate(&name) {
                problems.push(DocProblem {
                    page: u.to_string(),
                    reason: format!("{reason}; its links were not followed"),
                });
            }
        }
        if let Ok(Some(html)) = parsed {
            for a in html.select(&links) {
                let Some(href) = a.value().attr("href") else {
                    continue;
                };
                let Ok(next) = final_url.join(href) else {
                    continue;
                };
                if let Some(n) = relative(&base, &next) {
                    // on a Dokka site, members' pages (`call.html`) document nothing more
                    // than their class's page
                    if dokka && !n.ends_with("index.html") && n != "navigation.html" {
                        continue;
                    }
                    if worth_following(&n) || worth_following(next.path()) {
                        push(next, false, &mut queue);
                    }
                }
            }
        }
        if INDEX_PAGES.contains(&name.as_str()) {
            index = Some((name, bytes));
            continue;
        }
        if is_candidate(&name) {
            c.push(name, Ok(bytes));
        }
    }
    if !read_any {
        return Err(bad(
            first_failure.unwrap_or_else(|| "no page could be fetched".into())
        ));
    }
    let mut x = c.finish(index);
    // a class page listed in the index but not fetched was reported by its URL already
    x.problems.extend(problems);
    x.stats.elapsed = start.elapsed();
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_and_names() {
        let u = Url::parse("http://127.0.0.1:8/docs/api/index.html").unwrap();
        let b = base_of(&u);
        assert_eq!(b.as_str(), "http://127.0.0.1:8/docs/api/");
        let p = |s: &str| relative(&b, &Url::parse(s).unwrap());
        assert_eq!(
            p("http://127.0.0.1:8/docs/api/dx/Box.html").as_deref(),
            Some("dx/Box.html")
        );
        assert_eq!(p("http://127.0.0.1:8/docs/other.html"), None);
        assert_eq!(p("http://127.0.0.1:9/docs/api/dx/Box.html"), None);
        assert_eq!(
            p("http://127.0.0.1:8/docs/api/").as_deref(),
            Some("index.html")
        );
        assert_eq!(
            p("http://127.0.0.1:8/docs/api/m/%5Broot%5D/-a/index.html").as_deref(),
            Some("m/[root]/-a/index.html")
        );
        assert_eq!(
            base_of(&Url::parse("http://h/docs/api").unwrap()).as_str(),
            "http://h/docs/api/"
        );
    }
}
