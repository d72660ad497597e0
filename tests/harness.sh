#!/usr/bin/env bash
# Runs each named make target as a test suite and adds up the results.
# Every suite's rule (tests/suites.mk) ends with tests/tap_count.sh, the one
# counter of the runners' TAP, whose closing line "NAME: N passed, N
# failed[, N skipped]" (NAME: the target less "test-") is the suite's count.
# A suite that ends without that line (a build it needs failed) counts as
# one failed test; so does one that fails while its line counts no failure.
set -u
cd "$(dirname "$0")/.."
mkdir -p _build/test-logs
total_pass=0 total_fail=0 total_skip=0 failed_suites=()
for suite in "$@"; do
  label=${suite#test-} log=_build/test-logs/$suite.log
  start=$SECONDS
  if make --no-print-directory "$suite" >"$log" 2>&1; then rc=0; else rc=$?; fi
  p=0 f=0 k=0
  line=$(grep -E "^$label: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?\$" "$log" | tail -n 1)
  if [ -n "$line" ]; then
    read -r p f k < <(sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$line")
    k=${k:-0}
  fi
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
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
