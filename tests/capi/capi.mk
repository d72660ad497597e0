# What the C ABI's suites (test-capi, test-capi-fuzz, fuzz-capi: run by
# tests/suites.mk) build beyond the runtime (included by the top Makefile).
.PHONY: random-problems runtime-asan-plan

# Random problems for the differential test (tests/capi/differential.sh).
random-problems: build
	@dune build -j 1 ./tests/cli/random_problems.exe 2>&1

# libredist_plan under ASan and UBSan (the C ABI's target in runtime-asan's
# build, configured there), for the fuzz.
runtime-asan-plan: runtime-asan
	$(call runtime_build,$(RUNTIME_ASAN_BUILD),,redist_plan)
