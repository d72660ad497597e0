# The one table of test suites and their run rules: `make test` runs exactly
# the suites of TEST_SUITES, in this order, through tests/harness.sh, and
# `make test-NAME` runs one.  Every runner prints its results in one
# protocol, TAP 13 (shell: tests/lib.sh; Python: tests/tap.py; OCaml:
# tests/tap/; the C++ test mains print it themselves), and
# tests/tap_count.sh, the one counter, closes each suite with "NAME: N
# passed, N failed[, N skipped]" (a property test is one test, its case
# count beside it).  What the suites build is defined in the fragment of its
# component: codegen/codegen.mk, runtime/runtime.mk, tests/capi/capi.mk,
# python/python.mk.
TEST_SUITES := \
  test-proofs          \
  test-assumptions     \
  test-extraction      \
  test-ocaml           \
  test-cli-expect      \
  test-cli-unit        \
  test-cli-robust      \
  test-cli-json        \
  test-cli-cxx         \
  test-cli-calibrate   \
  test-runtime         \
  test-runtime-blocks  \
  test-sanitize        \
  test-runtime-install \
  test-nccl            \
  test-nccl-emulated   \
  test-e2e             \
  test-e2e-exchange    \
  test-e2e-sums        \
  test-e2e-in-place    \
  test-run             \
  test-run-agree       \
  test-run-disagree    \
  test-capi            \
  test-capi-fuzz       \
  test-capi-in-place   \
  test-capi-cuts       \
  test-diff-steps      \
  test-docs            \
  test-python
# Test runs outside `make test`: longer, or more memory than a small machine has.
LONG_SUITES := test-long test-large-message fuzz-capi

.PHONY: $(TEST_SUITES) $(LONG_SUITES)

# `@$(SUITE) COMMAND`: runs COMMAND, a runner printing TAP, as the suite of
# the target, labelled NAME for test-NAME.
SUITE = tests/tap_count.sh $(@:test-%=%)

# ---- proofs and extraction ----------------------------------------------------
test-proofs: deps-proofs proofs/CoqMakefile
	@$(SUITE) tests/exit_test.sh "coqc checks every proof of proofs/" $(MAKE) --no-print-directory -C proofs -f CoqMakefile

# Every headline theorem must be closed under the global context: one test
# per `Print Assumptions` of proofs/Assumptions.v.
test-assumptions: proofs
	@cd proofs && coqc -R . Redist Assumptions.v > $(ROOT)/_build/assumptions.txt 2>&1 || cat $(ROOT)/_build/assumptions.txt
	@$(SUITE) python3 tests/check_assumptions.py proofs/Assumptions.v $(ROOT)/_build/assumptions.txt

test-extraction: proofs
	@$(SUITE) tests/exit_test.sh "extracted/ is what proofs/Extraction.v extracts" $(MAKE) --no-print-directory extract-check

# ---- OCaml: the planner's and the command's libraries -------------------------
# The alcotest suites of tests/ocaml (dune's test stanzas), one TAP document each.
test-ocaml: build
	@$(SUITE) dune test -j 1 --force

# Unit tests of the command's library (alcotest).
test-cli-unit: build
	@$(SUITE) dune build -j 1 --force @tests/cli/cli-unit

# Every command on a handful of problems, output and exit code diffed
# against tests/cli/cases.expected: one test per case.
test-cli-expect: build
	@$(SUITE) tests/cli/expect_count.sh

# One property over 100,000 random and mutated inputs (qcheck, fixed seed):
# only clean errors.
test-cli-robust: build
	@$(SUITE) dune build -j 1 --force @tests/cli/cli-robust

# Every command's --json output (successes and errors) validated against
# docs/schema/redist-1.json.
test-cli-json: build
	@$(SUITE) tests/cli/json_schema.sh

# Generated headers compiled with -Wall -Wextra -Werror against the runtime,
# and run under mpirun where the mesh has at most 8 devices.
test-cli-cxx: build runtime
	@$(SUITE) tests/cli/gen_cxx.sh

# redist calibrate under mpirun writes a profile that plan reads back
# (compiled against the runtime, for its single copy on a host).
test-cli-calibrate: build runtime
	@$(SUITE) tests/cli/calibrate.sh

# ---- the runtime ---------------------------------------------------------------
# The MPI backend's doctest suite under mpirun, np = 1 2 3 4 6 8: one test
# per test case and world size.
test-runtime: runtime-tests
	@$(SUITE) tests/runtime/run.sh $(RUNTIME_BUILD)/redist_runtime_tests

