# Benchmarks (not part of `make test`): redist against the gather-everything
# plan, XLA, PyTorch DTensor, one MPI_Alltoallv and ScaLAPACK's psgemr2d.
#   make bench         the full run (under 15 minutes on 2 cores), report in bench/results/
#   make bench-quick   3 problems, 3 repetitions: a smoke test of the harness
#   make bench-plan    CPU time of `redist plan` and `redist check` against mesh size
# Included from the top Makefile (`-include bench/bench.mk`), so ROOT,
# `deps`, `build` (the redist command) and `runtime` (the runtime staged in _build/prefix) exist.
BENCH_VENV := $(ROOT)/bench/.venv
BENCH_DEBS := libscalapack-openmpi-dev python3-venv
# PyPI's torch wheel is the CUDA build (its CUDA libraries come along as
# wheels); the CPU-only wheel is not on PyPI.  It runs on CPU all the same.
BENCH_PIP := jax[cpu] torch numpy matplotlib

.PHONY: bench bench-quick bench-deps bench-plan

bench-deps: deps
	$(call install_debs,bench-deps,$(BENCH_DEBS))
	@if ! $(BENCH_VENV)/bin/python -c 'import jax, torch, numpy, matplotlib' 2>/dev/null; then \
	  echo "make bench-deps: installing $(BENCH_PIP) into bench/.venv"; \
	  python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q $(BENCH_PIP); \
	fi

# The HLO reader's own checks run first: XLA's traffic figures rest on it.
bench: bench-deps build runtime
	@$(BENCH_VENV)/bin/python bench/test_hlo_traffic.py
	@$(BENCH_VENV)/bin/python bench/run.py

bench-quick: bench-deps build runtime
	@$(BENCH_VENV)/bin/python bench/test_hlo_traffic.py
	@$(BENCH_VENV)/bin/python bench/run.py --quick --out $(ROOT)/bench/build/results-quick

# Planning and checking time (issue 12): OCaml only, about a minute.
bench-plan: build
	@dune build -j 1 ./bench/plan_time/bench_plan.exe 2>&1
	@./_build/default/bench/plan_time/bench_plan.exe
