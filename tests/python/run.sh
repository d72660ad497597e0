#!/usr/bin/env bash
# test-python: `pip install ./python` into a scratch site (it builds and
# bundles libredist_plan), then the package's suites in the venv of `make
# deps` (tests/python/test_*.py, each printing ok/FAIL lines: test_jax.py on
# 16 host CPU devices, test_torch.py on 4 gloo processes), and the README's
# examples as written (python/README.md).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
site=_build/python-site
python=$PY_VENV/bin/python
rm -rf "$site"
if log=$("$python" -m pip install -q --no-build-isolation --no-deps --target "$site" ./python 2>&1) &&
   [ -f "$site/redist/libredist_plan.so" ]; then
  ok "pip install ./python: the package with its libredist_plan.so"
else
  ko "pip install ./python: $log"; report test-python; exit 1
fi
unset REDIST_LIB  # the bundled library, as an installed package finds it
export PYTHONPATH=$PWD/$site
for suite in tests/python/test_jax.py tests/python/test_torch.py; do
  out=$(timeout --kill-after=10 600 "$python" "$suite" 2>&1)
  rc=$?
  grep -E '^(ok|FAIL) ' <<<"$out"
  pass=$((pass + $(grep -c '^ok ' <<<"$out")))
  fail=$((fail + $(grep -c '^FAIL ' <<<"$out")))
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' <<<"$out"; then
    ko "$suite exited $rc: $(tail -3 <<<"$out")"
  fi
done
report test-python
