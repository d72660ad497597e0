# The NCCL/CUDA backend: library, GPU tests and the pack benchmark.
#   make nccl        builds _build/nccl/libredist_nccl.a, redist_gpu_tests
#                    and pack_bandwidth (nvcc for the kernels, mpicxx for
#                    the rest; compile and link only, no GPU needed)
#   make test-nccl   builds, then runs the tests under mpirun; without a CUDA
#                    device the GPU tests are reported as skipped
# Device code is built for sm_90 plus compute_90 PTX, which the driver
# compiles for newer GPUs; set NCCL_GENCODE for others.
CUDA_HOME ?= /usr/local/cuda
NVCC := $(CUDA_HOME)/bin/nvcc
NCCL_BUILD := $(ROOT)/_build/nccl
NCCL_GENCODE ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NCCL_LIBDIR := $(patsubst %/,%,$(firstword $(dir $(wildcard $(CUDA_HOME)/lib64/libnccl.so $(CUDA_HOME)/lib/libnccl.so)) $(CUDA_HOME)/lib64))
# The runtime whose headers and backend-independent sources are used.
NCCL_RUNTIME := $(ROOT)/runtime
NCCL_INCLUDES := -I$(NCCL_RUNTIME)/include -I$(CUDA_HOME)/include
NCCL_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Werror -MMD -MP $(NCCL_INCLUDES)
NCCL_NVCCFLAGS := -std=c++17 -O3 $(NCCL_GENCODE) -Xcompiler -Wall,-Wextra --Werror all-warnings \
                  -MMD -MP $(NCCL_INCLUDES)
NCCL_LDLIBS := -L$(NCCL_LIBDIR) -Wl,-rpath,$(NCCL_LIBDIR) -lnccl -lcudart

# The library carries its own copy of the backend-independent runtime
# sources (status, local kernels, mesh geometry, the host checks and MPI
# agreement shared with the MPI backend), so it links without libredist_mpi.a.
NCCL_LIB_OBJS := $(addprefix $(NCCL_BUILD)/,kernels.o copy_plan.o device_local.o nccl.o status.o local.o \
                   geometry.o backend_common.o)
NCCL_TEST_OBJS := $(addprefix $(NCCL_BUILD)/tests/,main.o test_plan.o test_args.o test_kernels.o \
                    test_collectives.o test_misuse.o)
NCCL_BENCH_OBJS := $(NCCL_BUILD)/bench/pack_bandwidth.o
# The same tests linked against host emulations of CUDA and NCCL instead of
# kernels.o, libcudart and libnccl (tests/runtime_gpu/emulated).
NCCL_EMU_OBJS := $(addprefix $(NCCL_BUILD)/emulated/,cuda_host.o copy_host.o nccl_mpi.o)

.PHONY: nccl test-nccl test-nccl-emulated

nccl: $(NCCL_BUILD)/libredist_nccl.a $(NCCL_BUILD)/redist_gpu_tests $(NCCL_BUILD)/pack_bandwidth

$(NCCL_BUILD)/kernels.o: $(ROOT)/runtime/nccl/kernels.cu
	@mkdir -p $(@D)
	$(NVCC) $(NCCL_NVCCFLAGS) -c $< -o $@

$(NCCL_BUILD)/%.o: $(ROOT)/runtime/nccl/%.cpp
	@mkdir -p $(@D)
	mpicxx $(NCCL_CXXFLAGS) -c $< -o $@

$(NCCL_BUILD)/%.o: $(NCCL_RUNTIME)/src/%.cpp
	@mkdir -p $(@D)
	mpicxx $(NCCL_CXXFLAGS) -c $< -o $@

$(NCCL_BUILD)/tests/%.o: $(ROOT)/tests/runtime_gpu/%.cpp
	@mkdir -p $(@D)
	mpicxx $(NCCL_CXXFLAGS) -c $< -o $@

$(NCCL_BUILD)/bench/%.o: $(ROOT)/bench/gpu/%.cpp
	@mkdir -p $(@D)
	mpicxx $(NCCL_CXXFLAGS) -c $< -o $@

$(NCCL_BUILD)/emulated/%.o: $(ROOT)/tests/runtime_gpu/emulated/%.cpp
	@mkdir -p $(@D)
	mpicxx $(NCCL_CXXFLAGS) -c $< -o $@

$(NCCL_BUILD)/libredist_nccl.a: $(NCCL_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(NCCL_BUILD)/redist_gpu_tests: $(NCCL_TEST_OBJS) $(NCCL_BUILD)/libredist_nccl.a
	mpicxx -o $@ $(NCCL_TEST_OBJS) $(NCCL_BUILD)/libredist_nccl.a $(NCCL_LDLIBS)

$(NCCL_BUILD)/pack_bandwidth: $(NCCL_BENCH_OBJS) $(NCCL_BUILD)/libredist_nccl.a
	mpicxx -o $@ $(NCCL_BENCH_OBJS) $(NCCL_BUILD)/libredist_nccl.a $(NCCL_LDLIBS)

$(NCCL_BUILD)/redist_gpu_tests_emulated: $(NCCL_TEST_OBJS) $(NCCL_EMU_OBJS) \
    $(filter-out $(NCCL_BUILD)/kernels.o,$(NCCL_LIB_OBJS))
	mpicxx -o $@ $^

$(NCCL_BUILD)/pack_bandwidth_emulated: $(NCCL_BENCH_OBJS) $(NCCL_EMU_OBJS) \
    $(filter-out $(NCCL_BUILD)/kernels.o,$(NCCL_LIB_OBJS))
	mpicxx -o $@ $^

-include $(wildcard $(NCCL_BUILD)/*.d $(NCCL_BUILD)/tests/*.d $(NCCL_BUILD)/bench/*.d \
                    $(NCCL_BUILD)/emulated/*.d)

# A machine without the CUDA toolkit cannot build the backend at all; that
# is reported, and counted as skipped rather than passed.
ifeq ($(wildcard $(NVCC)),)
test-nccl:
	@echo "no CUDA toolkit at $(CUDA_HOME): NCCL backend not built, its tests skipped"
	@echo "test-nccl: 0 passed, 0 failed, 1 skipped"
else
test-nccl: nccl
	@tests/runtime_gpu/run.sh $(NCCL_BUILD)/redist_gpu_tests test-nccl
endif

# The GPU tests against the emulation, on 1..8 ranks: this checks the
# backend's host logic (buffers, groups, tables, agreement) where no GPU
# exists; it says nothing about the CUDA kernel or real NCCL.  The arrays
# of 2^31 bytes are too big for a small machine.  The benchmark runs once,
# small, to check that all its cases are valid calls (its figures are
# host memcpy speeds and mean nothing).
test-nccl-emulated: $(NCCL_BUILD)/redist_gpu_tests_emulated $(NCCL_BUILD)/pack_bandwidth_emulated
	@$(NCCL_BUILD)/pack_bandwidth_emulated --mib 1 --reps 1 >$(NCCL_BUILD)/pack_bandwidth_emulated.log \
	  || { cat $(NCCL_BUILD)/pack_bandwidth_emulated.log; exit 1; }
	@REDIST_GPU_RANKS="1 2 3 4 6 8" tests/runtime_gpu/run.sh $< test-nccl-emulated \
	  --skip "arrays of about"

