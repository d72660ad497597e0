#!/usr/bin/env bash
# Expect cases for the redist command: each prints the command, its output
# (stdout and stderr) and its exit code.  `dune build @tests/cli/cli-expect`
# diffs the result against cases.expected (`dune promote` accepts a change).
redist=$1
# The source revision (in --version and in generated headers) changes with
# every commit: it is shown as REV.
run() {
  printf '$ redist'; printf ' %q' "$@"; printf '\n'
  "$redist" "$@" 2>&1 | sed 's/(revision [^)]*)/(revision REV)/'
  printf '[exit %d]\n\n' "${PIPESTATUS[0]}"
}
run_stdin() {
  local input=$1; shift
  printf '$ printf %q | redist' "$input"; printf ' %q' "$@"; printf '\n'
  printf "$input" | "$redist" "$@" 2>&1
  printf '[exit %d]\n\n' "$?"
}
pipe_plan_check() {
  printf '$ redist plan'; printf ' %q' "$@"; printf ' | redist check'; printf ' %q' "$@"; printf ' --plan -\n'
  "$redist" plan "$@" | "$redist" check "$@" --plan - 2>&1
  printf '[exit %d]\n\n' "$?"
}
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]')
S=(--mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]')
P=(--mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]')

# plan by the collectives: the model document's worked example, a case
# needing sub-axes, a 2-D problem
C=(--strategy collectives)
run plan "${W[@]}" "${C[@]}"
run plan "${S[@]}" --dtype f64 "${C[@]}"
run plan "${P[@]}" "${C[@]}"
run plan "${W[@]}" --json "${C[@]}"
run plan --mesh '{x:4}' --from 'i32[{x}8, 4]' --to 'i32[8, 4]' "${C[@]}"
run plan --mesh '{x:2}' --from '[2{x}4]' --to '[2{x}4]' "${C[@]}"
# what plan prints is a plan file that check accepts
pipe_plan_check "${S[@]}" "${C[@]}"
pipe_plan_check "${P[@]}" "${C[@]}"

# the strategies: auto takes the exchange where its busiest rank receives
# less (the 3.5x example), the collectives on a tie
run plan --mesh '{x:6, y:10}' --from '[10{x}60, 6{y}60]' --to '[6{y}60, 10{x}60]'
run plan --mesh '{x:2}' --from '[2{x}4]' --to '[2{x}4]'
run plan "${W[@]}" --strategy exchange --json
# uneven dimensions: ceil blocks, the local size optional, empty boxes
run plan --mesh '{x:8}' --from '[{x}50257]' --to '[50257]'
run plan --mesh '{x:8}' --from '[6283{x}50257, 3]' --to '[50257, {x}3]' --dtype bf16
pipe_plan_check --mesh '{x:8}' --from '[{x}50257]' --to '[50257]'
# between meshes: 4 to 8 devices, a submesh, a permuted rank list
run plan --from-mesh '{x:4}' --to-mesh '{x:8}' --from '[{x}1000]' --to '[{x}1000]'
run plan --from-mesh '{x:8}' --to-mesh '{x:2} @ 6' --from '[{x}64, 8]' --to '[64, {x}8]'
run plan --from-mesh '{x:2, y:4}' --to-mesh '{x:4, y:2} @ [7, 6, 5, 4, 3, 2, 1, 0]' --from '[{x}8, {y}8]' --to '[{x}8, {y}8]' --json
pipe_plan_check --from-mesh '{x:3} @ 2' --to-mesh '{y:5}' --from '[{x}7]' --to '[{y}7]'
run_stdin 'exchange\n' check --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan -
run_stdin 'all_gather(0)\n' check --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan -
run_stdin 'exchange\nall_gather(0)\n' check "${W[@]}" --plan -
run_stdin 'exchange\n' gen --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan - --name uneven -o /dev/null
run_stdin 'all_gather(0)\n' gen --mesh '{x:3}' --from '[{x}7]' --to '[7]' --plan - --name uneven -o /dev/null
# the new syntax's bad input: one line each, exit 2
run plan --mesh '{x:8}' --from '[6000{x}50257]' --to '[50257]'
run plan --mesh '{x:8}' --from '[{x}50257]' --to '[50257]' --strategy collectives
run plan --from-mesh '{x:2} @ 1' --to-mesh '{x:2}' --from '[4]' --to '[4]' --strategy collectives
run plan --from-mesh '{x:4} @ [1, 2, 1, 0]' --to-mesh '{x:2}' --from '[4]' --to '[4]'
run plan --from-mesh '{x:4} @ [1, 2]' --to-mesh '{x:2}' --from '[4]' --to '[4]'
run plan --from-mesh '{x:4} @ 65534' --to-mesh '{x:2}' --from '[4]' --to '[4]'
run plan --from-mesh '{x:2} @ [0, 70000]' --to-mesh '{x:2}' --from '[4]' --to '[4]'
run plan --from-mesh '{x:4} @' --to-mesh '{x:2}' --from '[4]' --to '[4]'
run plan --from-mesh '{x:4}' --to-mesh '{y:2}' --from '[{x}4]' --to '[{y}5]'
run plan --from-mesh '{x:4}' --to-mesh '{y:2}' --from '[{x}4]' --to '[{x}4]'
run plan --from-mesh '{x:4}' --to-mesh '{y:0}' --from '[{x}4]' --to '[4]'
run plan --from-mesh '{x:4}' --from '[4]' --to '[4]'
run plan --mesh '{x:4}' --to-mesh '{x:4}' --from '[4]' --to '[4]'
run plan --mesh '{x:4}' --from '[4]' --to '[4]' --strategy fastest

