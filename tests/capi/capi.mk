# The C ABI (runtime/include/redist/redist.h) and the plan interpreter
# (included by the top Makefile; tests/capi/run.sh says what is tested).
.PHONY: test-capi
test-capi: build runtime
	@dune build -j 1 ./tests/cli/random_problems.exe 2>&1
	@tests/capi/run.sh
