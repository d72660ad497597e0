// End-to-end check of a header emitted by `redist gen`, compiled with
//   -include GENERATED.hpp -DREDIST_NS=redist_gen::<its name>
// and run under mpirun with kDevices ranks.  Every element of the global
// array holds kElemBytes bytes of a 64-bit hash of its row-major global
// index (the runtime moves bytes, so every dtype is checked the same way,
// bool and the fp8 structs included; a misplaced 1- or 2-byte element
// escapes with probability 2^-8 or 2^-16).  Each rank fills its source box
// from src_box(), runs the plan, and compares its destination with the
// target box from tgt_box(), element by element.  The destination is
// poisoned first, so an element the plan does not write is caught.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace G = REDIST_NS;

// splitmix64: distinct indices give unrelated bytes.
static std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The bytes of the element with global index `global`.
static void element_bytes(std::size_t global, unsigned char* out) {
  for (std::size_t k = 0; k < G::kElemBytes; k += 8) {
    const std::uint64_t h = mix(global * 2 + k / 8);
    std::memcpy(out + k, &h, G::kElemBytes - k < 8 ? G::kElemBytes - k : 8);
  }
}

// The bytes of the box at `offset` with `extent`, in local row-major order.
static std::vector<unsigned char> box_bytes(const std::size_t offset[], const std::size_t extent[]) {
  std::size_t count = 1;
  for (int d = 0; d < G::kRank; ++d) count *= extent[d];
  std::vector<unsigned char> out(count * G::kElemBytes);
  std::size_t local[G::kRank] = {};
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t global = 0;
    for (int d = 0; d < G::kRank; ++d) global = global * G::kGlobalShape[d] + offset[d] + local[d];
    element_bytes(global, out.data() + i * G::kElemBytes);
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
      std::vector<unsigned char> src = box_bytes(off, ext);
      std::vector<unsigned char> dst(G::kTgtBytes, 0xAB);
      std::vector<unsigned char> workspace(G::kWorkspaceBytes + 1);
      st = G::run(mesh, src.data(), src.size(), dst.data(), G::kTgtBytes, workspace.data(), G::kWorkspaceBytes);
      if (!st.ok()) {
        std::fprintf(stderr, "rank %d: run: %s\n", rank, st.message().c_str());
        failures = 1;
      } else {
        G::tgt_box(rank, off, ext);
        std::vector<unsigned char> want = box_bytes(off, ext);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < G::kTgtElems; ++i)
          if (want.size() != dst.size() ||
              std::memcmp(want.data() + i * G::kElemBytes, dst.data() + i * G::kElemBytes, G::kElemBytes) != 0)
            ++wrong;
        if (wrong != 0) {
          std::fprintf(stderr, "rank %d: %zu of %zu target elements wrong\n", rank, wrong,
                       static_cast<std::size_t>(G::kTgtElems));
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
