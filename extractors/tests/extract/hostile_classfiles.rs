//! The bytecode extractor against hostile class files and jars, all assembled here: a generic
//! signature nested 5,000 deep, a broken descriptor constant, zip entries that lie about their
//! size or are too large, class names that could be paths or are too long for a file name, a
//! FIFO given as a jar, and special and oversized files in a class directory.

use crate::support::classfile;

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use classfile::{find, jar_of, ClassSpec};
use thalia_extractors::bytecode::class::MAX_CLASS_FILE_BYTES;
use thalia_extractors::bytecode::signature::MAX_SIGNATURE_DEPTH;
use thalia_extractors::bytecode::{
    extract_class, extract_jar, read_path, ExtractOptions, Extraction,
};

fn good_class() -> Vec<u8> {
    ClassSpec::new("p/Good")
        .method("take", "(Ljava/lang/String;)Ljava/util/List;", None)
        .bytes()
}

/// Runs `f` on a thread and fails the test if it takes longer than `secs` (a hang must
/// fail, not block the run).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("did not finish within {secs} s"))
}

fn extract_bytes(dir: &Path, name: &str, jar: &[u8]) -> Extraction {
    let path = dir.join(name);
    std::fs::write(&path, jar).expect("write jar");
    extract_jar(&path, &ExtractOptions::default()).expect("the jar opens")
}

fn doc_names(x: &Extraction) -> Vec<String> {
    x.docs.iter().map(|d| d.name.clone()).collect()
}

