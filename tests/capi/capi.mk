# The C ABI (runtime/include/redist/redist.h) and the plan interpreter
# (included by the top Makefile; tests/capi/run.sh says what is tested).
.PHONY: test-capi
test-capi: build runtime
	@dune build -j 1 ./tests/cli/random_problems.exe 2>&1
	@tests/capi/run.sh

# The C ABI fuzz (tests/capi/fuzz.sh): 100,000 generated inputs, one
# property, under ASan and UBSan against libredist_plan built with them (the
# C ABI's target in runtime-asan's build, configured there).  `make fuzz-capi
# FUZZ_CAPI_COUNT=N FUZZ_CAPI_SEED=S` runs more, or another stream.
FUZZ_CAPI_COUNT ?= 1000000
.PHONY: test-capi-fuzz fuzz-capi runtime-asan-plan
runtime-asan-plan: runtime-asan
	$(call runtime_build,$(RUNTIME_ASAN_BUILD),,redist_plan)

test-capi-fuzz: build runtime-asan-plan
	@tests/capi/fuzz.sh 100000

fuzz-capi: build runtime-asan-plan
	@tests/capi/fuzz.sh $(FUZZ_CAPI_COUNT) $(FUZZ_CAPI_SEED)
