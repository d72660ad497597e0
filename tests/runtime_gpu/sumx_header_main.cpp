// End-to-end check of a reducing-exchange header emitted by `redist gen
// --backend nccl` (pending sums on uneven or cross-mesh layouts), compiled
// with
//   -include GENERATED.hpp -DREDIST_NS=redist_gen::<its name>
// and run under mpirun with kWorldSize ranks, on a GPU per rank or against
// the host emulation of CUDA and NCCL (tests/runtime_gpu/emulated).  The
// values and the check are runtime/testing/verify.hpp's (fill_contribution,
// wrong_sums): every element of every rank's target box must sum, over its
// target group, to the global array, exactly (integer dtypes); the bytes
// after the destination must be untouched.  The header's kWorkspaceBytes
// (from the Coq model) must be every rank's own need at most, and exactly
// the largest one.
#include "verify.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace G = REDIST_NS;

namespace {

int fail(const std::string& what) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  return 1;
}

int check() {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  redist_verify::SumsProblem p{};
  p.rank = static_cast<int>(G::layouts::source_layout().ndim);
  std::vector<std::size_t> shape(G::layouts::source_layout().extent,
                                 G::layouts::source_layout().extent + p.rank);
  p.global_shape = shape.data();
  p.elem_bytes = G::kElemBytes;
  const redist_verify::SumSide source{G::source_mesh(), G::kSrcPending, G::kSrcPendingCount};
  const redist_verify::SumSide target{G::target_mesh(), G::kTgtPending, G::kTgtPendingCount};

  cudaStream_t stream = nullptr;
  if (cudaStreamCreate(&stream) != cudaSuccess) return fail("cudaStreamCreate");
  int bad = 0;
  {
    redist::nccl::ReducingExchange ex;
    if (redist::Status st = G::create_exchange(MPI_COMM_WORLD, &ex); !st.ok()) return fail(st.message());
    unsigned long long need = ex.workspace_bytes(), most = 0;
    MPI_Allreduce(&need, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (most != G::kWorkspaceBytes)
      bad = fail("the largest workspace a rank needs is " + std::to_string(most) + " bytes, kWorkspaceBytes " +
                 std::to_string(G::kWorkspaceBytes));
    const std::vector<std::uint64_t> src_index = redist_verify::box_indices(p, ex.source_box());
    const std::vector<std::uint64_t> tgt_index = redist_verify::box_indices(p, ex.target_box());
    const std::size_t sb = ex.source_bytes(), tb = ex.target_bytes(), guard = redist_verify::kGuard;
    std::vector<unsigned char> host_src(sb + 1, 0);
    redist_verify::fill_contribution(p, source, src_index, me, host_src.data());
    void *src = nullptr, *dst = nullptr, *ws = nullptr;
    if (cudaMalloc(&src, sb + 1) != cudaSuccess || cudaMalloc(&dst, tb + guard) != cudaSuccess ||
        cudaMalloc(&ws, G::kWorkspaceBytes + 1) != cudaSuccess)
      return fail("cudaMalloc");
    cudaMemcpy(src, host_src.data(), sb, cudaMemcpyHostToDevice);
    cudaMemset(dst, redist_verify::kGuardByte, tb + guard);
    const redist::Status ran = G::run(ex, sb ? src : nullptr, sb, tb ? dst : nullptr, tb,
                                      G::kWorkspaceBytes ? ws : nullptr, G::kWorkspaceBytes, stream);
    if (!ran.ok()) return fail(ran.message());
    if (cudaStreamSynchronize(stream) != cudaSuccess) return fail("cudaStreamSynchronize");
    std::vector<unsigned char> got(tb + guard);
    cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDeviceToHost);
    const long wrong = redist_verify::wrong_sums(p, target, tgt_index, me, got.data(), MPI_COMM_WORLD);
    if (wrong != 0) bad = fail(std::to_string(wrong) + " target elements do not sum to the global array");
    if (!redist_verify::guard_ok(got.data() + tb)) bad = fail("bytes after the destination changed");
    cudaFree(src);
    cudaFree(dst);
    cudaFree(ws);
  }
  cudaStreamDestroy(stream);
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = size != G::kWorldSize ? fail("needs " + std::to_string(G::kWorldSize) + " ranks") : check();
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
