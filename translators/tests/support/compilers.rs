//! Running the real compilers on translated programs, shared by the translators' compile
//! tests (`targets.rs`, `forms_kotlin_scala.rs`): scratch directories, each compiler's
//! classpath variable, main class and flags, and one process-mode compilation.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// the sibling module `support::require` (tests/support/require.rs)
use super::require;

/// A fresh, empty scratch directory under cargo's per-target temp dir.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        fs::remove_dir_all(&dir).expect("can clear the scratch dir");
    }
    fs::create_dir_all(&dir).expect("can create the scratch dir");
    dir
}

/// How to run one compiler in process mode.
pub struct Compiler {
    pub env: &'static str,
    pub main: &'static str,
    /// Arguments before `-d OUT FILES...`.
    pub args: &'static [&'static str],
}

pub fn compiler(lang: &str) -> Compiler {
    match lang {
        "kotlin" => Compiler {
            env: "THALIA_KOTLINC_CP",
            main: "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
            // kotlin-stdlib is on the compiler's own classpath; hand it to the program too.
            args: &["-no-stdlib", "-no-reflect", "-nowarn"],
        },
        "scala" => Compiler {
            env: "THALIA_SCALA3_CP",
            main: "dotty.tools.dotc.Main",
            args: &["-usejavacp", "-nowarn", "-color:never"],
        },
        "scala2" => Compiler {
            env: "THALIA_SCALA2_CP",
            main: "scala.tools.nsc.Main",
            args: &["-usejavacp", "-nowarn"],
        },
        "groovy" => Compiler {
            env: "THALIA_GROOVY_CP",
            main: "org.codehaus.groovy.tools.FileSystemCompiler",
            args: &["--encoding=UTF-8"],
        },
        _ => unreachable!("no compiler for {lang}"),
    }
}

/// The jar files of a classpath with `dir/*` wildcards expanded.
pub fn expand_classpath(cp: &str) -> Vec<PathBuf> {
    let mut jars = Vec::new();
    for entry in std::env::split_paths(cp) {
        if entry.file_name().is_some_and(|n| n == "*") {
            let dir = entry.parent().unwrap_or(Path::new("."));
            let mut found: Vec<PathBuf> = fs::read_dir(dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|e| e == "jar"))
                        .collect()
                })
                .unwrap_or_default();
            found.sort();
            jars.extend(found);
        } else {
            jars.push(entry);
        }
    }
    jars
}

/// Compiles `files` for `lang` into `out`, or `None` if the compiler is not configured.
pub fn compile(lang: &str, files: &[PathBuf], out: &Path) -> Option<Output> {
    let c = compiler(lang);
    let Some(cp) = std::env::var_os(c.env) else {
        require::missing_tool(lang, &format!("set {} to the compiler's classpath", c.env));
        return None;
    };
    let cp = cp.to_string_lossy().into_owned();
    let mut cmd = Command::new("java");
    cmd.arg("-Xss8m")
        .arg("-cp")
        .arg(&cp)
        .arg(c.main)
        .args(c.args);
    if lang == "kotlin" {
        let stdlib = expand_classpath(&cp)
            .into_iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("kotlin-stdlib-"))
            })
            .expect("THALIA_KOTLINC_CP holds kotlin-stdlib");
        cmd.arg("-classpath").arg(stdlib);
    }
    // groovyc's options take `-d=DIR`; the others a separate argument.
    if lang == "groovy" {
        cmd.arg(format!("-d={}", out.display()));
    } else {
        cmd.arg("-d").arg(out);
    }
    cmd.args(files);
    match cmd.output() {
        Ok(o) => Some(o),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            require::missing_tool(lang, "java not found on PATH");
            None
        }
        Err(e) => panic!("cannot run java: {e}"),
    }
}
