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

valid_profile() {  # FILE: a JSON object with the schema and positive bandwidths
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert p["schema"]=="redist-profile/1"; assert all(p[k]["bytes_per_us"]>0 and p[k]["latency_ns"]>=0 for k in ("same_host","across_hosts")); assert p["copy_bytes_per_us"]>0' "$1"
}

if "$redist" calibrate --name here -o "$tmp/here.json" >"$tmp/log" 2>&1 && valid_profile "$tmp/here.json"; then
  ok "calibrate on 2 ranks writes a valid profile"
else
  ko "calibrate on 2 ranks: $(head -c 300 "$tmp/log")"
fi
expect "plan accepts the measured profile" 0 "profile here, one host" plan "${P[@]}" --profile "$tmp/here.json"
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
printf 'not json' >"$tmp/bad.json"
expect "a profile that is not JSON refused" 2 "not JSON" plan "${P[@]}" --profile "$tmp/bad.json"
expect "--hosts shorter than the world refused" 2 "--hosts: 2 entries (naming 2 distinct hosts) for 8 world ranks" plan "${P[@]}" --hosts a,b
expect "--ranks-per-host 0 refused" 2 "give at least 1" plan "${P[@]}" --ranks-per-host 0
expect "--memory-budget not a number refused" 2 "not a number of bytes" plan "${P[@]}" --memory-budget 12QB
tap_end
