# The C++ runtime (MPI backend): library, tests, sanitized tests.
#   make runtime        builds _build/runtime/libredist_mpi.a and the tests
#   make test-runtime   runs the doctest suite under mpirun, np = 1 2 3 4 6 8
#   make test-sanitize  the same with ASan + UBSan (_build/runtime-asan)
RUNTIME_BUILD := $(ROOT)/_build/runtime
RUNTIME_ASAN_BUILD := $(ROOT)/_build/runtime-asan

.PHONY: runtime runtime-asan test-runtime test-sanitize

define runtime_cmake
	@mkdir -p $(ROOT)/_build
	@cmake -S $(ROOT)/runtime -B $(1) -DREDIST_BUILD_TESTS=ON $(2) >$(1).configure.log 2>&1 \
	  || { cat $(1).configure.log; exit 1; }
	@cmake --build $(1) -j1 -- --no-print-directory
endef

runtime: deps
	$(call runtime_cmake,$(RUNTIME_BUILD),-DCMAKE_BUILD_TYPE=Release)

runtime-asan: deps
	$(call runtime_cmake,$(RUNTIME_ASAN_BUILD),-DCMAKE_BUILD_TYPE=Debug -DREDIST_SANITIZE=ON)

test-runtime: runtime
	@tests/runtime/run.sh $(RUNTIME_BUILD)/redist_runtime_tests test-runtime

# Open MPI's own allocations show up as leaks at exit, so leak detection is
# off; every other ASan and UBSan finding aborts the rank and fails the run.
test-sanitize: runtime-asan
	@tests/runtime/run.sh $(RUNTIME_ASAN_BUILD)/redist_runtime_tests test-sanitize \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

TEST_SUITES += test-runtime test-sanitize