# check: accepted plans, the worked example by hand, sub-axes by name
run_stdin 'dyn_slice(0, y)   # slice\nall_permute([1{y,x}6])\n\nall_gather(0)\n' check "${W[@]}" --plan -
run_stdin 'refine b = b.0:3 * b.1:2\ndyn_slice(0, b.1)\nall_permute([1{b}6])\n' check "${S[@]}" --plan -
run_stdin 'refine b = hi:3 * lo:2\ndyn_slice(0, lo)\nall_permute([1{hi,lo}6])\n' check "${S[@]}" --plan - --json
# check: rejections, each with its line and reason
run_stdin 'dyn_slice(0, y)\nall_gather(0)\n' check "${W[@]}" --plan -
run_stdin '# comment\ndyn_slice(0, x)\n' check "${W[@]}" --plan -
run_stdin 'dyn_slice(0, z)\n' check "${W[@]}" --plan -
run_stdin 'all_gather(3)\n' check "${W[@]}" --plan -
run_stdin 'dyn_slice(0, y)\nall_permute([2{y,x}6])\n' check "${W[@]}" --plan -
run_stdin 'all_permute([2{y}6])\n' check "${W[@]}" --plan -
run_stdin 'all_to_all(0, 0)\n' check "${W[@]}" --plan -
run_stdin 'dyn_slice(0, b)\n' check "${S[@]}" --plan -
run_stdin 'dyn_slice(0, y)\nrefine x = x.0:1 * x.1:2\n' check "${W[@]}" --plan -
run_stdin 'refine b = b.0:4 * b.1:2\n' check "${S[@]}" --plan -
run_stdin 'refine b = a:3 * b.1:2\n' check "${S[@]}" --plan -
run_stdin 'dyn_slice(0, y))\n' check "${W[@]}" --plan -
run_stdin 'all_reduce(0)\n' check "${W[@]}" --plan -
run check "${W[@]}" --plan /nonexistent/plan.txt
# endless or huge input: the size limit, at once (bounded here in time and
# memory so that a regression fails instead of exhausting the machine)
run_bounded() {
  printf '$ redist'; printf ' %q' "$@"; printf '\n'
  (ulimit -v 4000000; timeout 20 "$redist" "$@") 2>&1
  printf '[exit %d]\n\n' "$?"
}
run_bounded check "${W[@]}" --plan /dev/zero
run_bounded check "${W[@]}" --plan /dev/urandom
run_bounded gen "${W[@]}" --name w --plan /dev/zero
# checking reports every rank at every step: collectives x devices is bounded
# (128 permutes on 65,536 devices are accepted, 129 refused at once)
BIG=(--mesh '{a:16, b:16, c:16, d:16}' --from '[{a,b}256, {c,d}256]' --to '[{b,a}256, {d,c}256]')
permutes() { for ((i = 0; i < $1; i++)); do printf 'all_permute([{b,a}256, {d,c}256])\n'; done; }
for n in 129 128; do
  printf '$ permutes %d | redist check BIG --plan - | tail -n 1\n' "$n"
  (ulimit -v 4000000; permutes "$n" | timeout 20 "$redist" check "${BIG[@]}" --plan - 2>&1 | tail -n 1; exit "${PIPESTATUS[1]}")
  printf '[exit %d]\n\n' "$?"
done

# show
run show --mesh '{x:2, y:3}' --type '[3{x}6]'
run show --mesh '{x:2, y:2}' --type '[4{x}8, 2{y}4]'
run show --mesh '{x:2, y:2}' --type 'f32[4{x}8, 8, {y}4]'
run show --mesh '{x:4, y:2}' --type '[{x}3, {y}5]'
run show --mesh '{x:3}' --type '[{x}7]' --json
run show --mesh '{x:2, y:2} @ [3, 1, 2, 0]' --type '[{x}3, {y}5]'
run show --mesh '{x:2} @ [1, 1]' --type '[{x}3]'
run show --mesh '{x:2}' --type '[5]'
# show a problem: both meshes, each world rank's box before and after
run show --from-mesh '{x:4}' --to-mesh '{x:2, y:2} @ [5, 4, 3, 2]' --from '[{x}10, 3]' --to '[{y}10, {x}3]'
run show --mesh '{x:4, y:2}' --from '[{x}3, {y}5]' --to '[{y}3, {x}5]'
run show --from-mesh '{a:2} @ 3' --to-mesh '{b:3}' --from 'u8[{a}2, 2, 3]' --to '[2, 2, {b}3]'
run show --from-mesh '{x:2} @ [1, 0]' --to-mesh '{x:3} @ 1' --from '[{x}5]' --to '[{x}5]' --json
run show --mesh '{x:2}' --type '[4]' --from '[4]' --to '[4]'
run show --mesh '{x:2}' --from '[4]'
run show --from-mesh '{x:2}' --type '[4]'
run show --mesh '{x:2}'
run show --from-mesh '{x:2}' --to-mesh '{y:3}' --from '[4]' --to '[5]'

