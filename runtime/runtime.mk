# The C++ runtime, built once by CMake (runtime/CMakeLists.txt); every other
# user of it (tests, benchmarks, `redist run`) links the libraries built here.
#   make runtime             builds libredist_common.a, libredist_mpi.a and,
#                            where CUDA and NCCL are found, libredist_nccl.a
#                            in _build/runtime, libredist_plan.a and .so (the C
#                            ABI, redist/redist.h, with the planner's OCaml
#                            object: make plan-object), and stages their install in
#                            _build/prefix (include/redist, lib/*.a,
#                            lib/cmake/redist, lib/pkgconfig): the prefix
#                            `redist run` uses in a source tree
#   make test-runtime        the MPI backend's doctest suite under mpirun, np = 1 2 3 4 6 8
#   make test-runtime-blocks the same against the backend built with 7-byte message blocks
#   make test-sanitize       the same with ASan + UBSan (_build/runtime-asan)
#   make test-nccl           the NCCL backend's tests (GPU cases skipped without a GPU)
#   make test-nccl-emulated  the same tests against host emulations of CUDA and NCCL
#   make test-runtime-install  `make install` into a scratch prefix, an application built against it
RUNTIME_BUILD := $(ROOT)/_build/runtime
RUNTIME_ASAN_BUILD := $(ROOT)/_build/runtime-asan
RUNTIME_PREFIX := $(ROOT)/_build/prefix
# The tests' one mpirun command line (its flags are explained in tests/lib.sh).
MPIRUN := $(shell bash -c '. $(ROOT)/tests/lib.sh && echo "$${MPIRUN[*]}"')

.PHONY: runtime runtime-asan nccl test-runtime test-runtime-blocks test-sanitize test-nccl test-nccl-emulated \
        test-runtime-install bench-runtime bench-agreement bench-overlap

# $(call runtime_build,BUILD_DIR,CMAKE_OPTIONS,TARGETS): configure once (the
# build re-runs CMake itself when CMakeLists.txt changes), and again while
# doctest was missing (a build for `make demo` only: the tests' programs
# appear once `make deps-test` has installed it); then build.
define runtime_build
	@mkdir -p $(ROOT)/_build
	@{ [ -f $(1)/CMakeCache.txt ] && ! grep -q '^doctest_DIR:PATH=doctest_DIR-NOTFOUND$$' $(1)/CMakeCache.txt && \
	   grep -qx 'REDIST_PLAN_OCAML_OBJECT:FILEPATH=$(PLAN_OBJECT)' $(1)/CMakeCache.txt; } || \
	  cmake -S $(ROOT)/runtime -B $(1) -DREDIST_BUILD_TESTS=ON -DREDIST_PLAN_OCAML_OBJECT=$(PLAN_OBJECT) $(2) \
	  >$(1).configure.log 2>&1 || { cat $(1).configure.log; rm -f $(1)/CMakeCache.txt; exit 1; }
	@cmake --build $(1) -j2 $(if $(3),--target $(3)) -- --no-print-directory
endef

# $(call if_cmake_flag,FLAG,COMMANDS,WHY SKIPPED,LABEL): COMMANDS when the
# runtime's configuration set FLAG, else the suite is reported as skipped.
define if_cmake_flag
	@if grep -q '^$(1):INTERNAL=ON$$' $(RUNTIME_BUILD)/CMakeCache.txt; then $(2); \
	else echo "$(strip $(3)): its tests skipped"; echo "$(strip $(4)): 0 passed, 0 failed, 1 skipped"; fi
endef

# The planner and OCaml's runtime as one object, linked into libredist_plan.
PLAN_OBJECT := $(ROOT)/_build/default/codegen/abi/redist_plan_ocaml.exe.o
.PHONY: plan-object
plan-object: deps-build
	@dune build -j 1 ./codegen/abi/redist_plan_ocaml.exe.o 2>&1

runtime: deps-build plan-object
	$(call runtime_build,$(RUNTIME_BUILD),-DCMAKE_BUILD_TYPE=Release)
	@cmake --install $(RUNTIME_BUILD) --prefix $(RUNTIME_PREFIX) >/dev/null

runtime-asan: deps-test plan-object
	$(call runtime_build,$(RUNTIME_ASAN_BUILD),-DCMAKE_BUILD_TYPE=Debug -DREDIST_SANITIZE=ON -DREDIST_NCCL=OFF,redist_runtime_tests)

test-runtime: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_runtime_tests)
	@tests/runtime/run.sh $(RUNTIME_BUILD)/redist_runtime_tests test-runtime

# The same suite against the MPI backend built with 7-byte message blocks:
# checks the derived datatypes that carry messages over 1 GiB (2 GiB and more
# included) on arrays of a few bytes.  Communication needs two ranks or more.
test-runtime-blocks: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_runtime_tests_small_blocks)
	@REDIST_TEST_SIZES="2 3 4 8" tests/runtime/run.sh $(RUNTIME_BUILD)/redist_runtime_tests_small_blocks \
	  test-runtime-blocks