# The same suite against the MPI backend built with 7-byte message blocks:
# checks the derived datatypes that carry messages over 1 GiB (2 GiB and more
# included) on arrays of a few bytes.  Communication needs two ranks or more.
test-runtime-blocks: runtime-tests-blocks
	@REDIST_TEST_SIZES="2 3 4 8" $(SUITE) tests/runtime/run.sh $(RUNTIME_BUILD)/redist_runtime_tests_small_blocks

# The same with ASan + UBSan.  Open MPI's own allocations show up as leaks at
# exit, so leak detection is off; every other ASan and UBSan finding aborts
# the rank and fails the run.  World sizes 1 2 4 6 (not 3 and 8) keep it
# near a minute on two cores.
test-sanitize: runtime-asan
	@REDIST_TEST_SIZES="1 2 4 6" $(SUITE) tests/runtime/run.sh $(RUNTIME_ASAN_BUILD)/redist_runtime_tests \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# `make install` into a scratch prefix (install-test-prefix), then
# examples/worked_example built against it twice, through
# find_package(redist) and through pkg-config, and both run under mpirun.
test-runtime-install: install-test-prefix
	@REDIST_SUBCOMMANDS="$(REDIST_SUBCOMMANDS)" $(SUITE) tests/runtime/install.sh $(INSTALL_TEST)/prefix $(INSTALL_TEST)

# The NCCL backend's tests: without a GPU the GPU cases are reported as
# skipped, not passed; without CUDA and NCCL the suite is one skipped test.
test-nccl: runtime
	@$(SUITE) tests/runtime_gpu/if_built.sh REDIST_NCCL_BUILT "no nvcc / CUDA runtime / NCCL found: NCCL backend not built" \
	  bash -c 'tests/exit_test.sh "the NCCL backend, its tests and kernel benchmark build" $(MAKE) --no-print-directory nccl && \
	    tests/runtime_gpu/run.sh $(RUNTIME_BUILD)/redist_gpu_tests'

# The GPU tests against the emulation, on 1..8 ranks: this checks the
# backend's host logic (buffers, groups, tables, agreement) where no GPU
# exists; it says nothing about the CUDA kernel or real NCCL.  The arrays
# of 2^31 bytes are too big for a small machine.  The benchmark runs once,
# small, to check that all its cases are valid calls (its figures are
# host memcpy speeds and mean nothing): one test.
test-nccl-emulated: runtime
	@$(SUITE) tests/runtime_gpu/if_built.sh REDIST_NCCL_HEADERS_FOUND "no CUDA or NCCL headers found" \
	  bash -c 'tests/exit_test.sh "the NCCL backend tests build against the emulation" $(MAKE) --no-print-directory nccl-emulated && \
	    tests/exit_test.sh "the kernel benchmark runs its cases (emulated)" \
	      $(RUNTIME_BUILD)/pack_bandwidth_emulated --mib 1 --reps 1 && \
	    REDIST_GPU_RANKS="1 2 3 4 6 8" tests/runtime_gpu/run.sh $(RUNTIME_BUILD)/redist_gpu_tests_emulated \
	      --skip "arrays of about"'

# ---- end to end -------------------------------------------------------------------
E2E_SEED ?= 20211203

# 300 random problems, 75 to a translation unit, one mpirun per mesh size.
test-e2e: build runtime
	@$(SUITE) tests/e2e/run.sh e2e 300 75 $(E2E_SEED)

# 300 random problems of the direct exchange (uneven, cross-mesh, even ones
# by both strategies), 100 to a translation unit, one mpirun per world size.
test-e2e-exchange: build runtime
	@$(SUITE) tests/e2e/exchange.sh e2e-exchange 300 100

# 160 random problems with pending sums (1-3 pending axes; sharded,
# replicated and pending targets; integer dtypes), 80 to a translation unit.
test-e2e-sums: build runtime
	@$(SUITE) tests/e2e/sums.sh e2e-sums 240 120

# 200 random problems of the exchange in place (uneven, cross-mesh, even;
# budgets from the least accepted to none) through gen --in-place's header,
# 100 to a translation unit, one test per problem; per world size, a null
# table and ranks with different headers refused on every rank.
test-e2e-in-place: build runtime
	@$(SUITE) tests/e2e/in_place.sh e2e-in-place 200 100

