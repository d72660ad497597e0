# The step-by-step differential test (included by the top Makefile): the
# runtime's plan interpreter, Exchange and ReducingExchange against the
# extracted semantics, every byte of every rank, on 1,000 random single
# steps, 200 random plans and 200 random direct exchanges, and with pending
# sums 150 random single reductions or add_pending steps, 100 random plans
# and 100 random reducing exchanges (uneven, two meshes and one in turn).
.PHONY: test-diff-steps

DIFF_SEED ?= 20261123

test-diff-steps: build runtime
	@tests/diff/run.sh diff-steps 1000 200 200 150 100 100 $(DIFF_SEED)
