# The step-by-step differential test (included by the top Makefile): the
# runtime's plan interpreter and Exchange against the extracted semantics, every byte of
# every rank, on 1,000 random single steps, 200 random plans and 200 random
# direct exchanges.
.PHONY: test-diff-steps

DIFF_SEED ?= 20261123

test-diff-steps: build runtime
	@tests/diff/run.sh diff-steps 1000 200 200 $(DIFF_SEED)
