#!/usr/bin/env bash
# Precision over whole rounds (issue #13's acceptance table): for each language and mode,
# synthesize every N-th program of a whole round of the embedded API (`thalia synth --stride
# N`: a sample spread evenly over the round, late members included), judge it with the
# language's default compiler in a warm server (`thalia check --server`, Java twins of the
# findings compiled by javac), and print `thalia report` for each cell.
#
#   scripts/precision.sh [STRIDE] [SEED] [OUT] [LANGS...]
#
# STRIDE defaults to 20 (about 3,000 programs per cell), SEED to 1, OUT to precision-out/,
# LANGS to "java kotlin scala scala2 groovy". Mismatches are in OUT/<lang>-<mode>/run/bugs and
# suspects/; list them in docs/findings.md. A benchmark, not a test: it takes hours on 2 cores.
set -euo pipefail
stride=${1:-20}
seed=${2:-1}
out=${3:-precision-out}
shift $(( $# < 3 ? $# : 3 ))
langs=${*:-java kotlin scala scala2 groovy}
thalia=${THALIA:-target/release/thalia}
[ -x "$thalia" ] || cargo build --release --quiet --bin thalia
mkdir -p "$out"
for lang in $langs; do
    for mode in well-typed ill-typed; do
        cell="$out/$lang-$mode"
        rm -rf "$cell"
        "$thalia" synth --lang "$lang" --mode "$mode" --seed "$seed" --stride "$stride" \
            --out "$cell/programs" 2>"$cell.synth.log" || { cat "$cell.synth.log"; exit 1; }
        "$thalia" check "$cell/programs" --server --out "$cell/run" >/dev/null 2>"$cell.check.log" \
            || { tail -5 "$cell.check.log"; exit 1; }
        echo "== $lang $mode (stride $stride, seed $seed)"
        "$thalia" report "$cell/run" | head -40
    done
done
