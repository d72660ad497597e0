#!/usr/bin/env bash
# redist calibrate runs its MPI measurements and writes a profile that plan
# accepts; the profile reader refuses broken profiles in one line.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=${REDIST:-_build/default/codegen/main.exe}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
P=(--mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]')

# expect LABEL CODE PATTERN ARGS...: exit CODE and PATTERN in stdout+stderr.
expect() {
  local label=$1 code=$2 pattern=$3; shift 3
  local out rc
  out=$("$redist" "$@" 2>&1); rc=$?
  if [ "$rc" = "$code" ] && grep -q -- "$pattern" <<<"$out"; then ok "$label"; else ko "$label (exit $rc): $(head -c 300 <<<"$out")"; fi
}

# FILE: a JSON object with the schema, positive bandwidths, and a
# single-copy link (ranks 0 and 1 share a host here) no faster to start than
# an MPI message (its latency adds to the same-host one) and moving bytes
# within a factor of 100 of a memcpy.
valid_profile() {
  python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
assert p["schema"] == "redist-profile/1"
assert all(p[k]["bytes_per_us"] > 0 and p[k]["latency_ns"] >= 0 for k in ("same_host", "across_hosts", "single_copy"))
assert p["copy_bytes_per_us"] > 0
assert p["same_host"]["latency_ns"] <= p["single_copy"]["latency_ns"] < 10**9
assert p["copy_bytes_per_us"] / 100 <= p["single_copy"]["bytes_per_us"] <= p["copy_bytes_per_us"] * 100
assert any(s.startswith("single_copy:") and "shared_alloc" in s for s in p["sources"])' "$1"
}

if "$redist" calibrate --name here -o "$tmp/here.json" >"$tmp/log" 2>&1 && valid_profile "$tmp/here.json"; then
  ok "calibrate on 2 ranks writes a valid profile"
else
  ko "calibrate on 2 ranks: $(head -c 300 "$tmp/log")"
fi
expect "plan accepts the measured profile" 0 "profile here, one host" plan "${P[@]}" --profile "$tmp/here.json"
expect "plan prices the exchange by single copy with the measured profile" 0 \
  "one host, same-host exchange messages by single copy)" plan "${P[@]}" --profile "$tmp/here.json" --strategy exchange
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); del p["single_copy"]; json.dump(p, open(sys.argv[2], "w"))' \
  "$tmp/here.json" "$tmp/mpi.json"
expect "a profile without single_copy (as before it existed) prices every message by MPI" 0 \
  "one host, same-host messages by MPI)" plan "${P[@]}" --profile "$tmp/mpi.json"
if "$redist" calibrate --np 4 --ranks-per-host 2 -o "$tmp/two.json" >"$tmp/log" 2>&1 && valid_profile "$tmp/two.json" \
   && grep -q "between rank 0 and rank 2" "$tmp/two.json"; then
  ok "calibrate on 4 ranks, 2 per host, measures the across-hosts link"
else
  ko "calibrate on 4 ranks, 2 per host: $(head -c 300 "$tmp/log")"
fi
expect "plan with the two-host profile and hosts" 0 "profile measured, 4 ranks per host" plan "${P[@]}" --profile "$tmp/two.json" --ranks-per-host 4
expect "calibrate --np 1 refused" 2 "calibrate starts 2 to" calibrate --np 1
printf '{"schema": "redist-profile/1", "name": "x", "same_host": {"latency_ns": 1}}' >"$tmp/bad.json"
expect "a profile missing a field refused" 2 "bytes_per_us" plan "${P[@]}" --profile "$tmp/bad.json"
printf '{"schema": "redist-profile/1", "name": "x", "same_host": {"latency_ns": 1, "bytes_per_us": 1}, "across_hosts": {"latency_ns": 1, "bytes_per_us": 1}, "copy_bytes_per_us": 1, "single_copy": {"latency_ns": 1, "bytes_per_us": 0}}' >"$tmp/bad.json"
expect "a profile with single_copy's bandwidth 0 refused" 2 "single_copy.bytes_per_us must be an integer from 1" plan "${P[@]}" --profile "$tmp/bad.json"
printf 'not json' >"$tmp/bad.json"
expect "a profile that is not JSON refused" 2 "not JSON" plan "${P[@]}" --profile "$tmp/bad.json"
expect "--hosts shorter than the world refused" 2 "--hosts: 2 entries (naming 2 distinct hosts) for 8 world ranks" plan "${P[@]}" --hosts a,b
expect "--ranks-per-host 0 refused" 2 "give at least 1" plan "${P[@]}" --ranks-per-host 0
expect "--memory-budget not a number refused" 2 "not a number of bytes" plan "${P[@]}" --memory-budget 12QB
tap_end
