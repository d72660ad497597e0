// redist calibrate's measurements, run under mpirun: the latency and
// bandwidth of messages between rank 0 and rank 1 (same host) and, given
// a rank on another host as argv[2], between rank 0 and that rank; the
// single copy between ranks 0 and 1 (a direct exchange whose source arrays
// come from redist::shared_alloc); and the bandwidth of a local copy on
// rank 0.  Rank 0 writes them to argv[1] as JSON for redist.
#include <mpi.h>
#include <redist/exchange.hpp>
#include <redist/shared.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int kLatencyRounds = 2000;
constexpr int kBandwidthRounds = 20;
constexpr std::size_t kSmall = 8;
constexpr std::size_t kLarge = std::size_t{4} << 20;
constexpr std::size_t kCopy = std::size_t{16} << 20;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds for one message from rank 0 to [peer]: half a round trip, the
// best of [rounds] (the least disturbed by other processes on the cores).
double one_way_s(int rank, int peer, std::vector<char>& buf, std::size_t bytes, int rounds) {
  const int n = static_cast<int>(bytes);
  double best = 1e30;
  for (int i = 0; i < rounds; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_s();
    if (rank == 0) {
      MPI_Send(buf.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == peer) {
      MPI_Recv(buf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    const double t = (now_s() - t0) / 2;
    if (t < best) best = t;
  }
  return best;
}

struct Link {
  long long latency_ns;
  long long bytes_per_us;
};

Link measure(int rank, int peer, std::vector<char>& buf) {
  const double small = one_way_s(rank, peer, buf, kSmall, kLatencyRounds);
  const double large = one_way_s(rank, peer, buf, kLarge, kBandwidthRounds);
  // The large message's time less the latency is its transfer.
  const double transfer = large > small ? large - small : large;
  return {static_cast<long long>(small * 1e9), static_cast<long long>(kLarge / (transfer * 1e6))};
}

// The runtime refused a call: the calibration cannot go on.
void require(const redist::Status& st) {
  if (!st.ok()) {
    std::printf("redist-calibrate-error: %s\n", st.message().c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

// Ranks 0 and 1 swap blocks of `bytes` (a direct exchange of one message
// each way, the mesh's ranks reversed); the other ranks take no part.
struct Swap {
  redist::Exchange exchange;
  std::vector<char> heap, dst;
  void* shared = nullptr;
};

void make_swap(std::size_t bytes, Swap* swap) {
  int two = 2;
  redist::PlacedMesh source = redist::PlacedMesh::contiguous(&two, 1, 0), target = source;
  std::reverse(target.ranks.begin(), target.ranks.end());
  redist::BlockLayout halves;
  halves.ndim = 1;
  halves.extent[0] = 2 * bytes;
  halves.sharding[0] = redist::DimSharding{1, {0}};
  require(redist::Exchange::create(MPI_COMM_WORLD, source, halves, target, halves, 1, &swap->exchange));
  swap->heap.assign(swap->exchange.source_bytes(), 3);
  swap->dst.assign(swap->exchange.target_bytes(), 0);
  require(redist::shared_alloc(MPI_COMM_WORLD, swap->exchange.source_bytes(), &swap->shared));
  std::memset(swap->shared, 3, swap->exchange.source_bytes());
}

// Seconds of one swap on rank 0 with the source array on the heap (MPI)
// or from shared_alloc (single copy), the best of [rounds]; negative when
// single copy did not apply (ranks 0 and 1 not on one host).
double swap_s(Swap& swap, bool single, int rounds) {
  redist::Exchange& ex = swap.exchange;
  const void* src = single ? swap.shared : static_cast<const void*>(swap.heap.data());
  double best = 1e30;
  int missed = 0;
  for (int i = 0; i < rounds; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_s();
    require(ex.run(ex.source_bytes() ? src : nullptr, ex.source_bytes(), ex.target_bytes() ? swap.dst.data() : nullptr,
                   ex.target_bytes()));
    const double t = now_s() - t0;
    if (t < best) best = t;
    if (single && ex.direct_elements() != ex.target_bytes()) missed = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &missed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return missed ? -1 : best;
}

// The single-copy link: its bandwidth from a large swap less a small one;
// its latency the same-host latency plus what a small swap by single copy
// takes beyond one by MPI (the exchange's own agreement between ranks is in
// both, and is not a message's price).  {-1, -1} when it did not apply.
Link measure_single_copy(const Link& same) {
  Swap small, large;
  make_swap(kSmall, &small);
  make_swap(kLarge, &large);
  const double small_mpi = swap_s(small, false, kLatencyRounds / 4);
  const double small_single = swap_s(small, true, kLatencyRounds / 4);
  const double large_single = swap_s(large, true, kBandwidthRounds);
  require(redist::shared_free(MPI_COMM_WORLD, small.shared));
  require(redist::shared_free(MPI_COMM_WORLD, large.shared));
  if (small_single < 0 || large_single < 0) return {-1, -1};
  const double extra = small_single > small_mpi ? small_single - small_mpi : 0;
  const double transfer = large_single > small_single ? large_single - small_single : large_single;
  return {same.latency_ns + static_cast<long long>(extra * 1e9), static_cast<long long>(kLarge / (transfer * 1e6))};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // argv[1]: the file rank 0 writes its measurements to (JSON); argv[2]: the far rank, if any.
  const char* result_path = argc > 1 ? argv[1] : nullptr;
  const int far = argc > 2 ? std::atoi(argv[2]) : -1;
  if (size < 2 || far >= size || result_path == nullptr) {
    if (rank == 0) std::printf("redist-calibrate-error: needs 2 ranks, and the far rank below %d\n", size);
    MPI_Finalize();
    return 1;
  }
  std::vector<char> buf(kLarge, 1);
  const Link same = measure(rank, 1, buf);
  const Link across = far > 0 ? measure(rank, far, buf) : Link{-1, -1};
  const Link single = measure_single_copy(same);
  long long copy_bytes_per_us = 0;
  if (rank == 0) {
    std::vector<char> from(kCopy, 2), to(kCopy, 0);
    double best = 1e30;
    for (int i = 0; i < kBandwidthRounds; ++i) {
      const double t0 = now_s();
      std::memcpy(to.data(), from.data(), kCopy);
      const double t = now_s() - t0;
      if (t < best) best = t;
      from[i] = to[kCopy - 1 - i];  // keeps the copies from being elided
    }
    copy_bytes_per_us = static_cast<long long>(kCopy / (best * 1e6));
    std::FILE* out = std::fopen(result_path, "w");
    if (out == nullptr) {
      std::printf("redist-calibrate-error: cannot write %s\n", result_path);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::fprintf(out,
                 "{\"same_latency_ns\": %lld, \"same_bytes_per_us\": %lld, \"across_latency_ns\": %lld, "
                 "\"across_bytes_per_us\": %lld, \"single_latency_ns\": %lld, \"single_bytes_per_us\": %lld, "
                 "\"copy_bytes_per_us\": %lld}\n",
                 same.latency_ns, same.bytes_per_us, across.latency_ns, across.bytes_per_us, single.latency_ns,
                 single.bytes_per_us, copy_bytes_per_us);
    std::fclose(out);
  }
  MPI_Finalize();
  return 0;
}
