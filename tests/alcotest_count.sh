#!/usr/bin/env bash
# Runs the alcotest executables of dune target $1 (default: `dune test`)
# and prints one closing line for them, labelled $2 (default: ocaml).
set -o pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
if [ -n "${1:-}" ]; then out=$(dune build -j 1 --force "$1" 2>&1); else out=$(dune test -j 1 --force 2>&1); fi
rc=$?
printf '%s\n' "$out"
count_alcotest "$out" "$rc"
report "${2:-ocaml}"
