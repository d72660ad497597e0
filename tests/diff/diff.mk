# The step-by-step differential test (included by the top Makefile): the
# runtime's plan interpreter, Exchange and ReducingExchange, and hybrids
# through the C ABI, against the extracted semantics, every byte of every
# rank, on 1,000 random single steps, 200 random plans and 200 random direct
# exchanges; with pending sums 150 random single reductions or add_pending
# steps, 100 random plans and 100 random reducing exchanges (uneven, two
# meshes and one in turn); 60 random hybrids (of the four kinds in turn);
# 60 direct and 40 reducing exchanges at permuted rank lists (one mesh, two
# meshes in turn); and 12 cases on 64 ranks (two of each kind: a step, a
# plan, an exchange, a hybrid, a pending-sum plan, a reducing exchange).
.PHONY: test-diff-steps

DIFF_SEED ?= 20261123

test-diff-steps: build runtime
	@tests/diff/run.sh diff-steps 1000 200 200 150 100 100 60 60 40 12 $(DIFF_SEED)