/// A peak of this process's memory (Linux, `VmHWM` resident or `VmPeak` virtual), in bytes.
fn peak(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn signature_nested_5000_deep_is_a_problem_for_its_member_not_a_crash() {
    // (a Utf8 constant holds at most 65535 bytes: short class names)
    let deep = format!("{}Lp/S;{}", "Lp/L<".repeat(5000), ">;".repeat(5000));
    assert!(deep.len() < 65535);
    let method_sig = format!("(){deep}");
    let class = ClassSpec::new("p/Deep")
        .method("deep", "()Ljava/util/List;", Some(&method_sig))
        .method("fine", "()I", None)
        .field("deepField", "Ljava/util/List;", Some(&deep))
        .bytes();
    let dir = tempfile::tempdir().expect("temp dir");
    let jar = jar_of(&[("p/Deep.class", class), ("p/Good.class", good_class())]);
    // the test thread's stack is the default 2 MiB: recursion 5,000 deep would overflow it
    let x = extract_bytes(dir.path(), "deep.jar", &jar);
    assert_eq!(doc_names(&x), ["p.Deep", "p.Good"]);
    let problems: Vec<String> = x.problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    for (p, member) in problems.iter().zip(["method deep", "field deepField"]) {
        assert!(p.contains("deep.jar!p/Deep.class"), "{p}");
        assert!(p.contains(member), "{p}");
        assert!(p.contains("MAX_SIGNATURE_DEPTH"), "{p}");
    }
    // the member is kept with its descriptor's type
    let deep_doc = &x.docs[0];
    let json = serde_json::to_string(deep_doc).expect("json");
    assert!(
        json.contains("\"deep\"") && json.contains("\"java.util.List\""),
        "{json}"
    );
    // a signature just under the limit still parses
    let ok = format!(
        "{}TT;{}",
        "Ljava/util/List<".repeat(MAX_SIGNATURE_DEPTH - 1),
        ">;".repeat(MAX_SIGNATURE_DEPTH - 1)
    );
    let c = ClassSpec::new("p/Ok")
        .field("f", "Ljava/util/List;", Some(&ok))
        .bytes();
    let raw = extract_class(&c, "p/Ok.class")
        .expect("parses")
        .expect("a class");
    assert!(raw.warnings.is_empty(), "{:?}", raw.warnings);
}

#[test]
fn a_broken_descriptor_constant_is_a_malformed_class_not_a_panic() {
    // The descriptor of an EnclosingMethod's NameAndType, turned into invalid UTF-8 by one
    // byte: the class-file parser panics on it unless the constant pool is checked first.
    let class = ClassSpec::new("p/Local")
        .enclosed_in("run", "()Ljava/lang/Object;")
        .bytes();
    let at = find(&class, b"()Ljava/lang/Object;").expect("descriptor constant");
    let mut broken = class.clone();
    broken[at + 3] = 0xFF;
    let err = extract_class(&broken, "p/Local.class")
        .expect_err("malformed")
        .to_string();
    assert!(
        err.starts_with("p/Local.class: malformed class file"),
        "{err}"
    );
    assert!(err.contains("not valid modified UTF-8"), "{err}");

    // in a jar, extraction goes on with the other classes
    let dir = tempfile::tempdir().expect("temp dir");
    let jar = jar_of(&[("p/Local.class", broken), ("p/Good.class", good_class())]);
    let x = extract_bytes(dir.path(), "broken.jar", &jar);
    assert_eq!(doc_names(&x), ["p.Good"]);
    assert_eq!(x.problems.len(), 1, "{:?}", x.problems);
    assert_eq!(x.problems[0].entry, "p/Local.class");

    // every single-byte change of the class file gives a result, never a panic
    for i in 8..class.len() {
        for b in [
            0x00, 0x01, 0x7F, 0x80, 0xC0, 0xED, 0xFF, b'(', b')', b';', b'[', b'L',
        ] {
            let mut bytes = class.clone();
            bytes[i] = b;
            if let Err(e) = extract_class(&bytes, "x.class") {
                let e = e.to_string();
                assert!(!e.contains("parser failed"), "byte {i} = {b:#x}: {e}");
            }
        }
    }
}

/// Sets the uncompressed size of every entry of a stored zip (local and central headers).
fn lie_about_sizes(zip: &mut [u8], size: u32) {
    let mut i = 0;
    while i + 4 <= zip.len() {
        match &zip[i..i + 4] {
            [0x50, 0x4B, 0x03, 0x04] => zip[i + 22..i + 26].copy_from_slice(&size.to_le_bytes()),
            [0x50, 0x4B, 0x01, 0x02] => zip[i + 24..i + 28].copy_from_slice(&size.to_le_bytes()),
            _ => {}
        }
        i += 1;
    }
}

#[test]
fn a_zip_entry_declaring_4_gib_is_not_allocated_up_front() {
    let dir = tempfile::tempdir().expect("temp dir");
    let other = ClassSpec::new("p/Other").method("m", "()V", None).bytes();
    let mut jar = jar_of(&[("p/Good.class", good_class()), ("p/Other.class", other)]);
    lie_about_sizes(&mut jar, 0xFFFF_FFF0);
    let virtual_before = peak("VmPeak:");
    let x = within(30, move || {
        let path = dir.path().join("liar.jar");
        std::fs::write(&path, &jar).expect("write");
        extract_jar(&path, &ExtractOptions::default())
    });
    // the entries hold their real bytes; whatever the zip reader says of the lie, nothing
    // near 4 GiB was allocated
    match x {
        Ok(x) => assert_eq!(x.docs.len() + x.problems.len(), 2, "{x:?}"),
        Err(e) => assert!(e.to_string().contains("liar.jar"), "{e}"),
    }
    // a buffer reserved from the declared size would raise the virtual peak by 4 GiB even
    // if never touched
    if let (Some(before), Some(after)) = (virtual_before, peak("VmPeak:")) {
        assert!(
            after - before < 2 << 30,
            "virtual memory peak grew by {} bytes",
            after - before
        );
    }
    if let Some(resident) = peak("VmHWM:") {
        assert!(resident < 1 << 30, "peak resident memory {resident} bytes");
    }
}

#[test]
fn a_class_entry_larger_than_the_limit_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut huge = good_class();
    huge.resize(MAX_CLASS_FILE_BYTES as usize + 4096, 0);
    let jar = jar_of(&[("p/Huge.class", huge), ("p/Good.class", good_class())]);
    let x = extract_bytes(dir.path(), "huge.jar", &jar);
    assert_eq!(doc_names(&x), ["p.Good"]);
    assert_eq!(x.problems.len(), 1, "{:?}", x.problems);
    let p = x.problems[0].to_string();
    assert!(p.contains("huge.jar!p/Huge.class"), "{p}");
    assert!(p.contains("MAX_CLASS_FILE_BYTES"), "{p}");
}

