#!/usr/bin/env bash
# test-python: `pip install ./python` into a scratch site (it builds and
# bundles libredist_planner); `make wheel`, installed as user nobody into a
# fresh venv in a temporary directory (no checkout on the path, no root),
# which imports redist, reads __version__ (version.hpp's) and plans; then the package's suites in the venv of `make
# deps` (tests/python/test_*.py, each printing its TAP document: test_plan.py on
# redist.plan's arguments, test_jax.py on 16 host CPU devices, test_torch.py
# on 4 gloo processes, test_mpi.py on 4 ranks of mpirun), and the README's examples as written
# (python/README.md; README.md shows the same).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
site=_build/python-site
python=$PY_VENV/bin/python
rm -rf "$site"
if log=$("$python" -m pip install -q --no-build-isolation --no-deps --target "$site" ./python 2>&1) &&
   [ -f "$site/redist/libredist_planner.so" ]; then
  ok "pip install ./python: the package with its libredist_planner.so"
else
  ko "pip install ./python: $log"; tap_end; exit 1
fi
unset REDIST_LIB  # the bundled library, as an installed package finds it
version=$(sed -n 's/^#define REDIST_VERSION "\(.*\)"$/\1/p' runtime/include/redist/version.hpp)
if site_version=$(PYTHONPATH=$site "$python" -c 'import redist; print(redist.__version__)' 2>&1) &&
   [ "$site_version" = "$version" ]; then
  ok "redist.__version__ is runtime/include/redist/version.hpp's: $version"
else
  ko "redist.__version__: $site_version, version.hpp says $version"
fi
wheel_check() {
  make -s wheel PY_VENV="$PY_VENV" >/dev/null || { echo "make wheel failed"; return 1; }
  local wheel=dist/redist-$version-py3-none-linux_$(uname -m).whl tmp
  [ -f "$wheel" ] || { echo "no $wheel"; return 1; }
  tmp=$(mktemp -d) && chown nobody "$tmp" && cp "$wheel" "$tmp/"
  # As nobody, with an empty environment: no checkout, no REDIST_LIB, no PYTHONPATH.
  setpriv --reuid=nobody --regid=nogroup --clear-groups env -i HOME="$tmp" PATH=/usr/bin:/bin sh -c '
    cd "$1" && /usr/bin/python3 -m venv venv && venv/bin/pip install -q --no-index ./*.whl &&
    venv/bin/python -c "
import redist
p = redist.plan(\"{x:2, y:2}\", \"[{x}8, {y}4]\", \"[{y}8, {x}4]\", \"f32\")
print(redist.__version__, redist.__file__, len(p.step_texts), p.live_bytes)"' sh "$tmp"
  local rc=$?
  rm -rf "$tmp"
  return $rc
}
# Planning loads no MPI library: the bundled planner names none it needs.
needed=$(readelf -d "$site/redist/libredist_planner.so" | grep NEEDED)
if grep -qi mpi <<<"$needed"; then ko "libredist_planner.so needs an MPI library: $needed"
else ok "libredist_planner.so needs no MPI library ($(grep -o '\[[^]]*\]' <<<"$needed" | tr -d '[]' | tr '\n' ' '))"; fi
if out=$(wheel_check 2>&1) && read -r got where steps _ <<<"$out" && [ "$got" = "$version" ] &&
   [[ $where == */venv/lib/* && $where != "$PWD"/* ]] && [ "$steps" -gt 0 ]; then
  ok "make wheel: installed by nobody into a fresh venv without the checkout, it imports ($where), is $got and plans"
else
  ko "make wheel: $out"
fi
export PYTHONPATH=$PWD/$site
for suite in tests/python/test_plan.py tests/python/test_jax.py tests/python/test_torch.py; do
  tap_program "$suite" timeout --kill-after=10 600 "$python" "$suite"
done
# redist.mpi and transport="mpi": 4 ranks of mpirun, the C ABI of `make runtime`,
# torch.distributed's gloo group rendezvousing in a scratch file.
store=$(mktemp -u)
REDIST_MPI_LIB=$PWD/_build/prefix/lib/libredist_plan.so tap_program tests/python/test_mpi.py \
  timeout --kill-after=10 600 "${MPIRUN[@]}" -np 4 "$python" tests/python/test_mpi.py "$store"
rm -f "$store"
store=$(mktemp -u)
REDIST_MPI_LIB=$PWD/_build/prefix/lib/libredist_plan.so tap_program tests/python/test_in_place.py \
  timeout --kill-after=10 600 "${MPIRUN[@]}" -np 4 "$python" tests/python/test_in_place.py "$store"
rm -f "$store"
# A buffer never freed: one line at exit naming each rank, and a clean exit (MPI_Finalize releases it).
if out=$(REDIST_MPI_LIB=$PWD/_build/prefix/lib/libredist_plan.so timeout --kill-after=10 120 "${MPIRUN[@]}" -np 2 \
         "$python" -c 'import redist.mpi; redist.mpi.empty((4,), "f4")' 2>&1) &&
   [ "$(grep -c 'not freed at exit on rank [01] ' <<<"$out")" = 2 ] && [ "$(wc -l <<<"$out")" = 2 ]; then
  ok "redist.mpi.empty never freed: one line at exit on each rank, exit status 0"
else
  ko "redist.mpi.empty never freed: $out"
fi

# python/README.md's examples, each ```python block run as written.
examples=_build/python-readme
blocks() { awk '/^```python$/ {n++; print "# example " n; f = 1; next} /^```$/ {f = 0} f' "$1"; }
rm -rf "$examples" && mkdir -p "$examples"
blocks python/README.md | awk -v dir="$examples" '/^# example / {f = dir "/example" $3 ".py"; next} {print > f}'
for example in "$examples"/example*.py; do
  if out=$(cd "$examples" && timeout --kill-after=10 300 "$python" "$(basename "$example")" 2>&1); then
    ok "python/README.md $(basename "$example" .py): $(wc -l <"$example") lines, ran as written"
  else
    ko "python/README.md $(basename "$example" .py): $(tail -3 <<<"$out")"
  fi
done
[ -f "$examples/example2.py" ] || ko "python/README.md: expected a JAX and a PyTorch example"
if diff <(blocks python/README.md) <(blocks README.md) >/dev/null; then
  ok "README.md shows python/README.md's examples as they are"
else
  ko "README.md's Python examples differ from python/README.md's"
fi
tap_end
