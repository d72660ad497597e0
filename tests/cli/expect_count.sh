#!/usr/bin/env bash
# Runs the expect cases (dune alias cli-expect) and reports one test per
# case: a case fails when its block differs from cases.expected.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
out=$(dune build -j 1 @tests/cli/cli-expect 2>&1); rc=$?
total=$(grep -c '^\$ ' tests/cli/cases.expected)
if [ "$rc" -eq 0 ]; then pass=$total; report cli-expect; exit; fi
printf '%s\n' "$out" | tail -n 60
actual=_build/default/tests/cli/cases.out
if [ -f "$actual" ]; then
  # Number the cases in both files and count the blocks that differ.
  split_cases() { awk '/^\$ /{n++} {print n "\t" $0}' "$1"; }
  failed=$(diff <(split_cases tests/cli/cases.expected) <(split_cases "$actual") | grep -E '^[<>] ' | cut -f1 | sed 's/^[<>] //' | sort -u | wc -l)
else
  failed=$total
fi
[ "$failed" -eq 0 ] && failed=1
pass=$((total - failed)) fail=$failed
report cli-expect "accept intended changes with: dune promote"
