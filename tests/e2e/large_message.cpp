// One redistribution of a u8 array whose single message exceeds 2 GiB, from
// a header of `redist gen` compiled with
//   -include GENERATED.hpp -DREDIST_NS=<its namespace> [-DREDIST_EXCHANGE]
// and run under mpirun with kDevices ranks (REDIST_EXCHANGE: a direct
// exchange header of a 1-D array, on its world).  The check of
// tests/cli/e2e_main.cpp (every element of every rank's target box, the
// destination poisoned first), made lean enough for arrays of gigabytes:
// the expected box is computed element by element instead of held, and
// each element is a hash of its global index, because a plain index in one
// byte repeats every 256 bytes and would hide a misplaced run.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace G = REDIST_NS;
static_assert(sizeof(G::value_type) == 1, "a byte array: the hash is one byte per element");

namespace {

std::uint8_t value_at(std::uint64_t global) {
  std::uint64_t h = global * 0x9E3779B97F4A7C15ull;
  h ^= h >> 31;
  return static_cast<std::uint8_t>(h >> 56);
}

#ifdef REDIST_EXCHANGE
// 0 when every byte of dst, the box of a 1-D array that starts at global
// index `first`, holds its value, else 1 (with a message).
int check_1d(int rank, const std::vector<std::uint8_t>& dst, std::uint64_t first) {
  std::size_t wrong = 0, first_wrong = 0;
  for (std::size_t i = 0; i < dst.size(); ++i)
    if (dst[i] != value_at(first + i) && wrong++ == 0) first_wrong = i;
  if (wrong > 0) {
    std::fprintf(stderr, "rank %d: %zu of %zu elements wrong, the first at local index %zu\n", rank, wrong,
                 dst.size(), first_wrong);
    return 1;
  }
  std::printf("rank %d: %zu bytes received, every element correct\n", rank, dst.size());
  return 0;
}

// The exchange: each rank's boxes come from the Exchange itself.
int run_and_check(int rank) {
  redist::Exchange ex;
  if (redist::Status st = G::create_exchange(MPI_COMM_WORLD, &ex); !st.ok()) {
    std::fprintf(stderr, "rank %d: create_exchange: %s\n", rank, st.message().c_str());
    return 1;
  }
  const redist::Box source = ex.source_box(), target = ex.target_box();
  if (source.ndim != 1) {
    std::fprintf(stderr, "rank %d: the exchange's array is not 1-D\n", rank);
    return 1;
  }
  std::vector<std::uint8_t> src(ex.source_bytes());
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = value_at(source.lo[0] + i);
  std::vector<std::uint8_t> dst(ex.target_bytes(), 0xAB);
  if (redist::Status st = G::run(ex, src.data(), src.size(), dst.data(), dst.size()); !st.ok()) {
    std::fprintf(stderr, "rank %d: run: %s\n", rank, st.message().c_str());
    return 1;
  }
  return check_1d(rank, dst, target.lo[0]);
}
#else
// Calls visit(i, global) for the i-th element, in local row-major order, of
// the box at `offset` with `extent`; global is its row-major global index.
template <class Visit>
void for_each_element(const std::size_t offset[], const std::size_t extent[], Visit visit) {
  std::size_t count = 1;
  for (int d = 0; d < G::kRank; ++d) count *= extent[d];
  std::size_t local[G::kRank] = {};
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t global = 0;
    for (int d = 0; d < G::kRank; ++d) global = global * G::kGlobalShape[d] + offset[d] + local[d];
    visit(i, global);
    for (int d = G::kRank - 1; d >= 0; --d) {
      if (++local[d] < extent[d]) break;
      local[d] = 0;
    }
  }
}

// 0 when this rank ends with its target box, else 1 (with a message).
int run_and_check(int rank) {
  redist::Mesh mesh;
  if (redist::Status st = G::create_mesh(MPI_COMM_WORLD, &mesh); !st.ok()) {
    std::fprintf(stderr, "rank %d: create_mesh: %s\n", rank, st.message().c_str());
    return 1;
  }
  std::size_t off[G::kRank], ext[G::kRank];
  if (!G::src_box(rank, off, ext)) {
    std::fprintf(stderr, "rank %d: src_box rejected the rank\n", rank);
    return 1;
  }
  std::vector<std::uint8_t> src(G::kSrcBytes);
  for_each_element(off, ext, [&](std::size_t i, std::uint64_t g) { src[i] = value_at(g); });
  std::vector<std::uint8_t> dst(G::kTgtBytes, 0xAB);
  std::vector<std::uint8_t> workspace(G::kWorkspaceBytes + 1);
  if (redist::Status st = G::run(mesh, src.data(), src.size(), dst.data(), dst.size(),
                                 workspace.data(), G::kWorkspaceBytes);
      !st.ok()) {
    std::fprintf(stderr, "rank %d: run: %s\n", rank, st.message().c_str());
    return 1;
  }
  G::tgt_box(rank, off, ext);
  std::size_t wrong = 0, first = 0;
  for_each_element(off, ext, [&](std::size_t i, std::uint64_t g) {
    if (dst[i] != value_at(g) && wrong++ == 0) first = i;
  });
  if (wrong > 0) {
    std::fprintf(stderr, "rank %d: %zu of %zu elements wrong, the first at local index %zu\n", rank,
                 wrong, dst.size(), first);
    return 1;
  }
  std::printf("rank %d: %zu bytes received, every element correct\n", rank, dst.size());
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int failures = run_and_check(rank);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