# gen: the header's head, and its rejections
run gen "${W[@]}" --backend mpi --name worked --dtype f32 "${C[@]}"
run gen "${S[@]}" --backend mpi --name subaxes --dtype f64 -o /dev/null "${C[@]}"
run plan --mesh '{x:2}' --from 'c128[1{x}2]' --to '[2]' --dtype c128 --strategy collectives
run gen "${W[@]}" --backend nccl --name worked -o /dev/null "${C[@]}"
# The exchange over NCCL: rank 0 receives 4 elements and sends 3 to each of the
# two others, so the largest staging is 10 elements (40 bytes).
run gen --mesh '{x:3}' --from '[{x}7]' --to '[7]' --backend nccl --name uneven
run gen --from-mesh '{x:3} @ 1' --to-mesh '{y:2} @ [0, 3]' --from '[{x}7]' --to '[{y}7]' --dtype i16 --name moved
# 2^44 complex128 elements gathered on 65536 devices: 2^64 bytes in total
run plan --mesh '{x:65536}' --from 'c128[{x}17592186044416]' --to '[17592186044416]' --strategy collectives
run gen "${W[@]}" --name 2bad
run gen "${W[@]}" --name namespace
run gen --mesh '{x:2}' --from '[1{x}2, 1, 1, 1, 1, 1, 1, 1, 1]' --to '[2, 1, 1, 1, 1, 1, 1, 1, 1]' --name big

# bad input: one line, exit 2
run plan --mesh '{x:2, y:3' --from '[3{x}6]' --to '[2{y}6]'
run plan --mesh '{}' --from '[3{x}6]' --to '[2{y}6]'
run plan --mesh '{x:2, x:3}' --from '[3{x}6]' --to '[2{y}6]'
run plan --mesh '{x:0}' --from '[3{x}6]' --to '[6]'
run plan --mesh '{x:65537}' --from '[65537{x}65537]' --to '[65537]'
# axis sizes whose product wraps around 2^63 to 65,536 or to 2^63 - 1
run plan --mesh '{a:65536, b:140737488355329}' --from '[2]' --to '[2]'
run plan --mesh '{a:65536, b:140737488355327}' --from '[2]' --to '[2]'
# the exact limits: 65,536 devices and 2^50 - 1 elements pass, one more does not
run plan --mesh '{a:65536, b:1}' --from '[2]' --to '[2]'
run plan --mesh '{a:65536, b:2}' --from '[2]' --to '[2]'
run plan --mesh '{x:2}' --from '[{x}1125899906842623]' --to '[1125899906842623]'
# live bytes of a pending sum over 512 ranks past 2^62 (OCaml's int): refused, not wrapped
run plan --from-mesh '{x:512}' --to-mesh '{y:1}' --from '[562949953421312] sum{x}' --to '[562949953421312]' --dtype c128 --memory-budget 1
run plan --mesh '{x.0:2}' --from '[6]' --to '[6]'
run plan --mesh '{x:2, y:3}' --from '[3{z}6]' --to '[2{y}6]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6, 2{x}4]' --to '[2{y}6, 4]'
run plan --mesh '{x:2, y:3}' --from '[3{x,x}12]' --to '[12]'
run plan --mesh '{x:2, y:3}' --from '[{y}7]' --to '[7]'
run plan --mesh '{x:2, y:3}' --from '[4{x}6]' --to '[6]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}8]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6, 1]'
run plan --mesh '{x:2, y:3}' --from '[0]' --to '[0]'
run plan --mesh '{x:2, y:3}' --from '[1125899906842624]' --to '[1]'
run plan --mesh '{x:2, y:3}' --from '[1048576, 1048576, 2048]' --to '[1048576, 1048576, 2048]'
run plan --mesh '{x:2, y:3}' --from '[]' --to '[]'
run plan --mesh '{x:2, y:3}' --from 'f32[3{x}6]' --to 'f64[2{y}6]'
run plan --mesh '{x:2, y:3}' --from 'q8[3{x}6]' --to '[2{y}6]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6' --to '[2{y}6]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6]'
run plan --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --bogus
run frobnicate

# the version, from the runtime's redist/version.hpp, and the revision
run --version
# the command recorded in the header, quoted for the shell (a newline and a
# trailing backslash in an argument stay inside the comment)
printf '$ redist gen ... --name w --plan <(one line + a file name with a newline and a backslash) | head -2\n'
odd_plan="${TMPDIR:-/tmp}/redist cases
plan\\"
printf 'dyn_slice(0, y)\nall_permute([1{y,x}6])\nall_gather(0)\n' > "$odd_plan"
"$redist" gen "${W[@]}" --name w --plan "$odd_plan" 2>&1 | sed -n '2p' | sed "s|${TMPDIR:-/tmp}|TMP|"
rm -f "$odd_plan"
echo

# each command's exit statuses, as its manual states them; every manual
# points at redist(1), the page `redist --help=groff` writes
for c in plan check show gen run; do
  printf '$ redist %s --help=plain | (exit statuses)\n' "$c"
  "$redist" "$c" --help=plain | sed -n '/^EXIT STATUS/,/^EXAMPLES/p' | grep -E '^ +[0-9]+ '
  "$redist" "$c" --help=plain | grep -A1 '^SEE ALSO' | tail -1
done
printf '$ redist --help=groff | grep .TH\n'
"$redist" --help=groff | grep '^\.TH' | sed 's/(revision [^)]*)/(revision REV)/'
echo

# every command's --help has examples
for c in plan check show gen; do
  printf '$ redist %s --help=plain | grep -c EXAMPLES\n' "$c"
  "$redist" "$c" --help=plain | grep -c EXAMPLES
done