#[test]
fn class_names_that_could_be_paths_are_malformed() {
    for name in ["p/evil\u{1}", "p\\..\\..\\evil"] {
        let class = ClassSpec::new(name).method("m", "()V", None).bytes();
        let err = extract_class(&class, "e.class")
            .expect_err(name)
            .to_string();
        assert!(err.starts_with("e.class: malformed class file"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_given_as_a_jar_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe.jar");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("SKIP: mkfifo not available");
        return;
    }
    let err = within(10, move || read_path(&fifo).map(|_| ()))
        .expect_err("a FIFO is not a jar")
        .to_string();
    assert!(
        err.contains("pipe.jar") && err.contains("not a regular file"),
        "{err}"
    );
}

/// Makes a FIFO (`mkfifo`, which every Unix has).
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(
        made.expect("run mkfifo").success(),
        "mkfifo {}",
        path.display()
    );
}

/// A class directory holding a FIFO `F.class`, a `Zero.class` linked to `/dev/zero` and a link
/// to its own parent (issue 34): the walk ends at once, each special file is a problem naming
/// it, a link to a regular class file is followed and the other classes are extracted.
#[cfg(unix)]
#[test]
fn special_files_in_a_class_directory_are_named_and_skipped() {
    use std::os::unix::fs::symlink;
    let base = tempfile::tempdir().expect("temp dir");
    let dir = base.path().join("classes");
    std::fs::create_dir_all(dir.join("p")).expect("mkdir");
    std::fs::write(dir.join("p/Good.class"), good_class()).expect("write");
    let outside = base.path().join("Other.class");
    let other = ClassSpec::new("p/Other").method("m", "()V", None).bytes();
    std::fs::write(&outside, other).expect("write");
    symlink(&outside, dir.join("p/Other.class")).expect("symlink");
    mkfifo(&dir.join("F.class"));
    symlink("/dev/zero", dir.join("Zero.class")).expect("symlink");
    symlink(&dir, dir.join("p/loop")).expect("symlink");
    let x = within(20, move || {
        thalia_extractors::bytecode::extract_paths(&[dir.as_path()], &ExtractOptions::default())
    })
    .expect("the directory is read");
    assert_eq!(doc_names(&x), ["p.Good", "p.Other"]);
    let problems: Vec<String> = x.problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems[0].contains("F.class") && problems[0].contains("not a regular file (a FIFO)"),
        "{problems:#?}"
    );
    assert!(
        problems[1].contains("Zero.class")
            && problems[1].contains("not a regular file (a character device)"),
        "{problems:#?}"
    );
}

/// A class file in a directory larger than the limit is a problem naming it, read no further.
#[test]
fn a_class_file_in_a_directory_larger_than_the_limit_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("Good.class"), good_class()).expect("write");
    let huge = std::fs::File::create(dir.path().join("Huge.class")).expect("create");
    // sparse: no disk is used
    huge.set_len(MAX_CLASS_FILE_BYTES + 1).expect("set_len");
    let x = thalia_extractors::bytecode::extract_paths(&[dir.path()], &ExtractOptions::default())
        .expect("the directory is read");
    assert_eq!(doc_names(&x), ["p.Good"]);
    assert_eq!(x.problems.len(), 1, "{:?}", x.problems);
    let p = x.problems[0].to_string();
    assert!(
        p.contains("Huge.class") && p.contains("MAX_CLASS_FILE_BYTES"),
        "{p}"
    );
}

/// A class whose name is too long for a file name (600 bytes, in a jar built here) is written
/// under a cut name ending in a hash and reads back whole; so do two such names that share
/// their start.
#[test]
fn a_class_name_too_long_for_a_file_name_is_written_under_a_hashed_name() {
    use thalia_extractors::io::{class_name_of_stem, MAX_FILE_NAME_BYTES};
    let dir = tempfile::tempdir().expect("temp dir");
    let long = format!("p/{}", "Operator".repeat(75));
    let jar = jar_of(&[
        (
            &format!("{long}A.class"),
            ClassSpec::new(&format!("{long}A"))
                .method("m", "()V", None)
                .bytes(),
        ),
        (
            &format!("{long}B.class"),
            ClassSpec::new(&format!("{long}B"))
                .method("m", "()V", None)
                .bytes(),
        ),
        ("p/Good.class", good_class()),
    ]);
    let x = extract_bytes(dir.path(), "long.jar", &jar);
    assert_eq!(x.docs.len(), 3, "{:?}", x.problems);
    let out = dir.path().join("api");
    thalia_extractors::write_class_docs(&out, &x.docs).expect("every class is written");
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    for f in &files {
        assert!(f.len() <= MAX_FILE_NAME_BYTES, "{f}");
    }
    assert_eq!(files[0], "p.Good.json");
    assert!(
        files[1].contains("%%") && files[2].contains("%%"),
        "{files:?}"
    );
    assert_eq!(class_name_of_stem(files[1].trim_end_matches(".json")), None);
    let (docs, errors) = thalia_extractors::read_api_dir(&out);
    assert!(errors.is_empty(), "{errors:?}");
    let mut names: Vec<String> = docs.into_iter().map(|(_, d)| d.name).collect();
    names.sort();
    let dotted = long.replace('/', ".");
    assert_eq!(
        names,
        [
            "p.Good".to_string(),
            format!("{dotted}A"),
            format!("{dotted}B")
        ]
    );
}
