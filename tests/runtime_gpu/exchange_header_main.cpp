// End-to-end check of an NCCL exchange header emitted by `redist gen
// --backend nccl`, compiled with
//   -include GENERATED.hpp -DREDIST_NS=redist_gen::<its name>
// and run under mpirun with kWorldSize ranks, on a GPU per rank or against
// the host emulation of CUDA and NCCL (tests/runtime_gpu/emulated).  The
// NCCL communicator is set up here, as an application would, and the
// exchange is created from it (no MPI inside the exchange).  Checks that the
// busiest rank's staging is exactly the header's kWorkspaceBytes, and every
// element of every rank's target box: element at global index g holds
// bytes derived from g.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
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

// The local array of `box` (row-major), the element at global index g
// holding bytes (g * kElemBytes + b) * 131 mod 251.
std::vector<unsigned char> box_bytes(const redist::Box& box, const redist::BlockLayout& layout) {
  const std::size_t n = redist::box_elements(box);
  std::vector<unsigned char> out(n * G::kElemBytes);
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t rest = e, index[redist::kMaxRank];
    for (int d = box.ndim - 1; d >= 0; --d) {
      index[d] = box.lo[d] + rest % (box.hi[d] - box.lo[d]);
      rest /= box.hi[d] - box.lo[d];
    }
    std::size_t g = 0;
    for (int d = 0; d < layout.ndim; ++d) g = g * layout.extent[d] + index[d];
    for (std::size_t b = 0; b < G::kElemBytes; ++b)
      out[e * G::kElemBytes + b] = static_cast<unsigned char>((g * G::kElemBytes + b) * 131 % 251);
  }
  return out;
}

int check() {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ncclUniqueId id;
  std::memset(&id, 0, sizeof id);
  if (rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) return fail("ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm = nullptr;
  if (ncclCommInitRank(&comm, size, id, rank) != ncclSuccess) return fail("ncclCommInitRank");
  cudaStream_t stream = nullptr;
  if (cudaStreamCreate(&stream) != cudaSuccess) return fail("cudaStreamCreate");

  int bad = 0;
  {
    redist::nccl::Exchange ex;
    if (redist::Status st = G::create_exchange(comm, stream, &ex); !st.ok()) return fail(st.message());
    unsigned long long mine = ex.workspace_bytes(), most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (most != G::kWorkspaceBytes)
      bad = fail("the busiest rank stages " + std::to_string(most) + " bytes, the header states " +
                 std::to_string(G::kWorkspaceBytes));
    const std::size_t src_bytes = ex.source_bytes(), dst_bytes = ex.target_bytes();
    void *src = nullptr, *dst = nullptr, *ws = nullptr;
    if (cudaMalloc(&src, src_bytes + 1) != cudaSuccess || cudaMalloc(&dst, dst_bytes + 1) != cudaSuccess ||
        cudaMalloc(&ws, G::kWorkspaceBytes + 1) != cudaSuccess)
      return fail("cudaMalloc");
    const std::vector<unsigned char> source = box_bytes(ex.source_box(), G::source_layout());
    cudaMemcpy(src, source.data(), src_bytes, cudaMemcpyHostToDevice);
    cudaMemset(dst, 0xA5, dst_bytes);
    const redist::Status ran =
        G::run(ex, src_bytes ? static_cast<const G::value_type*>(src) : nullptr, src_bytes,
               dst_bytes ? static_cast<G::value_type*>(dst) : nullptr, dst_bytes, ws, G::kWorkspaceBytes,
               stream);
    if (!ran.ok()) return fail(ran.message());
    if (cudaStreamSynchronize(stream) != cudaSuccess) return fail("cudaStreamSynchronize");
    std::vector<unsigned char> got(dst_bytes);
    cudaMemcpy(got.data(), dst, dst_bytes, cudaMemcpyDeviceToHost);
    if (got != box_bytes(ex.target_box(), G::target_layout())) bad = fail("wrong target box");
    cudaFree(src);
    cudaFree(dst);
    cudaFree(ws);
  }
  cudaStreamDestroy(stream);
  ncclCommDestroy(comm);
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = size < G::kWorldSize ? fail("needs " + std::to_string(G::kWorldSize) + " ranks") : check();
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
