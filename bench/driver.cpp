// The MPI side of the benchmark: for every problem of one world size (the
// table bench/gen.py writes into problems.hpp), runs redist's exchange and,
// where they apply, its collective plan, the other candidates auto weighed
// and the gather-everything plan, then the plain-MPI baselines on the same
// source array: for a plain problem the one-shot MPI_Alltoallv, ScaLAPACK's
// psgemr2d and FFTW-MPI's transpose, for one with pending sums
// MPI_Reduce_scatter / MPI_Allreduce (reduce_scatter.cpp).  Then single
// copy on a host: the exchange's plan and auto's choice again with the
// source array and the workspace from redist::shared_alloc (redist_exch_shm,
// redist_shm), and on the large suite the split phase's overlap with a
// compute kernel.  Checks every target element, and prints one JSON line
// per problem and system; first, the copy bandwidth of all ranks at once
// (the floor's denominator).
//
//   mpirun -np N driver REPS
#include <algorithm>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <fftw3-mpi.h>

#include "bench_common.hpp"
#include "kernel.hpp"
#include "problems.hpp"
#include "redist/shared.hpp"

namespace {

using bench::Box;
using bench::Problem;
using bench::Timing;
using bench::all_ranks;
using bench::time_runs;

// Contributions as bench/problems.py defines them, at global index g with
// v = g mod kValueModulus: for max, member g mod group holds v and member m
// the others v - 7 + part(g, m); else member m > 0 holds part(g, m) and
// member 0 the rest of v (of group * v for avg; all of v in a group of one).
long long part(std::size_t g, int m) { return static_cast<long long>((31 * g + 17 * static_cast<std::size_t>(m)) % 13) - 6; }

long long contribution(std::size_t g, int m, int group, redist::Op op) {
  const long long v = static_cast<long long>(g % kValueModulus);
  if (op == redist::Op::max)
    return g % static_cast<std::size_t>(group) == static_cast<std::size_t>(m) ? v : v - 7 + part(g, m);
  if (m > 0) return part(g, m);
  long long first = op == redist::Op::avg ? group * v : v;
  for (int j = 1; j < group; ++j) first -= part(g, j);
  return first;
}

// Fills box b with member m's contribution in a pending group of `group`
// of op (the global values: m = 0, group = 1).
void fill_box(const Problem& p, const Box& b, int m, int group, redist::Op op, float* a) {
  std::size_t idx[bench::kMaxRank] = {};
  const std::size_t n = b.elems();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = 0;
    for (int d = 0; d < p.ndim; ++d) g = g * p.shape[d] + b.off[d] + idx[d];
    a[i] = static_cast<float>(contribution(g, m, group, op));
    for (int d = p.ndim - 1; d >= 0 && ++idx[d] == b.ext[d]; --d) idx[d] = 0;
  }
}