# output that cannot be written (a full disk, a closed stdout): one line, exit 2
run_to_full() {
  printf '$ redist'; printf ' %q' "$@"; printf ' >/dev/full\n'
  "$redist" "$@" 2>&1 >/dev/full
  printf '[exit %d]\n\n' "$?"
}
run_to_closed() {
  printf '$ redist'; printf ' %q' "$@"; printf ' >&-\n'
  "$redist" "$@" 2>&1 >&-
  printf '[exit %d]\n\n' "$?"
}
run_to_full plan --mesh '{x:2}' --from '[1{x}2]' --to '[2]'
run_to_full plan "${W[@]}" --json
run_to_full show --mesh '{x:2}' --type '[2]'
run_to_full gen "${W[@]}" --name w
run_to_full --help
run_to_full gen --help=plain
run_to_full --version
run_to_closed plan "${W[@]}"
run gen "${W[@]}" --name w -o /dev/full
run plan --mesh '{x:2}' --from '[2]' --to '[2]' --dtype q1
run_stdin 'refine b = b.0:3 * b.1:2\ndyn_slice(0, b)\n' check "${S[@]}" --plan -
run gen "${W[@]}" --name w -o /nonexistent/dir/w.hpp
run_stdin 'dyn_slice(0, y)\nall_gather(0)\n' gen "${W[@]}" --name w --plan -

# messages are whole (not cut where cmdliner wraps) and echo long input as
# a bounded excerpt
run run "${W[@]}" --np 9223372036854775808
run run "${W[@]}" --backend cuda
LONG=$(head -c 130000 /dev/zero | tr '\0' a)
run_long() {  # the command as typed, LONG standing for 130,000 a's
  local shown=("$@"); printf '$ redist'; printf ' %q' "${shown[@]//$LONG/LONG}"; printf '\n'
  "$redist" "$@" 2>&1
  printf '[exit %d]\n\n' "$?"
}
run_long plan --mesh "{$LONG:2}" --from '[2{z}2]' --to '[2]'
run_long plan --mesh '{x:2}' --from "[2{$LONG}2]" --to '[2]'
run_long plan --mesh '{x:2}' --from "${LONG}[2]" --to '[2]'
run_long plan "${W[@]}" --bogus$LONG
run_long plan "${W[@]}" "$LONG"
run_long gen "${W[@]}" --name "$LONG"
run_long gen "${W[@]}" --name "$LONG-"
printf 'dyn_slice(0, %s)\n' "$LONG" > "${TMPDIR:-/tmp}/redist-cases-long.plan"
printf '$ redist check ... --plan FILE  # FILE: dyn_slice(0, LONG)\n'
"$redist" check "${W[@]}" --plan "${TMPDIR:-/tmp}/redist-cases-long.plan" 2>&1
printf '[exit %d]\n\n' "$?"
rm -f "${TMPDIR:-/tmp}/redist-cases-long.plan"

