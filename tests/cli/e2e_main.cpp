// End-to-end check of a header emitted by `redist gen`, compiled with
//   -include GENERATED.hpp -DREDIST_NS=<its namespace>
// and run under mpirun with kDevices ranks.  Every element of the global
// array is its row-major global index; each rank fills its source box from
// src_box(), runs the plan, and compares its destination with the target
// box from tgt_box(), element by element.  The destination is poisoned
// first, so an element the plan does not write is caught.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace G = REDIST_NS;

// Row-major global index of every element of the box at `offset` with
// `extent`, in local row-major order.
static std::vector<G::value_type> box_values(const std::size_t offset[], const std::size_t extent[]) {
  std::size_t count = 1;
  for (int d = 0; d < G::kRank; ++d) count *= extent[d];
  std::vector<G::value_type> out(count);
  std::size_t local[G::kRank] = {};
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t global = 0;
    for (int d = 0; d < G::kRank; ++d) global = global * G::kGlobalShape[d] + offset[d] + local[d];
    out[i] = static_cast<G::value_type>(global);
    for (int d = G::kRank - 1; d >= 0; --d) {
      if (++local[d] < extent[d]) break;
      local[d] = 0;
    }
  }
  return out;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failures = 0;
  {
    redist::Mesh mesh;
    redist::Status st = G::create_mesh(MPI_COMM_WORLD, &mesh);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::size_t off[G::kRank], ext[G::kRank];
    if (!st.ok()) {
      std::fprintf(stderr, "rank %d: create_mesh: %s\n", rank, st.message().c_str());
      failures = 1;
    } else if (!G::src_box(rank, off, ext)) {
      std::fprintf(stderr, "rank %d: src_box rejected the rank\n", rank);
      failures = 1;
    } else {
      std::vector<G::value_type> src = box_values(off, ext);
      std::vector<G::value_type> dst(G::kTgtElems);
      std::memset(static_cast<void*>(dst.data()), 0xAB, G::kTgtBytes);
      std::vector<unsigned char> workspace(G::kWorkspaceBytes + 1);
      st = G::run(mesh, src.data(), src.size() * sizeof(G::value_type), dst.data(), G::kTgtBytes,
                  workspace.data(), G::kWorkspaceBytes);
      if (!st.ok()) {
        std::fprintf(stderr, "rank %d: run: %s\n", rank, st.message().c_str());
        failures = 1;
      } else {
        G::tgt_box(rank, off, ext);
        std::vector<G::value_type> want = box_values(off, ext);
        if (want.size() != dst.size() || std::memcmp(want.data(), dst.data(), G::kTgtBytes) != 0) {
          std::fprintf(stderr, "rank %d: wrong target box\n", rank);
          failures = 1;
        }
      }
    }
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