// recv: the elements this rank received (< 0: the traffic comes from
// elsewhere, the verified checker's count in gen.py); reported as the most
// and the sum over ranks.  peak_bytes: the most any rank holds: its buffers
// (`buffers`, allocated before timing) plus its heap growth inside the timed
// calls.
void report(int rank, const Problem& p, const char* system, const Timing& t, bool ok, long long recv,
            long long buffers, const char* note) {
  long long mine[3] = {buffers + t.heap, t.heap, recv}, most[3] = {0, 0, 0};
  MPI_Allreduce(mine, most, 3, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  long long recv_total = 0;
  MPI_Allreduce(&recv, &recv_total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const long long peak_bytes = buffers < 0 ? -1 : most[0];
  const long long recv_max = recv < 0 ? -1 : most[2];
  if (recv < 0) recv_total = -1;
  if (rank != 0) return;
  std::string times;
  for (double v : t.ms) times += (times.empty() ? "" : ",") + std::to_string(v);
  std::printf(
      "{\"problem\":\"%s\",\"system\":\"%s\",\"time_ms\":%.4f,\"times_ms\":[%s],\"ok\":%s,"
      "\"recv_max\":%lld,\"recv_total\":%lld,\"peak_bytes\":%lld,\"heap_bytes\":%lld,\"note\":\"%s\"}\n",
      p.name, system, t.ms.empty() ? -1.0 : t.median(), times.c_str(), ok ? "true" : "false", recv_max,
      recv_total, peak_bytes, most[1], note);
  std::fflush(stdout);
}

void fail(const char* what, const redist::Status& st) {
  std::fprintf(stderr, "bench driver: %s: %s\n", what, st.message().c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// A buffer of redist::shared_alloc, freed with the object: collective, so
// every rank makes and drops its buffers in the same order.
class SharedBuffer {
 public:
  explicit SharedBuffer(std::size_t bytes) {
    if (redist::Status st = redist::shared_alloc(MPI_COMM_WORLD, bytes, &p_); !st.ok()) fail("shared_alloc", st);
  }
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;
  ~SharedBuffer() {
    if (redist::Status st = redist::shared_free(MPI_COMM_WORLD, p_); !st.ok()) fail("shared_free", st);
  }
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

// Where a system's source array and workspace lie: the driver's own
// memory (today's transport), or buffers of redist::shared_alloc that the
// exchanges read in place on this host (single copy).
enum class Arrays { heap, shared };

// A copy of `src` and a workspace of `workspace_bytes` (at least one byte)
// where `arrays` says.
class PlacedArrays {
 public:
  PlacedArrays(Arrays arrays, const std::vector<float>& src, std::size_t workspace_bytes)
      : src_bytes_(src.size() * sizeof(float)), workspace_bytes_(std::max<std::size_t>(workspace_bytes, 1)) {
    if (arrays == Arrays::heap) {
      heap_src_ = src;
      heap_workspace_.resize(workspace_bytes_);
      return;
    }
    shared_src_ = std::make_unique<SharedBuffer>(src_bytes_);
    shared_workspace_ = std::make_unique<SharedBuffer>(workspace_bytes_);
    std::memcpy(shared_src_->get(), src.data(), src_bytes_);
  }
  const void* src() const { return shared_src_ ? shared_src_->get() : heap_src_.data(); }
  std::size_t src_bytes() const { return src_bytes_; }
  void* workspace() { return shared_workspace_ ? shared_workspace_->get() : heap_workspace_.data(); }
  std::size_t workspace_bytes() const { return workspace_bytes_; }

 private:
  std::size_t src_bytes_, workspace_bytes_;
  std::vector<float> heap_src_;
  std::vector<unsigned char> heap_workspace_;
  std::unique_ptr<SharedBuffer> shared_src_, shared_workspace_;
};

void run_plan(const Problem& p, const bench::Plan& plan, const char* system, int rank, int reps,
              const std::vector<float>& src, std::vector<float>& dst, const std::vector<float>& want,
              const char* why_not, Arrays arrays = Arrays::heap) {
  if (plan.create == nullptr) {
    report(rank, p, system, Timing{}, false, -1, -1, why_not);
    return;
  }
  redist::Mesh mesh;
  if (redist::Status st = plan.create(MPI_COMM_WORLD, &mesh); !st.ok()) fail("create_mesh", st);
  PlacedArrays placed(arrays, src, plan.workspace_bytes);
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] {
    redist::Status st = plan.run(mesh, placed.src(), placed.src_bytes(), dst.data(), dst.size() * sizeof(float),
                                 placed.workspace(), placed.workspace_bytes());
    if (!st.ok()) fail(system, st);
  });
  if (plan.release != nullptr) plan.release();
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers = static_cast<long long>((src.size() + dst.size()) * sizeof(float) + plan.workspace_bytes);
  // Traffic of the plans comes from the verified checker (gen.py), not here.
  report(rank, p, system, t, ok, -1, buffers, "");
}

void run_alltoallv(const Problem& p, int rank, int size, int reps, const std::vector<float>& src,
                   std::vector<float>& dst, const std::vector<float>& want) {
  const bench::AlltoallvPlan plan = bench::alltoallv_plan(p, rank, size);
  std::vector<float> sendbuf(plan.send_displs.back() + plan.send_counts.back());
  std::vector<float> recvbuf(plan.recv_displs.back() + plan.recv_counts.back());
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] {
    bench::alltoallv_run(plan, src.data(), dst.data(), sendbuf, recvbuf, MPI_COMM_WORLD);
  });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers =
      static_cast<long long>((src.size() + dst.size() + sendbuf.size() + recvbuf.size()) * sizeof(float));
  report(rank, p, "alltoallv", t, ok, static_cast<long long>(plan.recv_elems), buffers, "");
}

void run_scalapack(const Problem& p, int rank, int size, int reps, const std::vector<float>& src,
                   std::vector<float>& dst, const std::vector<float>& want) {
  const char* why_not = "";
  bench::Gemr2d* g = bench::gemr2d_setup(p, rank, size, &why_not);
  if (g == nullptr) {
    report(rank, p, "scalapack", Timing{}, false, -1, -1, why_not);
    return;
  }
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] { bench::gemr2d_run(g, src.data(), dst.data()); });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers = static_cast<long long>((src.size() + dst.size()) * sizeof(float));
  report(rank, p, "scalapack", t, ok, static_cast<long long>(bench::gemr2d_recv_elems(g)), buffers, "");
  bench::gemr2d_free(g);
}

