#!/usr/bin/env bash
# A suite that is one check: runs COMMAND, its output passing through, and
# reports one test, passed when COMMAND exits 0.
#   tests/exit_test.sh WHAT COMMAND [ARG...]
set -u
. "$(dirname "$0")/lib.sh"
what=$1
shift
if "$@"; then ok "$what"; else ko "$what (exit status $?)"; fi
tap_end
