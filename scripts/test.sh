#!/usr/bin/env bash
# The test command (README; CI runs it through .ci/run): the habits CI enforces, then every
# test with every tool required. Needs cargo, a JDK (javac, jar) and Maven's configuration
# (thalia's resolver reads it to find Maven Central); it installs the pinned compilers itself,
# the JaCoCo jars into the Maven cache, Debian's chromium (apt-get, when missing), and a
# single-node Slurm (scripts/slurm-setup.sh: root or sudo, Debian's packages).
set -euo pipefail
cd "$(dirname "$0")/.."

# a test that would skip for a missing tool fails instead
export THALIA_REQUIRE_TOOLS=1

echo "== format, lints, docs"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

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

echo "== the JaCoCo agent and CLI in the Maven cache, for tests/batch.rs (served to it on 127.0.0.1)"
jacoco_out="$(mktemp -d)"
"$thalia" fetch org.jacoco:org.jacoco.agent:jar:runtime:0.8.15 org.jacoco:org.jacoco.cli:jar:nodeps:0.8.15 \
    --out "$jacoco_out" >/dev/null
rm -rf "$jacoco_out"

echo "== headless Chromium for tests/batch.rs's page test (Debian's package)"
if ! command -v chromium >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) ||
            echo "warning: chromium could not be installed; the page test fails under THALIA_REQUIRE_TOOLS=1"
    else
        (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) ||
            echo "warning: chromium could not be installed; the page test fails under THALIA_REQUIRE_TOOLS=1"
    fi
fi

echo "== a single-node Slurm for tests/online_slurm.rs"
bash scripts/slurm-setup.sh ||
    echo "warning: no Slurm here (the reason is above); tests/online_slurm.rs fails under THALIA_REQUIRE_TOOLS=1"

echo "== tests"
cargo test --workspace
