#!/usr/bin/env bash
# Fails when a tracked file names a path outside the repository: the repository stands alone,
# so tests and docs may not reach into a folder beside the clone (the project's shared folder) or into the
# machine it was written on (`/work/...`). Run by scripts/test.sh before it builds anything.
# Usage: bash scripts/check-outside-paths.sh [FILE...]   (default: every tracked file)
set -euo pipefail
cd "$(dirname "$0")/.."

# A relative path that climbs out of the clone to a sibling folder, or an absolute path on the
# machine the code was written on. Hostile-input tests build traversal paths (`../../victim`)
# from parts, so they do not match.
pattern='(\.\./)+shared\b|(^|[^A-Za-z0-9_.~-])/work/'

if [ "$#" -gt 0 ]; then
    files=("$@")
else
    mapfile -d '' -t files < <(git ls-files -z)
fi
hits="$(grep -nIE "$pattern" -- "${files[@]}" 2>/dev/null | grep -v '^scripts/check-outside-paths.sh:' || true)"
if [ -n "$hits" ]; then
    echo "error: these tracked files name a path outside the repository (copy what they need into it):" >&2
    echo "$hits" >&2
    exit 1
fi
