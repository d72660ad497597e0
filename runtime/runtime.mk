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
# World sizes 1 2 4 6 (not 3 and 8) keep it near a minute on two cores.
test-sanitize: runtime-asan
	@REDIST_TEST_SIZES="1 2 4 6" tests/runtime/run.sh $(RUNTIME_ASAN_BUILD)/redist_runtime_tests test-sanitize \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Installs the runtime into a scratch prefix and builds examples/worked_example
# against it twice, through find_package(redist) and through pkg-config, then
# runs both under mpirun.
RUNTIME_PREFIX := $(ROOT)/_build/runtime-prefix
EXAMPLE_BUILD := $(ROOT)/_build/worked-example
# The tests' one mpirun command line (its flags are explained in tests/lib.sh).
MPIRUN := $(shell bash -c '. $(ROOT)/tests/lib.sh && echo "$${MPIRUN[*]}"')
.PHONY: test-runtime-install
test-runtime-install: runtime
	@rm -rf $(RUNTIME_PREFIX) $(EXAMPLE_BUILD) && mkdir -p $(EXAMPLE_BUILD)
	@cmake --install $(RUNTIME_BUILD) --prefix $(RUNTIME_PREFIX) >/dev/null
	@cmake -S examples/worked_example -B $(EXAMPLE_BUILD)/cmake -DCMAKE_PREFIX_PATH=$(RUNTIME_PREFIX) >/dev/null
	@cmake --build $(EXAMPLE_BUILD)/cmake -- --no-print-directory >/dev/null
	@PKG_CONFIG_PATH=$$(dirname $$(find $(RUNTIME_PREFIX) -name redist_mpi.pc)) && export PKG_CONFIG_PATH && \
	  g++ -Wall -Wextra -Werror $$(pkg-config --cflags redist_mpi) examples/worked_example/main.cpp \
	    $$(pkg-config --libs redist_mpi) -o $(EXAMPLE_BUILD)/worked_example_pc
	@pass=0; fail=0; \
	for exe in cmake/worked_example worked_example_pc; do for n in 1 3 6 8; do \
	  if timeout 60 $(MPIRUN) -np $$n $(EXAMPLE_BUILD)/$$exe; then pass=$$((pass+1)); \
	  else echo "FAILED: $$exe on $$n ranks"; fail=$$((fail+1)); fi; done; done; \
	echo "test-runtime-install: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# Not a test: times the collectives against bare MPI (examples/bench).
.PHONY: bench-runtime
bench-runtime: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -Iruntime/include examples/bench/bench.cpp \
	  $(RUNTIME_BUILD)/libredist_mpi.a -o $(ROOT)/_build/bench-runtime
	@for n in 2 4; do $(MPIRUN) -np $$n $(ROOT)/_build/bench-runtime; done


# Not a test: the time per call with argument agreement on and off
# (bench/agreement.cpp), on 2, 4 and 8 ranks; the figures in runtime/README.md.
.PHONY: bench-agreement
bench-agreement: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -Iruntime/include bench/agreement.cpp \
	  $(RUNTIME_BUILD)/libredist_mpi.a -o $(ROOT)/_build/bench-agreement
	@for n in 2 4 8; do $(MPIRUN) -np $$n $(ROOT)/_build/bench-agreement; done
