// End-to-end check of a pending-sum header emitted by `redist gen --backend
// nccl` (by the reductions and collectives), compiled with
//   -include GENERATED.hpp -DREDIST_NS=redist_gen::<its name>
// and run under mpirun with kDevices ranks, on a GPU per rank or against the
// host emulation of CUDA and NCCL (tests/runtime_gpu/emulated).  The values
// and the check are runtime/testing/verify.hpp's (verify_sums): each rank's source
// is its contribution, and every element of every rank's target box must
// sum, over its target group, to the global array, exactly (integer
// dtypes); the bytes after the destination must be untouched.
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
  // The header as verify.hpp sees it: only what the values and the check read.
  redist_verify::SumsProblem p{};
  p.rank = G::kRank;
  p.global_shape = G::kGlobalShape;
  p.elem_bytes = G::kElemBytes;
  const redist_verify::SumSide source{G::source_mesh(), G::kSrcPending, G::kSrcPendingCount};
  const redist_verify::SumSide target{G::target_mesh(), G::kTgtPending, G::kTgtPendingCount};
  const std::vector<std::uint64_t> src_index = redist_verify::box_indices(p, redist_verify::sums_box(p, G::src_box, me));
  const std::vector<std::uint64_t> tgt_index = redist_verify::box_indices(p, redist_verify::sums_box(p, G::tgt_box, me));
  std::vector<unsigned char> host_src(G::kSrcBytes + 1, 0);
  redist_verify::fill_contribution(p, source, src_index, me, host_src.data());

  cudaStream_t stream = nullptr;
  if (cudaStreamCreate(&stream) != cudaSuccess) return fail("cudaStreamCreate");
  int bad = 0;
  {
    redist::nccl::Mesh mesh;
    if (redist::Status st = G::create_mesh(MPI_COMM_WORLD, stream, &mesh); !st.ok()) return fail(st.message());
    const std::size_t guard = redist_verify::kGuard;
    void *src = nullptr, *dst = nullptr, *ws = nullptr;
    if (cudaMalloc(&src, G::kSrcBytes + 1) != cudaSuccess || cudaMalloc(&dst, G::kTgtBytes + guard) != cudaSuccess ||
        cudaMalloc(&ws, G::kWorkspaceBytes + 1) != cudaSuccess)
      return fail("cudaMalloc");
    cudaMemcpy(src, host_src.data(), G::kSrcBytes, cudaMemcpyHostToDevice);
    cudaMemset(dst, redist_verify::kGuardByte, G::kTgtBytes + guard);
    const redist::Status ran = G::run(mesh, src, G::kSrcBytes, dst, G::kTgtBytes, ws, G::kWorkspaceBytes);
    if (!ran.ok()) return fail(ran.message());
    if (cudaStreamSynchronize(stream) != cudaSuccess) return fail("cudaStreamSynchronize");
    std::vector<unsigned char> got(G::kTgtBytes + guard);
    cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDeviceToHost);
    const long wrong = redist_verify::wrong_sums(p, target, tgt_index, me, got.data(), MPI_COMM_WORLD);
    if (wrong != 0) bad = fail(std::to_string(wrong) + " target elements do not sum to the global array");
    if (!redist_verify::guard_ok(got.data() + G::kTgtBytes)) bad = fail("bytes after the destination changed");
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
  int bad = size != G::kDevices ? fail("needs " + std::to_string(G::kDevices) + " ranks") : check();
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
