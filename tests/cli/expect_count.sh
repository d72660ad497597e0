#!/usr/bin/env bash
# Runs the expect cases (dune alias cli-expect) and reports one test per
# case, named by its command: a case fails when its block differs from
# cases.expected.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
out=$(dune build -j 1 @tests/cli/cli-expect 2>&1); rc=$?
expected=tests/cli/cases.expected actual=_build/default/tests/cli/cases.out
differing=
if [ "$rc" -ne 0 ]; then
  printf '%s\n' "$out" | tail -n 60 | sed 's/^/# /'
  # Number the cases in both files and list the blocks that differ (every
  # case, when the command's output is missing).
  split_cases() { awk '/^\$ /{n++} {print n "\t" $0}' "$1"; }
  if [ -f "$actual" ]; then
    differing=$(diff <(split_cases "$expected") <(split_cases "$actual") | grep -E '^[<>] ' | cut -f1 | sed 's/^[<>] //' | sort -u)
  else
    differing=$(seq "$(grep -c '^\$ ' "$expected")")
  fi
  [ -n "$differing" ] || ko "dune build @tests/cli/cli-expect failed, yet no case differs"
fi
number=0
while IFS= read -r command; do
  number=$((number + 1))
  if grep -qx "$number" <<<"$differing"; then ko "case $number: ${command:0:120}"; else ok "case $number: ${command:0:120}"; fi
done < <(grep '^\$ ' "$expected")
if [ "$rc" -eq 0 ]; then tap_end; else tap_end "accept intended changes with: dune promote"; fi