# pending sums: planned and checked by the extracted plan_sums and scheck
PS=(--mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype i32)
run plan "${PS[@]}"
run plan --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[4{x}8, 4{y}8]'
run plan --mesh '{x:2, y:2}' --from '[8, 8] sum{x,y}' --to '[8, 8] sum{y}'
run plan --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]'
run plan --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --strategy collectives
run plan --mesh '{x:2, y:6}' --from '[12, 8] sum{y}' --to '[{x}12, 8]'
pipe_plan_check --mesh '{x:2, y:6}' --from '[12, 8] sum{y}' --to '[{x}12, 8]'
pipe_plan_check --mesh '{x:2, y:6}' --from '[12, 8] sum{y}' --to '[{x}12, 8]' --strategy collectives
pipe_plan_check --mesh '{x:2, y:2}' --from '[8, 8] sum{x,y}' --to '[8, 8] sum{y}' --strategy collectives
run_stdin 'all_reduce(y)\nall_gather(0)\n' check "${PS[@]}" --plan -
run_stdin 'all_gather(0)\nall_reduce(y)\n' check "${PS[@]}" --plan -
run_stdin 'all_reduce(x)\nall_gather(0)\n' check "${PS[@]}" --plan -
run_stdin 'all_gather(0)\n' check "${PS[@]}" --plan -
run_stdin 'all_reduce(q)\n' check "${PS[@]}" --plan -
run_stdin 'all_reduce(y)\n' check --mesh '{x:2, y:2}' --from '[4{x}8, 8]' --to '[8, 8]' --plan -
run_stdin 'all_permute([4{x}8, 8] sum{y})\n' check "${PS[@]}" --plan -
run_stdin 'exchange\n' check "${PS[@]}" --plan -
run plan --mesh '{x:2, y:2}' --from '[8, 8] sum{z}' --to '[8, 8]'
run plan --mesh '{x:2, y:2}' --from '[8, 8] sum{x,x}' --to '[8, 8]'
run plan --mesh '{x:2, y:2}' --from '[{x}8, 8] sum{x}' --to '[8, 8]'
run plan --mesh '{x:2, y:2}' --from '[8, 8] summ{x}' --to '[8, 8]'
run plan --mesh '{x:2, y:2}' --from '[8, 8] sum{x' --to '[8, 8]'
run plan --mesh '{x:2, y:2}' --from '[8, 8]' --to '[{x}8, 8] sum{y, x}'
run show --mesh '{x:2, y:2}' --type '[4{x}8, 8] sum{y}'
# pending sums need an element type the runtime adds, not bool or fp8:
# every command refuses them alike (the C ABI too: tests/capi)
run run --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype bool
run plan --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype bool
run plan --mesh '{x:2, y:2}' --from 'f8e4m3[8, 8]' --to '[{x}8, 8] sum{y}'
run check --mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype f8e5m2 --plan /dev/null
# reductions beyond sum (issue 27): max, min, prod and avg wherever sum is
# written, one operation per problem, each where the element type has it
run plan --mesh '{x:2, y:2}' --from 'i32[8, 8] max{x, y}' --to '[{x, y}8, 8]'
run plan --mesh '{x:2, y:2}' --from 'f16[8, 8] avg{x}' --to '[{x}8, 8] avg{y}'
run show --mesh '{x:2, y:2}' --type 'c64[4{x}8, 8] prod{y}'
run plan --mesh '{x:2, y:2}' --from 'u16[4{x}8, 8] min{y}' --to '[8, 8] min{x}' | grep -E '^(all_|reduce|add_)'
run plan --mesh '{x:2, y:2}' --from 'bf16[8, 8] avg{x, y}' --to '[{x}8, 8]' | grep -E '^(all_|reduce|add_)'
run gen --mesh '{x:2}' --from 'f32[8] prod{x}' --to '[{x}8]' --name h | grep -E 'kOp|reduce_scatter'
run plan --mesh '{x:2, y:2}' --from '[8, 8] max{x}' --to '[{x}8, 8] sum{y}'
run plan --mesh '{x:2, y:2}' --from 'i32[8, 8] avg{x}' --to '[{x}8, 8]'
run plan --mesh '{x:2, y:2}' --from 'c128[8, 8] max{x}' --to '[{x}8, 8]'
run show --mesh '{x:2, y:2}' --type 'bool[8, 8] min{x}'
run plan --mesh '{x:2, y:2}' --from '[8, 8]' --to '[{x}8, 8] avg{y}' --strategy exchange
run plan --from-mesh '{x:2}' --to-mesh '{y:2}' --from '[8]' --to '[8] avg{y}'
run plan --mesh '{x:2, y:2}' --from '[8, 8] mean{x}' --to '[8, 8]'
# pending sums are costed (choose_sums): the machine's options apply, and
# --memory-budget sets aside the candidates above it, so auto switches from
# the reducing exchange (faster, 1536 live bytes) to the collectives (832);
# below the least of them it names that figure
run plan "${PS[@]}" --ranks-per-host 2 --json
run plan "${PS[@]}" --hosts 0,0,1,1
run plan --mesh '{x:4}' --from '[64] sum{x}' --to '[64]'
run plan --mesh '{x:4}' --from '[64] sum{x}' --to '[64]' --memory-budget 1000
run plan --mesh '{x:4}' --from '[64] sum{x}' --to '[64]' --memory-budget 831
run plan --mesh '{x:4}' --from '[64] sum{x}' --to '[64]' --memory-budget 832 --strategy exchange
run_stdin 'exchange\n' check --mesh '{x:4}' --from '[64] sum{x}' --to '[64]' --plan - --ranks-per-host 2
run plan --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --memory-budget 511
run plan --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --memory-budget 512
run_stdin 'exchange\n' check "${PS[@]}" --plan - --memory-budget 895
run_stdin 'exchange\n' gen "${PS[@]}" --plan - --name sums --memory-budget 895 -o /dev/null
run_stdin 'exchange\n' gen "${PS[@]}" --plan - --name sums --memory-budget 1MiB --backend nccl -o /dev/null
# the reducing exchange between meshes, to a target with pending sums too
run plan --from-mesh '{x:2, y:2}' --to-mesh '{z:3, w:2} @ 4' --from '[{x}9, 4] sum{y}' --to '[{z}9, 4] sum{w}'
# --memory-budget bounds what the caller allocates (source + destination +
# the whole workspace: 96 + 96 + 288 = 480 B here), not the peak alive at
# once (384 B): 400 refused, naming 480; 480 accepted (issue 25)
run plan --mesh '{x:2, y:3}' --from '[{x}12, {y}12]' --to '[{y}12, {x}12]' --strategy collectives --memory-budget 400
run plan --mesh '{x:2, y:3}' --from '[{x}12, {y}12]' --to '[{y}12, {x}12]' --strategy collectives --memory-budget 480
# the figures a pending-sum header states: uneven and cross-mesh (the reducing
# exchange: extracted sumx_workspace_bytes and sumx_live_bytes), even (lower_sums)
gen_figures() {
  printf '$ redist gen'; printf ' %q' "$@"; printf ' | grep figures\n'
  "$redist" gen --name sums "$@" 2>&1 | grep -E '^// (Live bytes|Workspace:)|constexpr ::std::size_t k(LiveBytes|WorkspaceBytes|GroupSize) '
  printf '[exit %d]\n\n' "${PIPESTATUS[0]}"
}
gen_figures --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]'
gen_figures --from-mesh '{x:2, y:2}' --to-mesh '{z:3, w:2} @ 4' --from '[{x}9, 4] sum{y}' --to '[{z}9, 4] sum{w}'
gen_figures "${PS[@]}"