# Open MPI's own allocations show up as leaks at exit, so leak detection is
# off; every other ASan and UBSan finding aborts the rank and fails the run.
# World sizes 1 2 4 6 (not 3 and 8) keep it near a minute on two cores.
test-sanitize: runtime-asan
	@REDIST_TEST_SIZES="1 2 4 6" tests/runtime/run.sh $(RUNTIME_ASAN_BUILD)/redist_runtime_tests test-sanitize \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# ---- NCCL backend (runtime/src/nccl, README there) -------------------------------
# The NCCL backend's tests and its kernel benchmark (compile and link only: no
# GPU needed).
nccl: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_gpu_tests pack_bandwidth)

# Without a GPU the GPU cases are reported as skipped, not passed.
test-nccl: runtime
	$(call if_cmake_flag,REDIST_NCCL_BUILT,\
	  $(MAKE) --no-print-directory nccl && tests/runtime_gpu/run.sh $(RUNTIME_BUILD)/redist_gpu_tests test-nccl,\
	  no nvcc / CUDA runtime / NCCL found: NCCL backend not built,test-nccl)

# The GPU tests against the emulation, on 1..8 ranks: this checks the
# backend's host logic (buffers, groups, tables, agreement) where no GPU
# exists; it says nothing about the CUDA kernel or real NCCL.  The arrays
# of 2^31 bytes are too big for a small machine.  The benchmark runs once,
# small, to check that all its cases are valid calls (its figures are
# host memcpy speeds and mean nothing).
test-nccl-emulated: runtime
	$(call if_cmake_flag,REDIST_NCCL_HEADERS_FOUND,\
	  $(MAKE) --no-print-directory nccl-emulated && \
	  { $(RUNTIME_BUILD)/pack_bandwidth_emulated --mib 1 --reps 1 >$(RUNTIME_BUILD)/pack_bandwidth_emulated.log \
	    || { cat $(RUNTIME_BUILD)/pack_bandwidth_emulated.log; exit 1; }; } && \
	  REDIST_GPU_RANKS="1 2 3 4 6 8" tests/runtime_gpu/run.sh $(RUNTIME_BUILD)/redist_gpu_tests_emulated \
	    test-nccl-emulated --skip "arrays of about",\
	  no CUDA or NCCL headers found,test-nccl-emulated)

.PHONY: nccl-emulated
nccl-emulated: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_gpu_tests_emulated pack_bandwidth_emulated)

# ---- install ---------------------------------------------------------------------
# `make install PREFIX=... [DESTDIR=...]` (codegen/codegen.mk) into a scratch
# prefix, then examples/worked_example built against it twice, through
# find_package(redist) and through pkg-config, and both run under mpirun.
INSTALL_TEST := $(ROOT)/_build/install-test
test-runtime-install: build runtime
	@rm -rf $(INSTALL_TEST) && mkdir -p $(INSTALL_TEST)
	@$(MAKE) --no-print-directory install PREFIX=$(INSTALL_TEST)/prefix >$(INSTALL_TEST)/install.log 2>&1 \
	  || { cat $(INSTALL_TEST)/install.log; exit 1; }
	@REDIST_SUBCOMMANDS="$(REDIST_SUBCOMMANDS)" tests/runtime/install.sh $(INSTALL_TEST)/prefix $(INSTALL_TEST)

# Not a test: times the collectives against bare MPI (examples/bench).
bench-runtime: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I$(RUNTIME_PREFIX)/include examples/bench/bench.cpp \
	  $(RUNTIME_PREFIX)/lib/libredist_mpi.a $(RUNTIME_PREFIX)/lib/libredist_common.a -o $(ROOT)/_build/bench-runtime
	@for n in 2 4; do $(MPIRUN) -np $$n $(ROOT)/_build/bench-runtime; done

# Not a test: the time per call with argument agreement on and off
# (bench/agreement.cpp), on 2, 4 and 8 ranks; the figures in runtime/README.md.
bench-agreement: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I$(RUNTIME_PREFIX)/include bench/agreement.cpp \
	  $(RUNTIME_PREFIX)/lib/libredist_mpi.a $(RUNTIME_PREFIX)/lib/libredist_common.a -o $(ROOT)/_build/bench-agreement
	@for n in 2 4 8; do $(MPIRUN) -np $$n $(ROOT)/_build/bench-agreement; done

# Not a test: how much of an exchange hides behind computation between
# start() and wait() (bench/overlap.cpp), on 2 ranks; the figures in
# runtime/README.md.
bench-overlap: runtime
	@mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I$(RUNTIME_PREFIX)/include bench/overlap.cpp \
	  $(RUNTIME_PREFIX)/lib/libredist_mpi.a $(RUNTIME_PREFIX)/lib/libredist_common.a -o $(ROOT)/_build/bench-overlap
	@$(MPIRUN) -np 2 $(ROOT)/_build/bench-overlap