void run_reduce_scatter(const Problem& p, int rank, int size, int reps, const std::vector<float>& src,
                        std::vector<float>& dst, const std::vector<float>& want) {
  const char* why_not = "";
  bench::ReduceScatter* rs = bench::reduce_scatter_setup(p, rank, size, &why_not);
  if (rs == nullptr) {
    report(rank, p, "mpi_rs", Timing{}, false, -1, -1, why_not);
    return;
  }
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] { bench::reduce_scatter_run(rs, src.data(), dst.data()); });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers =
      static_cast<long long>((src.size() + dst.size()) * sizeof(float) + bench::reduce_scatter_buffer_bytes(rs));
  report(rank, p, "mpi_rs", t, ok, static_cast<long long>(bench::reduce_scatter_recv_elems(rs)), buffers,
         bench::reduce_scatter_what(rs));
  bench::reduce_scatter_free(rs);
}

void run_fftw(const Problem& p, int rank, int size, int reps, const std::vector<float>& src,
              const std::vector<float>& want) {
  if (p.fftw_direction == 0) {
    report(rank, p, "fftw", Timing{}, false, -1, -1,
           "n/a: FFTW transposes rows over all ranks to columns over all ranks (2-D, one mesh) only");
    return;
  }
  bench::FftwTranspose* f = bench::fftw_setup(p, size);
  if (f == nullptr) {
    report(rank, p, "fftw", Timing{}, false, -1, -1, "fftw: no plan");
    return;
  }
  std::memcpy(bench::fftw_in(f), src.data(), src.size() * sizeof(float));
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] { bench::fftw_run(f); });
  const bool ok = all_ranks(std::equal(want.begin(), want.end(), bench::fftw_out(f)), MPI_COMM_WORLD);
  // What FFTW receives: the elements of its target box not in its source box.
  const Box mine = bench::tgt_box(p, rank), own = bench::src_box(p, rank);
  Box kept;
  const std::size_t recv = want.size() - (bench::intersect(mine, own, &kept) ? kept.elems() : 0);
  report(rank, p, "fftw", t, ok, static_cast<long long>(recv),
         static_cast<long long>(2 * bench::fftw_array_elems(f) * sizeof(float)), "");
  bench::fftw_free(f);
}

// The plan of the system auto chose (bench/gen.py's auto_choice).
const bench::Plan& auto_plan(const Problem& p) {
  const std::string chosen = p.auto_system;
  if (chosen == "redist_coll") return p.collectives;
  for (const bench::Candidate& c : p.candidates)
    if (chosen == "cand" + std::to_string(c.index)) return c.plan;
  return p.exchange;
}

