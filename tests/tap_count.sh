#!/usr/bin/env bash
# The one counter of test results: runs COMMAND, passes its output through,
# counts the TAP it prints and closes with "LABEL: N passed, N failed[, N
# skipped]"; exits non-zero when anything failed.
#   tests/tap_count.sh LABEL COMMAND [ARG...]
#
# The protocol (TAP 13): a runner prints one or more documents, each a
# "TAP version 13" line, its results "ok N - what", "not ok N - what" or
# "ok N - what # SKIP why", and a plan "1..N" before or after them.  Other
# lines are output for people and are not counted.  A result without a
# number, or a document without its header, is still counted.  So that a
# runner that dies cannot vanish from the count:
#   - a document that ends (next header, or end of output) without a plan
#     counts one more failure;
#   - a leading plan counts each planned result never printed as failed;
#   - "Bail out!" counts one failure;
#   - COMMAND exiting non-zero with no failure counted is one failure, and
#     so is a command that printed no result at all.
set -u
label=$1
shift
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
"$@" 2>&1 | awk -v label="$label" -v counts="$counts" '
  function close_document() {
    if (!open) return
    if (planned < 0) { failed++; print label ": a runner ended without its plan (" seen " results): it died or was cut short" }
    else if (seen < planned) { failed += planned - seen; print label ": " planned " tests planned, " seen " reported: the rest count as failed" }
    else if (seen > planned) { failed++; print label ": " planned " tests planned, " seen " reported" }
    open = 0; seen = 0; planned = -1
  }
  function result(line) {
    if (!open) { open = 1; planned = -1 }
    seen++
    if (line ~ /^not ok/) failed++
    else if (toupper(line) ~ /# *SKIP/) skipped++
    else passed++
  }
  BEGIN { open = 0; seen = 0; planned = -1; passed = 0; failed = 0; skipped = 0; results = 0 }
  { print; fflush() }
  /^TAP version / { close_document(); open = 1; next }
  /^(not )?ok($|[ \t])/ { result($0); results++; next }
  /^1\.\.[0-9]+/ {
    n = substr($0, 4) + 0
    if (open && seen == 0 && planned < 0) { planned = n; next }  # a leading plan
    if (!open) open = 1
    planned = n; close_document(); next
  }
  /^Bail out!/ { failed++; close_document(); next }
  END {
    close_document()
    printf "%d %d %d %d\n", passed, failed, skipped, results > counts
  }
'
rc=${PIPESTATUS[0]}
read -r passed failed skipped results <"$counts"
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "$label: the runner exited with status $rc and reported no failure"; failed=1
fi
if [ "$results" -eq 0 ] && [ "$failed" -eq 0 ]; then
  echo "$label: the runner reported no result"; failed=1
fi
line="$label: $passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line+=", $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
