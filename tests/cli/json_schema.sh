#!/usr/bin/env bash
# Every command's --json output, successes and failures, validated against
# the schema docs/schema/redist-1.json (python3-jsonschema): one test per
# command line.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=${REDIST:-_build/default/codegen/main.exe}
schema=docs/schema/redist-1.json
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]')
S=(--mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]')
worked_plan='dyn_slice(0, y)\nall_permute([1{y,x}6])\nall_gather(0)\n'

# check_json LABEL STDIN ARGS...: runs redist ARGS with STDIN, validates its
# stdout with its exit code.
check_json() {
  local label=$1 input=$2; shift 2
  local out rc why
  out=$(printf "$input" | "$redist" "$@" 2>/dev/null); rc=$?
  if why=$(/usr/bin/python3 tests/cli/validate_json.py "$schema" "$rc" <<<"$out"); then
    ok "$label (exit $rc)"
  else
    ko "$label (exit $rc): $why"
  fi
}

check_json "plan" '' plan "${W[@]}" --json
check_json "plan with sub-axes" '' plan "${S[@]}" --dtype f64 --json
check_json "plan, identity" '' plan --mesh '{x:2}' --from '[2{x}4]' --to '[2{x}4]' --json
check_json "plan, exchange across meshes" '' plan --from-mesh '{x:4} @ 2' --to-mesh '{x:2, y:2} @ [3, 1, 0, 5]' --from '[{x}7, 3]' --to '[{y}7, {x}3]' --json
check_json "plan, uneven, collectives refused" '' plan --mesh '{x:3}' --from '[{x}7]' --to '[7]' --strategy collectives --json
check_json "plan, a hybrid chosen" '' plan --mesh '{a:2, b:4}' --from '[{b}64, {a}64]' --to '[64, 64]' --profile docs/profiles/ndr-infiniband.json --ranks-per-host 4 --json
check_json "plan, profile, hosts and budget" '' plan --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]' --profile docs/profiles/ndr-infiniband.json --ranks-per-host 4 --memory-budget 10000 --json
check_json "plan, budget below the least" '' plan "${W[@]}" --memory-budget 1 --json
# a profile with single copy on a host: a gather on one host, the exchange's
# and the all-gathers' same-host messages priced by single copy: the
# collectives win again (two all-gathers, neither packing through scratch)
single_copy_profile=$(mktemp); trap 'rm -f "$single_copy_profile"' EXIT
printf '%s' '{"schema": "redist-profile/1", "name": "sc", "same_host": {"latency_ns": 500, "bytes_per_us": 5000}, "across_hosts": {"latency_ns": 1500, "bytes_per_us": 5000}, "single_copy": {"latency_ns": 500, "bytes_per_us": 20000}, "copy_bytes_per_us": 20000}' >"$single_copy_profile"
GATHER=(--mesh '{x:4}' --from '[{x}4096]' --to '[4096]' --profile "$single_copy_profile" --json)
check_json "plan, a profile with single copy" '' plan "${GATHER[@]}"
if "$redist" plan "${GATHER[@]}" | python3 -c 'import json, sys; c = json.load(sys.stdin)["cost"]; assert c["same_host_transport"] == "single_copy"; assert [d["strategy"] for d in c["candidates"] if d["verdict"] == "chosen"] == ["collectives"]'; then
  ok "plan, a profile with single copy: same_host_transport single_copy, the collectives chosen"
else
  ko "plan, a profile with single copy: same_host_transport or the choice wrong"
