#!/usr/bin/env bash
# The test command (README; CI runs it through .ci/run). Three lanes:
#
#   bash scripts/test.sh            full, what CI runs: every test of every package, every tool
#                                   required (a test whose tool is missing fails). Installs into
#                                   the user's cache the pinned compilers (~/.cache/thalia/
#                                   toolchains) and the JaCoCo jars (the Maven cache); as root or
#                                   with sudo, Debian's chromium and bubblewrap (--no-install-recommends) and a
#                                   single-node Slurm whose daemons (munged, slurmctld, slurmd) it
#                                   starts and leaves running: stop them with
#                                   `bash scripts/slurm-setup.sh --stop`.
#   bash scripts/test.sh --offline  no network, no compilers but the JDK's javac, no root: the
#                                   lints and every test binary but the online one; tests whose
#                                   tool is missing say so and skip. Installs nothing.
#   bash scripts/test.sh --fast     everyday work: the format check, the unit tests and the quick
#                                   offline binaries (cli, translators), in a few minutes.
#
# Every lane first refuses a tracked file that names a path outside the repository
# (scripts/check-outside-paths.sh), before building anything. Needs cargo, a JDK (javac, jar)
# and, for the full lane, Maven's configuration (thalia's resolver reads it to find Maven
# Central).
set -euo pipefail
cd "$(dirname "$0")/.."
# A one-off build gains nothing from incremental caches and they double target/'s size (a clean
# full lane fills target/ with every test binary); set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

lane=full
case "${1:-}" in
    "") ;;
    --offline) lane=offline ;;
    --fast) lane=fast ;;
    -h | --help)
        sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: bash scripts/test.sh [--offline | --fast]" >&2
        exit 2
        ;;
esac

case "$lane" in
    full) echo "== scripts/test.sh (full lane): installs the pinned compilers and JaCoCo into the user's cache, Debian's chromium and bubblewrap (--no-install-recommends) and a single-node Slurm, and starts munged, slurmctld and slurmd (stop them with: bash scripts/slurm-setup.sh --stop); --offline installs nothing" ;;
    offline) echo "== scripts/test.sh --offline: installs nothing, starts nothing; tests that need the network, a compiler other than javac, or root are not run or skip" ;;
    fast) echo "== scripts/test.sh --fast: installs nothing; the format check, unit tests and quick offline tests" ;;
esac

echo "== no tracked file names a path outside the repository"
bash scripts/check-outside-paths.sh

if [ "$lane" = fast ]; then
    cargo fmt --all -- --check
    cargo test --workspace --no-fail-fast --lib --bins --test cli --test translators
    exit 0
fi

echo "== format, lints, docs"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

if [ "$lane" = offline ]; then
    # the compilers' classpaths unset: their tests skip with a message
    unset THALIA_KOTLINC_CP THALIA_SCALA3_CP THALIA_SCALA2_CP THALIA_GROOVY_CP THALIA_REQUIRE_TOOLS
    echo "== tests (every binary but tests/online)"
    cargo test --workspace --no-fail-fast --doc
    cargo test --workspace --no-fail-fast --lib --bins --test cli --test synth --test campaign --test extract \
        --test translators
    exit 0
fi

# a test that would skip for a missing tool fails instead
export THALIA_REQUIRE_TOOLS=1

echo "== the pinned compilers for the translators' golden tests"
cargo build --quiet --bin thalia
thalia=target/debug/thalia
mapfile -t pinned < <(grep -v '^#' tests/support/pinned-toolchains.txt | grep -v '^$')
"$thalia" toolchain install "${pinned[@]}"
for spec in "${pinned[@]}"; do
    case "${spec%@*}" in
        kotlin) export THALIA_KOTLINC_CP="$("$thalia" toolchain classpath "$spec")" ;;
        scala3) export THALIA_SCALA3_CP="$("$thalia" toolchain classpath "$spec")" ;;
        scala2) export THALIA_SCALA2_CP="$("$thalia" toolchain classpath "$spec")" ;;
        groovy) export THALIA_GROOVY_CP="$("$thalia" toolchain classpath "$spec")" ;;
    esac
done

echo "== the JaCoCo agent and CLI in the Maven cache, for tests/campaign/batch.rs (served to it on 127.0.0.1)"
jacoco_out="$(mktemp -d)"
"$thalia" fetch org.jacoco:org.jacoco.agent:jar:runtime:0.8.15 org.jacoco:org.jacoco.cli:jar:nodeps:0.8.15 \
    --out "$jacoco_out" >/dev/null
rm -rf "$jacoco_out"

echo "== headless Chromium for tests/campaign/batch.rs's page test (Debian's package, without recommends)"
if ! command -v chromium >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        as_root() { "$@"; }
    else
        as_root() { sudo "$@"; }
    fi
    (as_root apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium) ||
        echo "warning: chromium could not be installed; the page test fails under THALIA_REQUIRE_TOOLS=1"
fi

echo "== bubblewrap, the sandbox of tests/campaign/run_programs.rs (Debian's package)"
if ! command -v bwrap >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        as_root() { "$@"; }
    else
        as_root() { sudo "$@"; }
    fi
    (as_root apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap) ||
        echo "warning: bubblewrap could not be installed; the run tests fail under THALIA_REQUIRE_TOOLS=1"
fi

echo "== a single-node Slurm for tests/online/online_slurm.rs (stop it with: bash scripts/slurm-setup.sh --stop)"
bash scripts/slurm-setup.sh ||
    echo "warning: no Slurm here (the reason is above); tests/online/online_slurm.rs fails under THALIA_REQUIRE_TOOLS=1"

echo "== tests"
cargo test --workspace --no-fail-fast