# auto by the cost model by default; across hosts the exchange's time is an upper bound
run plan --mesh '{x:4}' --from '[{x}8]' --to '[8]' --ranks-per-host 2
# too many all_permute table entries to cost by default (issue 12's first case): least traffic, and why
run plan --mesh '{m0:1, m1:4, m2:4, m3:16, m4:2, m5:1, m6:8, m7:2, m8:1, m9:2, m10:1, m11:1, m12:2, m13:1, m14:1, m15:2}' \
  --from '[{m2,m9,m1,m3,m7,m6,m12,m11,m0,m4}196608, {m10,m8,m15,m5}196608]' \
  --to '[{m0,m14,m7}196608, {m4,m6,m5,m8,m12,m10,m1,m2,m15}196608]'

# hybrids: under the NDR InfiniBand profile with 4 ranks per host, auto
# picks the exchange gathering dimension 1 over a (by datatypes, no
# packing), then all_gather(0) over b inside each host (the outermost
# dimension, no packing); the collectives gather dimension 1 through
# scratch first (slower), the exchange alone sends 7 messages a rank.  An
# uneven source: no collectives, a hybrid beats the exchange alone.
NDR=(--strategy auto --profile ../../docs/profiles/ndr-infiniband.json --ranks-per-host 4)
H=(--mesh '{a:2, b:4}' --from '[{b}64, {a}64]' --to '[64, 64]')
run plan "${H[@]}" "${NDR[@]}"
run plan --mesh '{a:2, b:4}' --from '[{a,b}1004]' --to '[1004]' "${NDR[@]}"
# a hybrid's plan file: the parts around a via line, read back by check
pipe_plan_check "${H[@]}" "${NDR[@]}"
run_stdin 'all_to_all(1, 0)\nvia [8{b,a}64, 64]\nexchange\n' check "${H[@]}" --plan -
run_stdin 'exchange\nvia [16{q}64, 64]\nall_gather(0)\n' check "${H[@]}" --plan -
run_stdin 'exchange\nvia [16{b}64, 64] sum{a}\nall_gather(0)\n' check "${H[@]}" --plan -
run_stdin 'all_gather(0)\nvia [16{b}64, 64]\nall_gather(0)\n' check "${H[@]}" --plan -
run_stdin 'exchange\nvia [16{b}64, 64]\nall_gather(0)\n' gen "${H[@]}" --plan - --name h --backend nccl
# without --plan, gen --backend nccl chooses among the plans it emits (no
# hybrid); over MPI the same problem's choice is the hybrid
for backend in mpi nccl; do
  printf '$ redist gen'; printf ' %q' "${H[@]}" --name h --backend "$backend"
  printf ' | grep -E %q\n' '^// (Plan:|  choose_fastest)'
  "$redist" gen "${H[@]}" --name h --backend "$backend" 2>&1 | grep -E '^// (Plan:|  choose_fastest)'
  printf '[exit %d]\n\n' "${PIPESTATUS[0]}"
done

# run: bad input is refused before anything is compiled
run run "${W[@]}" --repeat 0
run run --mesh '{x:3}' --from '[{x}7]' --to '[7]' --strategy collectives
run run --from-mesh '{x:2}' --to-mesh '{x:3} @ [4, 0, 4]' --from '[{x}5]' --to '[{x}5]'
run run "${W[@]}" --np 0
run run --from-mesh '{x:2}' --to-mesh '{x:2} @ 300' --from '[{x}4]' --to '[{x}4]'
run run "${W[@]}" --backend nccl
run run "${W[@]}" --work-dir /nonexistent/dir

# bounded input (issue 24): every case one line, exit 2, no recursion that
# the input can deepen.  LINES N TEXT stands for N lines TEXT, piped in.
run_lines() {
  local n=$1 line=$2; shift 2
  printf '$ LINES %d %q | redist' "$n" "$line"; printf ' %q' "$@"; printf ' | tail -n 1\n'
  yes "$line" | head -n "$n" | (ulimit -v 4000000; timeout 20 "$redist" "$@") 2>&1 | tail -n 1
  printf '[exit %d]\n\n' "${PIPESTATUS[2]}"
}
ONE=(--mesh '{x:2}' --from '[4]' --to '[4]')
run_lines 64 'via [4]' check "${ONE[@]}" --plan -
run_lines 65 'via [4]' check "${ONE[@]}" --plan -
run_lines 175000 'via [4]' check "${ONE[@]}" --plan -
run_stdin 'via [4]\n' check --mesh '{x:2}' --from '[4]' --to '[4] sum{x}' --plan -
run_stdin 'all_reduce(x)\nvia [4]\n' check --mesh '{x:2}' --from '[4] sum{x}' --to '[4]' --plan -
run_stdin 'via [4]\n' check --mesh '{x:2}' --from '[4] sum{x}' --to '[4]' --plan -
# profiles: PROFILE stands for a file holding what the comment says
run_profile() {
  local what=$1 text=$2; shift 2
  printf '$ redist'; printf ' %q' "$@"; printf ' --profile PROFILE  # %s\n' "$what"
  local file; file=$(mktemp)
  printf '%s' "$text" >"$file"
  "$redist" "$@" --profile "$file" 2>&1 | sed "s|$file|PROFILE|g"
  printf '[exit %d]\n\n' "${PIPESTATUS[0]}"
  rm -f "$file"
}
DEEP=$(head -c 200000 /dev/zero | tr '\0' '[')
run_profile "200,000 [" "$DEEP" plan "${ONE[@]}"
run_profile '"name": 65 [ then ]' "{\"schema\": \"redist-profile/1\", \"name\": ${DEEP:0:65}${DEEP:0:65}}" plan "${ONE[@]}"
run_profile '"name": 64 [ inside a string, and in a comment' \
  "{\"schema\": \"redist-profile/1\", \"name\": \"${DEEP:0:64}\" /* ${DEEP:0:64} */}" plan "${ONE[@]}"
