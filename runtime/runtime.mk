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
#   make runtime-tests       the MPI backend's doctest programs, runtime-tests-blocks
#                            with 7-byte message blocks, runtime-asan with ASan + UBSan
#   make nccl, nccl-emulated the NCCL backend's tests, against CUDA and NCCL or
#                            their host emulations
#   make install-test-prefix `make install` into a scratch prefix
# Their suites (test-runtime*, test-sanitize, test-nccl*) are run by
# tests/suites.mk.
RUNTIME_BUILD := $(ROOT)/_build/runtime
RUNTIME_ASAN_BUILD := $(ROOT)/_build/runtime-asan
RUNTIME_PREFIX := $(ROOT)/_build/prefix
# The tests' one mpirun command line (its flags are explained in tests/lib.sh).
MPIRUN := $(shell bash -c '. $(ROOT)/tests/lib.sh && echo "$${MPIRUN[*]}"')

.PHONY: runtime runtime-asan runtime-tests runtime-tests-blocks nccl install-test-prefix \
        bench-runtime bench-agreement bench-overlap

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

runtime-tests: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_runtime_tests)

runtime-tests-blocks: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_runtime_tests_small_blocks)

# ---- NCCL backend (runtime/src/nccl, README there) -------------------------------
# The NCCL backend's tests and its kernel benchmark (compile and link only: no
# GPU needed).
nccl: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_gpu_tests pack_bandwidth)

# The same tests and benchmark against host emulations of CUDA and NCCL.
.PHONY: nccl-emulated
nccl-emulated: runtime
	$(call runtime_build,$(RUNTIME_BUILD),,redist_gpu_tests_emulated pack_bandwidth_emulated)

# ---- install ---------------------------------------------------------------------
# `make install PREFIX=... [DESTDIR=...]` (codegen/codegen.mk) into a scratch
# prefix, which test-runtime-install builds applications against.
INSTALL_TEST := $(ROOT)/_build/install-test
install-test-prefix: build runtime
	@rm -rf $(INSTALL_TEST) && mkdir -p $(INSTALL_TEST)
	@$(MAKE) --no-print-directory install PREFIX=$(INSTALL_TEST)/prefix >$(INSTALL_TEST)/install.log 2>&1 \
	  || { cat $(INSTALL_TEST)/install.log; exit 1; }

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
