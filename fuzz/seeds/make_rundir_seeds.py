#!/usr/bin/env python3
"""Writes the raw seed corpora of the run-directory fuzz targets (before `cargo fuzz cmin`):
`results_line`, `finding_json`, `program_ir`, `summary_json`.

Run from the repository root after `cargo build`:
    python3 fuzz/seeds/make_rundir_seeds.py OUT_DIR SAMPLE_API_DIR
(SAMPLE_API_DIR: the Java API of the shared JSON sample, as `tests/support/fake.rs` finds it).

Campaigns with fake compilers (shell scripts that reject every program whose source matches a
pattern; no JVM runs) in Java, Kotlin, Groovy and Scala 3, one with another compiler
(`--against`) for differential findings, give real `results.jsonl` lines, `finding.json` and
`program.ir.json` files; `thalia synth` gives `summary.json` files in each language and mode.
Hand-made hostile inputs are added: signatures and program files that are paths. Paths of
this machine in the files (the sample's, the temporary directory's) are replaced by
`sample-api` and `/run/`.
"""
import hashlib, json, os, re, subprocess, sys, tempfile

OUT = sys.argv[1]
SAMPLE = sys.argv[2]
THALIA = os.path.abspath("target/debug/thalia")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    for path in {SAMPLE, os.path.abspath(SAMPLE)}:
        data = data.replace(path.encode(), b"sample-api")
    data = re.sub(rb"/tmp/tmp[A-Za-z0-9_]+/", b"/run/", data)
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def fake(toolchains, tool, version, main_class, ext, pattern):
    d = os.path.join(toolchains, tool, version)
    os.makedirs(d, exist_ok=True)
    script = os.path.join(d, f"fake-{tool}.sh")
    with open(script, "w") as f:
        f.write(
            "#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *." + ext + ")\n"
            f"      l=$(grep -n -E -- '{pattern}' \"$a\" | head -1 | cut -d: -f1)\n"
            "      if [ -n \"$l\" ]; then echo \"$a:$l: error: injected rejection\"; rc=1; fi\n"
            "      ;;\n  esac\ndone\nexit $rc\n"
        )
    os.chmod(script, 0o755)
    tc = {"tool": tool, "version": version, "classpath": [], "runtime": [],
          "main_class": main_class, "java": script, "coordinate": None}
    with open(os.path.join(d, "toolchain.json"), "w") as f:
        json.dump(tc, f)


def run(env, *args):
    subprocess.run([THALIA, *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def collect(run_dir):
    for dp, _, fs in os.walk(run_dir):
        for f in fs:
            p = os.path.join(dp, f)
            if f == "results.jsonl":
                lines = open(p, "rb").read().splitlines(keepends=True)
                for line in lines[:40]:
                    put("results_line", line)
                put("results_line", b"".join(lines[:5]))
            elif f == "finding.json":
                put("finding_json", open(p, "rb").read())
            elif f == "program.ir.json":
                put("program_ir", open(p, "rb").read())
            elif f == "summary.json":
                put("summary_json", open(p, "rb").read())


with tempfile.TemporaryDirectory() as tmp:
    tc = os.path.join(tmp, "toolchains")
    env = dict(os.environ, THALIA_TOOLCHAINS=tc)
    langs = [("java", "javac", "com.sun.tools.javac.Main", "java"),
             ("kotlin", "kotlin", "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler", "kt"),
             ("groovy", "groovy", "org.codehaus.groovy.tools.FileSystemCompiler", "groovy"),
             ("scala", "scala3", "dotty.tools.dotc.Main", "scala")]
    for lang, tool, main, ext in langs:
        fake(tc, tool, "fake", main, ext, "List|Map")
        fake(tc, tool, "other", main, ext, "Map|Set")
        out = os.path.join(tmp, f"run-{lang}")
        run(env, "run", "--lang", lang, "--seed", "5", "--budget", "150", "--compiler",
            f"{tool}@fake", "--against", f"{tool}@other", "--no-twin", "--no-reduce",
            "-j", "1", "--api", SAMPLE, "--out", out)
        collect(out)
        for mode in ["well-typed", "ill-typed"]:
            synth = os.path.join(tmp, f"synth-{lang}-{mode}")
            run(env, "synth", "--lang", lang, "--mode", mode, "--seed", "3", "-n", "5",
                "--api", SAMPLE, "--out", synth)
            collect(synth)

# hostile: names that are paths, broken and extreme values
line = {"key": "p1", "id": "p1", "mode": "well-typed", "round": 0, "member": "m()",
        "file": "Test_p1.java", "expected": "accept", "verdict": "rejected",
        "diagnostics": [], "matches": False, "seconds": 0.5, "at": 1.0,
        "finding": {"kind": "unexpected-rejection", "signature": "../../../victim",
                    "first": True}}
for sig in ["../../../victim", "/etc", "a/b/c", "", ".", "groovy@4.0.1/sig", "a\\b"]:
    line["finding"]["signature"] = sig
    put("results_line", json.dumps(line) + "\n")
line["finding"] = None
line["matches"] = True
line["differential"] = [{"against": "x@1", "verdict": "accepted", "kind": "regression",
                         "finding": {"kind": "crash", "signature": "x@1/../../y",
                                     "first": False}}]
put("results_line", json.dumps(line) + "\n")
print("seeds in", OUT)