run_profile 'no across_hosts' '{"schema": "redist-profile/1", "name": "n", "same_host": {"latency_ns": 1, "bytes_per_us": 1}}' \
  plan "${ONE[@]}"
run_profile 'a } on line 2' $'{"schema": "redist-profile/1",\n  "name": [}' plan "${ONE[@]}"
run_bounded plan "${ONE[@]}" --profile /dev/zero
run_bounded plan "${ONE[@]}" --profile /dev/urandom
# single copy on a host (the profile's single_copy, for source arrays from
# redist_alloc): a gather on 4 ranks of one host goes by the collectives'
# all-gathers when every message is priced by MPI, and still when the
# exchange's and the all-gathers' same-host messages are one copy 4 times as
# fast (two all-gathers through no scratch, ahead of the exchange); a
# transpose's all-to-all and a pending sum's reducing exchange by single copy
SC='{"schema": "redist-profile/1", "name": "sc", "same_host": {"latency_ns": 500, "bytes_per_us": 5000}, "across_hosts": {"latency_ns": 1500, "bytes_per_us": 5000}, "copy_bytes_per_us": 20000'
GATHER=(--mesh '{x:4}' --from '[{x}4096]' --to '[4096]')
run_profile 'no single_copy' "$SC}" plan "${GATHER[@]}"
run_profile 'single_copy 4 times as fast as same_host' "$SC, \"single_copy\": {\"latency_ns\": 500, \"bytes_per_us\": 20000}}" plan "${GATHER[@]}"
run_profile 'single_copy as fast as same_host' "$SC, \"single_copy\": {\"latency_ns\": 500, \"bytes_per_us\": 5000}}" plan "${GATHER[@]}"
run_profile 'single_copy, a transpose' "$SC, \"single_copy\": {\"latency_ns\": 500, \"bytes_per_us\": 20000}}" \
  plan --mesh '{x:4}' --from '[{x}64, 64]' --to '[64, {x}64]'
run_profile 'single_copy, a pending sum' "$SC, \"single_copy\": {\"latency_ns\": 500, \"bytes_per_us\": 20000}}" \
  plan --mesh '{x:4}' --from '[4096] sum{x}' --to '[{x}4096]'
run_profile 'single_copy without bytes_per_us' "$SC, \"single_copy\": {\"latency_ns\": 500}}" plan "${GATHER[@]}"
# --hosts: one entry per world rank, no fewer and no more
run plan --mesh '{x:6}' --from '[6]' --to '[6]' --hosts 0,0,1
run plan --mesh '{x:6}' --from '[6]' --to '[6]' --hosts a,a,a,b,b,b,c
run plan --mesh '{x:2}' --from '[6]' --to '[6]' --hosts a,,b
# composed cuts (Part 3): nested ceil blocks in either order, block-cyclic,
# a composition, between two meshes; planned by the region exchange
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[{y}5]'
run plan --mesh '{x:2, y:2}' --from '[{x}{y}8, 4]' --to '[{y}{x}8, 4]' --json
run plan --mesh '{p:2, q:2}' --from '[{p}%2 7, {q}%2 5]' --to '[{p}7, 5]' --dtype f64
run plan --from-mesh '{x:4}' --to-mesh '{x:2, y:2} @ [5, 4, 3, 2]' --from '[{x}%4{}30]' --to '[{x}%3{y}30]' --strategy exchange
pipe_plan_check --mesh '{x:2, y:2}' --from '[{x}%4{y}30, 3]' --to '[{y}{x}30, 3]'
run_stdin 'all_gather(0)\n' check --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[5]' --plan -
# --memory-budget weighs the region exchange's live bytes (a rank's source
# and target local arrays: 20 B here): at the figure, one below it, and check
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[{y}5]' --memory-budget 20
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[{y}5]' --memory-budget 19
run_stdin 'exchange\n' check --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[{y}5]' --plan - --memory-budget 16
# one line for each bad composed form
run plan --mesh '{x:2, y:2}' --from '[{x}{x}5]' --to '[5]'
run plan --mesh '{x:2, y:2}' --from '[{x}5, {y}{x}4]' --to '[5, 4]'
run plan --mesh '{x:2, y:2}' --from '[{x}%0 5]' --to '[5]'
run plan --mesh '{x:2, y:2}' --from '[2{x}{y}5]' --to '[5]'
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[5] sum{x}'
# composed cuts with pending reductions: the reducing region exchange
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}{y}5]' --dtype i32
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] max{y}' --to '[{x}5] max{y}' --dtype f32
run plan --mesh '{x:2, y:2, z:2}' --from '[{x}{y}8] prod{z}' --to '[{y}%2 8] prod{x}' --dtype i64 --json
pipe_plan_check --from-mesh '{x:2, y:2, z:2}' --to-mesh '{p:3} @ [4, 1, 2]' --from '[{x}%2{y}7] min{z}' --to '[{p}%2 7]' --dtype i16
pipe_plan_check --mesh '{x:2, y:2}' --from '[{y}%4 6] sum{x}' --to '[{x}%2 6] sum{y}' --dtype f64
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}{y}5]'
# avg over composed cuts (Lowercutsavg.v): the exchange adds, then one division by the source's group size
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}5] avg{y}' --dtype bf16
run plan --mesh '{x:2, y:2, z:2}' --from '[{x}{y}8] avg{z}' --to '[{y}%2 8] avg{x, z}' --dtype f64 --json
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[{x}5] avg{y}' --dtype f16
run plan --from-mesh '{x:2, y:2}' --to-mesh '{p:2, q:2} @ [3, 2, 1, 0]' --from '[{x}{y}6]' --to '[{p}%2 6] avg{q}' --dtype f32
pipe_plan_check --from-mesh '{x:2, y:2, z:2}' --to-mesh '{p:3} @ [4, 1, 2]' --from '[{x}%2{y}7] avg{z}' --to '[{p}%2 7]' --dtype c64
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}{y}5]' --dtype i32
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}5] sum{y}'
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}{y}5]' --name t
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}5] max{y}'
run plan --mesh '{x:2, y:2}' --from '[{x}%2 5] max{y}' --to '[{x}{y}5]' --dtype bool
# gen prints the reduce_sends and reduce_recvs lists as tables and one reducing
# RegionExchange (test-run runs them; avg adds, then divides once by kAvgDivisor,
# cuts_avg_divisor); nccl stays refused, show refuses it
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}{y}5]' --dtype i32 --name t
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}{y}5]' --backend nccl --name t
run show --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}{y}5]'
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[5]' --strategy collectives
run plan --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[5]' --in-place
# show: what each rank holds, per dimension its intervals (a long list cut
# short with its count), one layout or both sides of a problem
run show --mesh '{x:2, y:2}' --type '[{x}%2 5]'
run show --mesh '{p:2, q:2}' --type '[{p}%2 8, {q}%1 30]'
run show --mesh '{x:2, y:2, z:2}' --type '[4, {z}{x}%2 11, 3]'
run show --mesh '{x:2}' --type '[{x}%2 5]' --json
run show --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 4' --from '[{x}{y}7, 6]' --to '[{z}%2 7, 6]'
run show --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[{y}{x}5]' --json
run show --mesh '{x:2}' --type '[{x}%2 5] sum{x}'
# gen: the extracted region lists as tables and one RegionExchange
run gen --mesh '{x:2, y:2}' --from '[{x}{y}5]' --to '[5]' --dtype i64 --name t
run_stdin 'exchange\n' gen --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[5]' --plan - --name t -o /dev/null
run_stdin 'all_gather(0)\n' gen --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[5]' --plan - --name t -o /dev/null
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[5]' --backend nccl --name t
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5] max{y}' --to '[5] max{x}' --dtype f32 --name t
run gen --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[5]' --name 2t
run run --mesh '{x:2, y:2}' --from '[{x}%2 5]' --to '[5]' --backend nccl

