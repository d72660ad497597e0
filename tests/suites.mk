# Each suite is a make target that exits non-zero on failure and may print
# its own "N passed, N failed" line; tests/harness.sh adds them up.
TEST_SUITES := test-proofs test-assumptions test-extraction test-ocaml

.PHONY: $(TEST_SUITES)

test-proofs: proofs

# Every headline theorem must be closed under the global context.
test-assumptions: proofs
	@cd proofs && coqc -R . Redist Assumptions.v > $(ROOT)/_build/assumptions.txt 2>&1 || { cat $(ROOT)/_build/assumptions.txt; exit 1; }
	@python3 tests/check_assumptions.py proofs/Assumptions.v $(ROOT)/_build/assumptions.txt

test-extraction: extract-check

test-ocaml: build
	tests/alcotest_count.sh