// Split-phase overlap on a large problem: its direct exchange (the
// geometry's) started, a compute kernel calibrated to last as long as the
// exchange alone, testing the exchange between its slices, then wait();
// the source from the heap (today's transport: MPI moves the data during
// the tests) or from shared_alloc (single copy: start() itself makes the
// copies).  Per repetition t_exchange (run(), blocking), t_compute (the
// kernel alone) and t_pair, each the slowest rank's; hidden = (t_exchange +
// t_compute - t_pair) / min(t_exchange, t_compute): 1 when the pair costs
// the longer of the two, 0 when their sum.  Medians over the repetitions;
// every element checked after each pair.
void run_overlap(const Problem& p, int rank, int reps, const std::vector<float>& src, std::vector<float>& dst,
                 const std::vector<float>& want, Arrays arrays) {
  redist::Exchange ex;
  if (redist::Status st = redist::Exchange::create(MPI_COMM_WORLD, p.geometry.source_mesh(),
                                                   p.geometry.source_layout(), p.geometry.target_mesh(),
                                                   p.geometry.target_layout(), sizeof(float), &ex);
      !st.ok())
    fail("overlap: Exchange::create", st);
  PlacedArrays placed(arrays, src, 0);
  const auto require = [](const redist::Status& st) {
    if (!st.ok()) fail("overlap", st);
  };
  const auto timed = [](const std::function<void()>& f) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = -MPI_Wtime();
    f();
    t += MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
  };
  const std::size_t dst_bytes = dst.size() * sizeof(float);
  const auto exchange = [&] { require(ex.run(placed.src(), placed.src_bytes(), dst.data(), dst_bytes)); };
  const auto nop = [] {};
  const long probe = 2000000;
  const double per_iteration = timed([&] { bench::compute(probe / bench::kSlices, nop); }) / probe;
  exchange();  // warm-up
  const Timing alone = time_runs(std::max(reps, 3), MPI_COMM_WORLD, exchange);
  long iterations = std::max(1L, static_cast<long>(alone.median() * 1e-3 / per_iteration / bench::kSlices));
  MPI_Bcast(&iterations, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  std::vector<double> t_exchange, t_compute, t_pair, hidden;
  bool ok = true;
  for (int r = 0; r < reps; ++r) {
    const double e = timed(exchange), c = timed([&] { bench::compute(iterations, nop); });
    std::fill(dst.begin(), dst.end(), -1.0f);
    const double pair = timed([&] {
      require(ex.start(placed.src(), placed.src_bytes(), dst.data(), dst_bytes));
      bool done = false;
      bench::compute(iterations, [&] {
        if (!done) require(ex.test(&done));
      });
      require(ex.wait());
    });
    ok = all_ranks(dst == want, MPI_COMM_WORLD) && ok;
    t_exchange.push_back(e * 1e3);
    t_compute.push_back(c * 1e3);
    t_pair.push_back(pair * 1e3);
    hidden.push_back((e + c - pair) / std::min(e, c));
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  if (rank == 0)
    std::printf("{\"overlap\":\"%s\",\"arrays\":\"%s\",\"ok\":%s,\"t_exchange_ms\":%.4f,\"t_compute_ms\":%.4f,"
                "\"t_pair_ms\":%.4f,\"hidden\":%.4f}\n",
                p.name, arrays == Arrays::shared ? "single copy" : "MPI", ok ? "true" : "false", median(t_exchange),
                median(t_compute), median(t_pair), median(hidden));
  std::fflush(stdout);
}

// Every rank copies `bytes` at once, after one warm-up: per repetition the
// wall time from the first rank's start to the last rank's end (ranks that
// take turns on few cores each copy in one time slice, so the slowest
// rank's own time would miss the turns), sorted.
std::vector<double> copy_wall_ms(const void* from, void* to, std::size_t bytes, int reps) {
  std::vector<double> ms;
  for (int i = 0; i <= reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = -MPI_Wtime();
    std::memcpy(to, from, bytes);
    double end = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (i > 0) ms.push_back((end + start) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

// STREAM's copy with every rank at once, arrays past the caches: the bytes
// all ranks copy per second (each byte read once and written once), best of 5.
void report_copy_bandwidth(int rank, int size) {
  const std::size_t per_rank = (std::size_t{512} << 20) / static_cast<std::size_t>(size);
  std::vector<char> from(per_rank, 1), to(per_rank, 0);
  const double best_ms = copy_wall_ms(from.data(), to.data(), per_rank, 5).front();
  if (rank == 0)
    std::printf("{\"copy_bandwidth\":true,\"world\":%d,\"bytes_per_rank\":%zu,\"bytes_per_s\":%.6g}\n", size,
                per_rank, static_cast<double>(per_rank) * size / (best_ms * 1e-3));
}

// The problem's floor, measured beside its systems (same ranks, same
// moment and load, the same bytes, so in the caches where the target boxes
// fit): every rank copies its target box once, timing its own copy; per
// repetition the least wall time in which `cores` cores can do all those
// copies (the largest one, or their sum spread over the cores), sorted.
// No system can do less: each must write every target element, and the
// ranks share the cores.
std::vector<double> target_copy_floor_ms(const std::vector<float>& from, std::vector<float>& to, int reps,
                                         int cores) {
  std::vector<double> ms;
  for (int i = 0; i <= reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    std::memcpy(to.data(), from.data(), from.size() * sizeof(float));
    const double mine = MPI_Wtime() - t0;
    double most = 0, all = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (i > 0) ms.push_back(std::max(most, all / cores) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (size != kWorld || reps < 1) {
    if (rank == 0) std::fprintf(stderr, "bench driver: needs %d ranks and REPS >= 1\n", kWorld);
    MPI_Finalize();
    return 2;
  }
  const int cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  fftwf_mpi_init();
  report_copy_bandwidth(rank, size);
  for (const Problem& p : kProblems) {
    const Box sb = bench::src_box(p, rank);
    const Box tb = bench::tgt_box(p, rank);
    std::vector<float> src(sb.elems()), dst(tb.elems()), want(tb.elems());
    fill_box(p, sb, bench::member_index(p, rank), bench::group_size(p), p.op, src.data());
    fill_box(p, tb, 0, 1, redist::Op::sum, want.data());
    long long target_bytes = static_cast<long long>(tb.elems() * sizeof(float));
    MPI_Allreduce(MPI_IN_PLACE, &target_bytes, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const std::vector<double> floor = target_copy_floor_ms(want, dst, reps, cores);
    if (rank == 0)
      std::printf("{\"problem_sizes\":\"%s\",\"target_bytes_total\":%lld,\"copy_floor_ms\":%.4f,"
                  "\"copy_floor_min_ms\":%.4f}\n",
                  p.name, target_bytes, floor[floor.size() / 2], floor.front());

    run_plan(p, p.exchange, "redist_exch", rank, reps, src, dst, want, "");
    run_plan(p, p.collectives, "redist_coll", rank, reps, src, dst, want,
             "n/a: the collective plans take even problems on one mesh");
    run_plan(p, p.easy, "gather_all", rank, reps, src, dst, want,
             "n/a: uneven, between meshes, pending sums, or the whole array on every rank would not fit");
    for (const bench::Candidate& c : p.candidates)
      run_plan(p, c.plan, ("cand" + std::to_string(c.index)).c_str(), rank, reps, src, dst, want, "");
    // Single copy: the exchanges (direct, reducing, a hybrid's parts) read
    // the shared source and intermediate in place; collectives go by MPI.
    run_plan(p, p.exchange, "redist_exch_shm", rank, reps, src, dst, want, "", Arrays::shared);
    run_plan(p, auto_plan(p), "redist_shm", rank, reps, src, dst, want, "", Arrays::shared);
    if (p.large && bench::group_size(p) == 1)
      for (Arrays arrays : {Arrays::heap, Arrays::shared}) run_overlap(p, rank, reps, src, dst, want, arrays);
    // The other baselines copy; pending sums need plain MPI's reductions.
    if (bench::group_size(p) > 1) {
      run_reduce_scatter(p, rank, size, reps, src, dst, want);
      continue;
    }
    run_alltoallv(p, rank, size, reps, src, dst, want);
    run_scalapack(p, rank, size, reps, src, dst, want);
    run_fftw(p, rank, size, reps, src, want);
  }
  fftwf_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
