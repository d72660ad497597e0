#!/usr/bin/env bash
# Runs each named make target as a test suite and adds up the results.
# A suite that prints "N passed, N failed[, N skipped]" counts as those
# tests; one that prints no such line counts as one test, passed or failed
# by its exit code.
set -u
cd "$(dirname "$0")/.."
mkdir -p _build/test-logs
total_pass=0 total_fail=0 total_skip=0 failed_suites=()
for suite in "$@"; do
  log=_build/test-logs/$suite.log
  start=$SECONDS
  if make --no-print-directory "$suite" >"$log" 2>&1; then rc=0; else rc=$?; fi
  line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
    f=$(sed -E 's/^([A-Za-z_-]+: )?[0-9]+ passed, ([0-9]+) failed.*/\2/' <<<"$line")
    k=$(grep -oE 'failed, [0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+' || echo 0)
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  elif [ "$rc" -eq 0 ]; then p=1 f=0 k=0; else p=0 f=1 k=0; fi
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + k))
  if [ "$rc" -eq 0 ]; then status=ok; else status=FAILED; failed_suites+=("$suite"); fi
  printf '%-22s %-6s %5d passed %5d failed %3d skipped  %4ds\n' "$suite" "$status" "$p" "$f" "$k" $((SECONDS - start))
  if [ "$rc" -ne 0 ]; then echo "---- last lines of $log"; tail -n 40 "$log"; echo "----"; fi
done
[ ${#failed_suites[@]} -gt 0 ] && echo "failed suites: ${failed_suites[*]}"
if [ "$total_skip" -gt 0 ]; then
  echo "$total_pass passed, $total_fail failed, $total_skip skipped"
else
  echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]
