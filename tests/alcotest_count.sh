#!/usr/bin/env bash
# Runs `dune test` and turns alcotest's per-executable summaries into one
# "N passed, N failed" line.
set -o pipefail
out=$(dune test --force 2>&1); rc=$?
printf '%s\n' "$out"
run=$(grep -oE '[0-9]+ tests? run' <<<"$out" | awk '{s+=$1} END {print s+0}')
failed=$(grep -oE '[0-9]+ failures?!' <<<"$out" | awk '{s+=$1} END {print s+0}')
[ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "ocaml: $((run - failed)) passed, $failed failed"
exit $rc