fi
check_json "check, with a budget" "$worked_plan" check "${W[@]}" --plan - --memory-budget 1KiB --json
check_json "check, exchange" 'exchange\n' check --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan - --json
check_json "check, accepted" "$worked_plan" check "${W[@]}" --plan - --json
check_json "check, accepted with refine" 'refine b = hi:3 * lo:2\ndyn_slice(0, lo)\nall_permute([1{hi,lo}6])\n' check "${S[@]}" --plan - --json
check_json "check, rejected" 'dyn_slice(0, y)\nall_gather(0)\n' check "${W[@]}" --plan - --json
check_json "check, plan syntax error" 'all_reduce(0)\n' check "${W[@]}" --plan - --json
check_json "plan, in place" '' plan --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place --json
check_json "plan, in place between meshes, least budget" '' plan --from-mesh '{x:2}' --to-mesh '{y:3} @ 1' --from '[{x}7, 5]' --to '[{y}7, 5]' --in-place --memory-budget 84 --json
check_json "plan, in place, budget below the least" '' plan --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place --memory-budget 67 --json
check_json "plan, auto within a budget only in place fits" '' plan --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --memory-budget 127 --json
check_json "plan, auto within a budget, in place among the candidates" '' plan --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --memory-budget 128 --json
check_json "check, in place" 'exchange\n' check --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan - --in-place --json
check_json "plan, pending sums reduced and gathered" '' plan --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype i32 --json
check_json "plan, pending sums kept pending" '' plan --mesh '{x:2, y:2}' --from '[8, 8] sum{x,y}' --to '[8, 8] sum{y}' --json
check_json "plan, pending sums by the reducing exchange" '' plan --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --json
check_json "check, pending sums accepted" 'all_reduce(y)\nall_gather(0)\n' check --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --plan - --json
check_json "check, pending sums rejected" 'all_reduce(x)\n' check --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --plan - --json
check_json "plan, pending axis also sharding" '' plan --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{x}' --to '[8, 8]' --json
check_json "show, pending sums" '' show --mesh '{x:2, y:2}' --type '[4{x}8, 8] sum{y}' --json
check_json "show, a problem with pending sums" '' show --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 1' --from '[{x}7, 5] sum{y}' --to '[{z}7, 5]' --json
check_json "show" '' show --mesh '{x:2, y:3}' --type '[3{x}6]' --json
check_json "show, uneven with empty boxes" '' show --mesh '{x:4, y:2}' --type '[{x}3, {y}5]' --json
check_json "show, placed mesh" '' show --mesh '{x:3} @ 5' --type '[{x}7]' --json
check_json "show, a problem across meshes" '' show --from-mesh '{x:4}' --to-mesh '{x:2, y:2} @ [5, 4, 3, 2]' --from '[{x}10, 3]' --to '[{y}10, {x}3]' --json
check_json "show, 3 dimensions" '' show --mesh '{x:2, y:2}' --type 'f32[4{x}8, 8, {y}4]' --json
check_json "plan, bad mesh" '' plan --mesh '{x:2' --from '[2]' --to '[2]' --json
check_json "plan, command-line error" '' plan "${W[@]}" --bogus --json
check_json "show, bad type" '' show --mesh '{x:2}' --type '[4{x}6]' --json
# composed cuts: what each device holds (intervals per dimension), the plan, the run
check_json "show, composed cuts" '' show --mesh '{x:2, y:2}' --type '[{x}%2 5, {y}%1 3]' --json
check_json "show, a problem of composed cuts across meshes" '' show --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 4' --from '[{x}{y}7, 6]' --to '[{z}%2 7, 6]' --json
check_json "plan, composed cuts" '' plan --mesh '{p:2, q:2}' --from '[{p}%2 7, {q}%2 5]' --to '[{p}7, 5]' --json
check_json "run, composed cuts" '' run --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[{y}{x}5]' --repeat 1 --json
check_json "run" '' run "${W[@]}" --repeat 1 --json
check_json "run, exchange across meshes" '' run --from-mesh '{x:2}' --to-mesh '{x:3} @ 2' --from '[{x}5]' --to '[{x}5]' --repeat 1 --json
check_json "run, bad input" '' run "${W[@]}" --repeat 0 --json
check_json "run, in place between meshes" '' run --from-mesh '{x:2}' --to-mesh '{y:3} @ 1' --from '[{x}7, 5]' --to '[{y}7, 5]' --in-place --memory-budget 84 --repeat 1 --json
check_json "run, in place, budget below the least" '' run --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place --memory-budget 67 --json

# check_candidates LABEL ARGS...: every candidate of plan ARGS --json, read
# back from its plan_file by check --plan, has the candidate's own figures.
check_candidates() {
  local label=$1 why; shift
  if why=$(/usr/bin/python3 tests/cli/candidate_plan_files.py "$redist" "$@"); then
    ok "$label ($why candidates)"
  else
    ko "$label: $why"
  fi
}
P=(--profile docs/profiles/measured-here.json)
check_candidates "candidates' plan files, sub-axes" "${P[@]}" --mesh '{x:2, y:8}' --from '[{x}64, {y}64]' --to '[{y}64, {x}64]'
check_candidates "candidates' plan files, two axes to one" "${P[@]}" --mesh '{x:4, y:4}' --from '[{x,y}64, 64]' --to '[64, {x,y}64]'
check_candidates "candidates' plan files, two hosts" --profile docs/profiles/ndr-infiniband.json --ranks-per-host 4 --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]'
tap_end
