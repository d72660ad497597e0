# The one table of test suites: `make test` runs exactly these, in this
# order, through tests/harness.sh.  Each is a make target that exits
# non-zero on failure and prints a closing line "LABEL: N passed, N
# failed[, N skipped]" counting tests (a property test is one test, its case
# count beside it); the targets are defined in the fragment named beside
# them, which the top Makefile includes.
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
  test-run             \
  test-run-agree       \
  test-run-disagree    \
  test-capi            \
  test-capi-fuzz       \
  test-diff-steps      \
  test-docs            \
  test-python
# proofs, extraction, OCaml: below; test-cli-*: codegen/codegen.mk;
# test-runtime*, test-sanitize, test-nccl*: runtime/runtime.mk;
# test-e2e, test-e2e-exchange, test-e2e-sums, test-run, test-run-agree,
# test-run-disagree: tests/e2e/e2e.mk; test-capi, test-capi-fuzz: tests/capi/capi.mk;
# test-diff-steps: tests/diff/diff.mk; test-docs: tests/docs/docs.mk;
# test-python: python/python.mk.

.PHONY: $(TEST_SUITES)

test-proofs: proofs

# Every headline theorem must be closed under the global context.
test-assumptions: proofs
	@cd proofs && coqc -R . Redist Assumptions.v > $(ROOT)/_build/assumptions.txt 2>&1 || { cat $(ROOT)/_build/assumptions.txt; exit 1; }
	@python3 tests/check_assumptions.py proofs/Assumptions.v $(ROOT)/_build/assumptions.txt

test-extraction: extract-check

test-ocaml: build
	@tests/alcotest_count.sh
