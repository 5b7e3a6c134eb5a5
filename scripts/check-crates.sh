#!/usr/bin/env bash
# Checks the workspace's crates against ARCHITECTURE.md: each crate under crates/ has a section
# whose "Depends only on:" line lists exactly its direct (normal) dependencies and whose "Never
# depends on:" line names packages that must not appear anywhere in its dependency tree.
# Fails, naming the crate and the package, when one does not hold. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

doc=ARCHITECTURE.md
failed=0
# The packages of a `cargo tree --prefix none` listing, one name a line, without the crate itself.
names() { sed 's/ v[0-9].*//' | sort -u; }

for manifest in crates/*/Cargo.toml; do
    crate="$(sed -n 's/^name = "\(.*\)"$/\1/p' "$manifest" | head -n 1)"
    section="$(awk -v head="## \`$crate\`" 'index($0, head) == 1 { on = 1; next } /^## / { on = 0 } on' "$doc")"
    only="$(sed -n 's/^Depends only on: \(.*\)\.$/\1/p' <<<"$section")"
    never="$(sed -n 's/^Never depends on: \(.*\)\.$/\1/p' <<<"$section")"
    if [ -z "$only" ] || [ -z "$never" ]; then
        echo "check-crates: $doc has no section for $crate with 'Depends only on:' and 'Never depends on:' lines" >&2
        failed=1
        continue
    fi
    declared="$(tr ',' '\n' <<<"$only" | sed 's/^ *//; s/ *$//' | sort -u)"
    direct="$(cargo tree --locked -p "$crate" -e normal --depth 1 --prefix none | tail -n +2 | names)"
    for extra in $(comm -13 <(echo "$declared") <(echo "$direct")); do
        echo "check-crates: $crate depends on $extra, which $doc does not list for it" >&2
        failed=1
    done
    for missing in $(comm -23 <(echo "$declared") <(echo "$direct")); do
        echo "check-crates: $doc lists $missing for $crate, which does not depend on it" >&2
        failed=1
    done
    all="$(cargo tree --locked -p "$crate" -e normal --prefix none | names)"
    for forbidden in $(tr ',' ' ' <<<"$never"); do
        if grep -qx "$forbidden" <<<"$all"; then
            path="$(cargo tree --locked -p "$crate" -e normal -i "$forbidden" --prefix none 2>/dev/null | names | tr '\n' ' ')"
            echo "check-crates: $crate reaches $forbidden, which $doc forbids it (through: $path)" >&2
            failed=1
        fi
    done
done
if [ "$failed" -ne 0 ]; then
    exit 1
fi
echo "check-crates: every crate under crates/ depends only on what $doc lists"
