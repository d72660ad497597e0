# Benchmarks (not part of `make test`): redist (auto, collectives, exchange)
# against the gather-everything plan, XLA, PyTorch DTensor, one MPI_Alltoallv,
# ScaLAPACK's psgemr2d and FFTW-MPI's transpose.
#   make bench         BENCH_RUNS full runs (bench/results/runK), then the report over them in bench/results/
#   make bench-quick   4 plain and 2 pending-sum problems, 3 repetitions: a smoke test of the harness
#   make bench-sums    the pending-sum suite (issue 14; max and avg, issue 27): BENCH_RUNS runs into bench/results/sums/runK,
#                      then its table over them in bench/results/sums
# One pipeline (bench/run.py) serves both: a problem's pending sums are a
# parameter of its driver, runners and report.
#   make bench-plan    CPU time of `redist plan` and `redist check` against mesh size
# Included from the top Makefile (`-include bench/bench.mk`), so ROOT,
# `deps`, `build` (the redist command) and `runtime` (the runtime staged in _build/prefix) exist.
# The Python peers (JAX, PyTorch) and the plots run in the tests' virtual
# environment (python/python.mk: the same packages, installed once).
BENCH_VENV = $(PY_VENV)
BENCH_DEBS := libscalapack-openmpi-dev libfftw3-mpi-dev libfftw3-dev
BENCH_RUNS ?= 3

.PHONY: bench bench-quick bench-sums bench-deps bench-plan

bench-deps: deps python-venv
	$(call install_debs,bench-deps,$(BENCH_DEBS))

# The HLO reader's own checks run first: XLA's traffic figures rest on it.
bench: bench-deps build runtime
	@$(BENCH_VENV)/bin/python bench/test_hlo_traffic.py
	@for k in $$(seq $(BENCH_RUNS)); do \
	  echo "make bench: run $$k of $(BENCH_RUNS), progress in bench/results/run$$k.log"; \
	  $(BENCH_VENV)/bin/python bench/run.py --out $(ROOT)/bench/results/run$$k > $(ROOT)/bench/results/run$$k.log || exit 1; \
	done
	@$(BENCH_VENV)/bin/python bench/report.py $$(seq -f '$(ROOT)/bench/results/run%g' $(BENCH_RUNS)) --out $(ROOT)/bench/results
	@$(BENCH_VENV)/bin/python bench/cost_rank.py $$(seq -f '$(ROOT)/bench/results/run%g' $(BENCH_RUNS)) \
	  | tee $(ROOT)/bench/results/cost_rank.txt

bench-quick: bench-deps build runtime
	@$(BENCH_VENV)/bin/python bench/test_hlo_traffic.py
	@$(BENCH_VENV)/bin/python bench/run.py --quick --out $(ROOT)/bench/build/results-quick

# Reduce-scatter and all-reduce of partial sums against plain MPI, XLA and DTensor.
bench-sums: bench-deps build runtime
	@for k in $$(seq $(BENCH_RUNS)); do \
	  echo "make bench-sums: run $$k of $(BENCH_RUNS), progress in bench/results/sums/run$$k.log"; \
	  $(BENCH_VENV)/bin/python bench/run.py --suites sums --out $(ROOT)/bench/results/sums/run$$k \
	    > $(ROOT)/bench/results/sums/run$$k.log || exit 1; \
	done
	@$(BENCH_VENV)/bin/python bench/report.py $$(seq -f '$(ROOT)/bench/results/sums/run%g' $(BENCH_RUNS)) \
	  --out $(ROOT)/bench/results/sums

# Planning and checking time (issue 12), then the cost model's costing
# against its estimate and the costing tiers (issue 16): OCaml only, about
# two minutes.
bench-plan: build
	@dune build -j 1 ./bench/plan_time/bench_plan.exe ./bench/plan_time/costing_tiers.exe 2>&1
	@./_build/default/bench/plan_time/bench_plan.exe
	@./_build/default/bench/plan_time/costing_tiers.exe

# Single copy on a host (issue 30, bench/shm.cpp): a 64 MiB-per-rank direct
# exchange with its source on the heap (today's transport) and from
# redist::shared_alloc (read in place), against a memcpy of the same bytes,
# on 2 and 4 ranks, 7 repetitions, every element checked; under the tests'
# mpirun (tests/lib.sh: shared memory without CMA, as `redist run`), then
# with CMA where the machine permits it.
.PHONY: bench-shm
bench-shm: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I$(RUNTIME_PREFIX)/include bench/shm.cpp $(RUNTIME_PREFIX)/lib/libredist_plan.a \
	  $(RUNTIME_PREFIX)/lib/libredist_mpi.a $(RUNTIME_PREFIX)/lib/libredist_common.a -ldl -lm -o $(ROOT)/_build/bench-shm
	@for n in 2 4; do $(MPIRUN) -np $$n $(ROOT)/_build/bench-shm 7 64 || exit 1; done
	@echo "with btl_vader_single_copy_mechanism cma:"
	@for n in 2 4; do $(MPIRUN:none=cma) -np $$n $(ROOT)/_build/bench-shm 7 64 \
	  || { echo "CMA is not permitted here"; break; }; done

# In place beside out of place (issue 28, bench/inplace.cpp): the large
# suite through the C ABI, redist_plan_create_in_place at staging of 5% and
# 25% of the largest buffer beside the out-of-place exchange and FFTW-MPI's
# in-place transpose, memory per rank, every element checked; BENCH_REPS
# runs each, BENCH_ONLY=name,... a part of the suite (its table into
# bench/build/inplace, leaving the committed one).
BENCH_REPS ?= 3
BENCH_ONLY ?=
.PHONY: bench-inplace
bench-inplace: bench-deps runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I$(ROOT)/bench $$(PKG_CONFIG_PATH=$(RUNTIME_PREFIX)/lib/pkgconfig pkg-config --cflags redist_plan) \
	  bench/inplace.cpp bench/fftw.cpp bench/heap_counter.cpp \
	  $$(PKG_CONFIG_PATH=$(RUNTIME_PREFIX)/lib/pkgconfig pkg-config --libs --static redist_plan) -lfftw3f_mpi -lfftw3f -o $(ROOT)/_build/bench-inplace
	@$(BENCH_VENV)/bin/python bench/inplace.py $(ROOT)/_build/bench-inplace --reps $(BENCH_REPS) \
	  $(if $(BENCH_ONLY),--only $(BENCH_ONLY) --out $(ROOT)/bench/build/inplace,--out $(ROOT)/bench/results/inplace)
