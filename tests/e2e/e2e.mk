# End-to-end: `make demo`, the random end-to-end suites and the checks of
# `redist run` (included by the top Makefile).  Serial builds: two cores.
.PHONY: demo test-e2e test-e2e-exchange test-e2e-sums test-long test-large-message test-run test-run-agree test-run-disagree

E2E_SEED ?= 20211203

# 300 random problems, 75 to a translation unit, one mpirun per mesh size.
test-e2e: build runtime
	@tests/e2e/run.sh e2e 300 75 $(E2E_SEED)

# 300 random problems of the direct exchange (uneven, cross-mesh, even ones
# by both strategies), 100 to a translation unit, one mpirun per world size.
test-e2e-exchange: build runtime
	@tests/e2e/exchange.sh e2e-exchange 300 100

# 160 random problems with pending sums (1-3 pending axes; sharded,
# replicated and pending targets; integer dtypes), 80 to a translation unit.
test-e2e-sums: build runtime
	@tests/e2e/sums.sh e2e-sums 160 80

# Not in `make test`: 5,000 problems, 250 to a translation unit, and one
# message over 2 GiB (about 13 GiB of memory, else skipped).
test-long: build runtime test-large-message
	@tests/e2e/run.sh e2e-long 5000 250 $(E2E_SEED)
	@tests/e2e/exchange.sh e2e-exchange-long 5000 250
	@tests/e2e/sums.sh e2e-sums-long 2000 250

test-large-message: build runtime
	@tests/e2e/large_message.sh

# redist run itself: verified runs, its JSON, and each failure class as a
# one-line error with its exit code.
test-run: build runtime
	@tests/e2e/run_cli.sh

# A generated run() with one rank's buffer short or null: an error on every
# rank, no hang (issue 12).
test-run-agree: build runtime
	@tests/e2e/agree.sh

# Ranks that run different problems (generated headers, 7 of the issue's
# cases and 24 random mutations; the C ABI, 6 cases and a control) on 4
# ranks: every rank refused alike, none waiting.
test-run-disagree: build runtime
	@tests/e2e/disagree.sh

# The paper's point on a 2x2x2 mesh: moving a [x]-by-[y,z] sharded matrix to
# the transposed sharding, the obvious plan gathers the whole array on every
# device; redist's plan never holds more than one shard.
DEMO_ARGS := --mesh '{x:2, y:2, z:2}' --from '[64{x}128, 32{y,z}128]' --to '[32{z,y}128, 64{x}128]' --dtype f64
demo: build runtime
	@echo "\$$ redist plan $(DEMO_ARGS)"
	@_build/default/codegen/main.exe plan $(DEMO_ARGS)
	@echo
	@echo "\$$ redist run $(DEMO_ARGS)"
	@_build/default/codegen/main.exe run $(DEMO_ARGS)