# In place (--in-place): one buffer per rank of max(|src box|, |tgt box|)
# and a staging of the budget less the largest buffer.  Rows to columns on
# 4 ranks: without a budget (the fewest rounds), at the least budget (64 B
# buffer + one element: staging 1, more rounds) and one byte below it.
IP=(--mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place)
run plan "${IP[@]}"
run plan "${IP[@]}" --memory-budget 68
run plan "${IP[@]}" --memory-budget 67
run plan "${IP[@]}" --memory-budget 96 --json
pipe_plan_check "${IP[@]}" --memory-budget 80
# between meshes, uneven: 7 rows over 2 then over 3 ranks
run plan --from-mesh '{x:2}' --to-mesh '{y:3} @ 1' --from '[{x}7, 5]' --to '[{y}7, 5]' --in-place --memory-budget 84
# priced under the machine options: two hosts of two ranks
run plan "${IP[@]}" --ranks-per-host 2
# not yet in place: one line each, exit 2
run plan "${IP[@]}" --strategy collectives
run plan --mesh '{x:2}' --from '[4] sum{x}' --to '[4]' --in-place
run_stdin 'all_gather(0)\n' check --mesh '{x:2}' --from '[{x}4]' --to '[4]' --in-place --plan -
# auto within a budget weighs in place too: at the least budget out of
# place (source + destination, 128 B) the fastest of all, in place among
# the candidates; one byte less only in place fits; below the least in
# place (64 B buffer + one element) refused, naming both figures
IPA=(--mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]')
run plan "${IPA[@]}" --memory-budget 128
run plan "${IPA[@]}" --memory-budget 127
run plan "${IPA[@]}" --memory-budget 67
run plan "${IPA[@]}" --memory-budget 127 --ranks-per-host 2 --json
# beyond the planner's limits: 2048 x 2048 at the least budget (blocks of
# one element, the staging of one) and uneven 2047 x 2047 (blocks of one)
run plan --mesh '{x:4}' --from 'f32[{x}2048, 2048]' --to 'f32[2048, {x}2048]' --in-place --memory-budget 4194308
run plan --mesh '{x:4}' --from 'f32[{x}2047, 2047]' --to 'f32[2047, {x}2047]' --in-place
# gen --in-place: the extracted schedule as constant tables and one call to
# redist::InPlace; what it does not take, one line each
run gen "${IP[@]}" --memory-budget 80 --name rows_to_cols
run gen "${IP[@]}" --memory-budget 67 --name rows_to_cols
run gen "${IP[@]}" --backend nccl --name rows_to_cols
run_stdin 'exchange\n' gen "${IP[@]}" --plan - --name rows_to_cols
run gen --mesh '{x:2}' --from '[4] sum{x}' --to '[4]' --in-place --name sums
