//! A Maven-layout repository made in a test: small Java libraries compiled with javac and
//! published (jar and POM) under a directory served over HTTP on 127.0.0.1. Shared by
//! `tests/campaign/batch.rs` and `tests/batch_library.rs`.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use super::fake::real_javac;
use super::require;

/// The sources of the two good libraries: `g:alpha:1.0` and `g:beta:2.0`.
pub const ALPHA: &[(&str, &str)] = &[
    (
        "alpha/Box.java",
        "package alpha;\n\npublic class Box<T> {\n    private final T value;\n\n    \
         public Box(T value) { this.value = value; }\n\n    public T get() { return value; }\n\n    \
         public <R> Box<R> map(java.util.function.Function<? super T, ? extends R> f) { return new Box<>(f.apply(value)); }\n\n    \
         public static <T> Box<T> of(T value) { return new Box<>(value); }\n\n    \
         public boolean same(Box<? extends T> other) { return other.value == value; }\n}\n",
    ),
    (
        "alpha/Pair.java",
        "package alpha;\n\npublic class Pair<A, B> {\n    private final A a;\n    private final B b;\n\n    \
         public Pair(A a, B b) { this.a = a; this.b = b; }\n\n    public A first() { return a; }\n\n    \
         public B second() { return b; }\n\n    public Pair<B, A> swap() { return new Pair<>(b, a); }\n\n    \
         public static <X> Pair<X, X> twice(X x) { return new Pair<>(x, x); }\n}\n",
    ),
];

pub const BETA: &[(&str, &str)] = &[
    ("beta/Node.java", "package beta;\n\npublic class Node {\n    public Node() {}\n\n    public Node link(Node other) { return other; }\n\n    public static Node root() { return new Node(); }\n\n    public Tree<Node> tree() { return new Tree<>(this); }\n}\n"),
    ("beta/Tree.java", "package beta;\n\npublic class Tree<E> {\n    private final E top;\n\n    public Tree(E top) { this.top = top; }\n\n    public E top() { return top; }\n\n    public <F> Tree<F> graft(F f) { return new Tree<>(f); }\n\n    public Tree<E> with(Tree<? extends E> other) { return this; }\n}\n"),
];

/// Whether javac and jar run.
pub fn have_jdk(test: &str) -> bool {
    let ok = Process::new(real_javac())
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        require::missing_tool(test, "javac not found");
    }
    ok
}

/// Compiles `sources` and publishes them as `g:artifact:version` (jar and POM) under `repo`.
pub fn publish(work: &Path, repo: &Path, artifact: &str, version: &str, sources: &[(&str, &str)]) {
    let src = work.join(format!("src-{artifact}"));
    let cls = work.join(format!("cls-{artifact}"));
    let mut files = Vec::new();
    for (name, text) in sources {
        let p = src.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write source");
        files.push(p);
    }
    let ok = Process::new(real_javac())
        .args(["--release", "17", "-d"])
        .arg(&cls)
        .args(&files)
        .status()
        .expect("javac runs");
    assert!(ok.success(), "javac failed on {artifact}");
    let vdir = repo.join("g").join(artifact).join(version);
    std::fs::create_dir_all(&vdir).expect("mkdir");
    let jar = real_javac().parent().expect("the JDK's bin").join("jar");
    let ok = Process::new(jar)
        .arg("--create")
        .arg("--file")
        .arg(vdir.join(format!("{artifact}-{version}.jar")))
        .arg("-C")
        .arg(&cls)
        .arg(".")
        .status()
        .expect("jar runs");
    assert!(ok.success(), "jar failed on {artifact}");
    pom(repo, artifact, version);
}

/// Writes the POM of `g:artifact:version`.
pub fn pom(repo: &Path, artifact: &str, version: &str) {
    let vdir = repo.join("g").join(artifact).join(version);
    std::fs::create_dir_all(&vdir).expect("mkdir");
    std::fs::write(
        vdir.join(format!("{artifact}-{version}.pom")),
        format!(
            "<?xml version=\"1.0\"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  \
             <groupId>g</groupId>\n  <artifactId>{artifact}</artifactId>\n  \
             <version>{version}</version>\n</project>\n"
        ),
    )
    .expect("write pom");
}

/// Serves `root` over HTTP on 127.0.0.1; returns its URL.
pub fn serve(root: PathBuf) -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", server.server_addr());
    std::thread::spawn(move || {
        for rq in server.incoming_requests() {
            let rel = rq.url().trim_start_matches('/').to_string();
            let path = root.join(&rel);
            let _ = if rel.split('/').any(|c| c == "..") || !path.is_file() {
                rq.respond(tiny_http::Response::empty(404))
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                rq.respond(tiny_http::Response::from_data(bytes))
            };
        }
    });
    url
}