# Not in `make test`: 5,000 problems, 250 to a translation unit, of each
# random end-to-end suite, and one message over 2 GiB (about 13 GiB of
# memory, else skipped).
test-long: build runtime
	@$(SUITE) bash -c 'tests/e2e/large_message.sh; tests/e2e/run.sh e2e-long 5000 250 $(E2E_SEED); \
	  tests/e2e/exchange.sh e2e-exchange-long 5000 250; tests/e2e/sums.sh e2e-sums-long 2000 250'

test-large-message: build runtime
	@$(SUITE) tests/e2e/large_message.sh

# redist run itself: verified runs, its JSON, and each failure class as a
# one-line error with its exit code.
test-run: build runtime
	@$(SUITE) tests/e2e/run_cli.sh

# A generated run() with one rank's buffer short or null: an error on every
# rank, no hang (issue 12).
test-run-agree: build runtime
	@$(SUITE) tests/e2e/agree.sh

# Ranks that run different problems (generated headers, 7 of the issue's
# cases and 24 random mutations; the C ABI, 6 cases and a control) on 4
# ranks: every rank refused alike, none waiting.
test-run-disagree: build runtime
	@$(SUITE) tests/e2e/disagree.sh

# ---- the C ABI ---------------------------------------------------------------------
# The C ABI (runtime/include/redist/redist.h) and the plan interpreter
# (tests/capi/run.sh says what is tested).
test-capi: build runtime random-problems
	@$(SUITE) tests/capi/run.sh

# In place through the C ABI (tests/capi/in_place.sh): 200 random
# problems on 2 to 8 ranks, every element and the heap during the run
# checked, and the misuse cases.
test-capi-in-place: build runtime
	@$(SUITE) tests/capi/in_place.sh

# Composed cuts through the C ABI (tests/capi/cuts.sh): 80 random problems
# on 2 to 4 ranks and the DTensor and ScaLAPACK cases, every element checked.
test-capi-cuts: build runtime
	@$(SUITE) tests/capi/cuts.sh

# The C ABI fuzz (tests/capi/fuzz.sh): 100,000 generated inputs, one
# property, under ASan and UBSan against libredist_plan built with them.
# `make fuzz-capi FUZZ_CAPI_COUNT=N FUZZ_CAPI_SEED=S` runs more, or another
# stream.
FUZZ_CAPI_COUNT ?= 1000000
test-capi-fuzz: build runtime-asan-plan
	@$(SUITE) tests/capi/fuzz.sh 100000

fuzz-capi: build runtime-asan-plan
	@$(SUITE) tests/capi/fuzz.sh $(FUZZ_CAPI_COUNT) $(FUZZ_CAPI_SEED)

# ---- the step-by-step differential test ----------------------------------------------
# The runtime's plan interpreter, Exchange and ReducingExchange, and hybrids
# through the C ABI, against the extracted semantics, every byte of every
# rank, on 1,000 random single steps, 200 random plans and 200 random direct
# exchanges; with pending sums 150 random single reductions or add_pending
# steps, 100 random plans and 100 random reducing exchanges (uneven, two
# meshes and one in turn); 60 random hybrids (of the four kinds in turn);
# 60 direct and 40 reducing exchanges at permuted rank lists (one mesh, two
# meshes in turn); and 12 cases on 64 ranks (two of each kind: a step, a
# plan, an exchange, a hybrid, a pending-sum plan, a reducing exchange).
DIFF_SEED ?= 20261123
test-diff-steps: build runtime
	@$(SUITE) tests/diff/run.sh diff-steps 1000 200 200 150 100 100 60 60 40 12 $(DIFF_SEED)

# ---- documentation and the Python package ---------------------------------------------
# Documentation that cannot drift: every `$ redist ...` example of README.md
# and codegen/README.md is run and what it prints compared with what the
# file shows (tests/docs/doc_examples.py says how `...` elides); one test
# per example.
DOC_EXAMPLE_FILES := README.md codegen/README.md
test-docs: build runtime
	@$(SUITE) python3 tests/docs/doc_examples.py _build/install/default/bin $(DOC_EXAMPLE_FILES)

# pip installs ./python (which builds libredist_plan with `make runtime` and
# bundles it) into _build/python-site and runs tests/python/run.sh.
test-python: runtime python-venv
	@PY_VENV=$(PY_VENV) $(SUITE) tests/python/run.sh
