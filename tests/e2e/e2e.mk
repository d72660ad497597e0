# `make demo` (included by the top Makefile; the end-to-end suites, test-e2e*,
# test-run*, test-long, are run by tests/suites.mk).

# The paper's point on a 2x2x2 mesh: moving a [x]-by-[y,z] sharded matrix to
# the transposed sharding, the obvious plan gathers the whole array on every
# device; redist's plan never holds more than one shard.
DEMO_ARGS := --mesh '{x:2, y:2, z:2}' --from '[64{x}128, 32{y,z}128]' --to '[32{z,y}128, 64{x}128]' --dtype f64
.PHONY: demo
demo: build runtime
	@echo "\$$ redist plan $(DEMO_ARGS)"
	@_build/default/codegen/main.exe plan $(DEMO_ARGS)
	@echo
	@echo "\$$ redist run $(DEMO_ARGS)"
	@_build/default/codegen/main.exe run $(DEMO_ARGS)
