// Single copy on a host (issue 30, runtime/README.md "Single copy on a
// host"): the direct exchange of 64 MiB per rank with its source array on
// the heap (today's transport: Open MPI's shared-memory BTL, which copies
// each byte into a shared segment and out again) against the same exchange
// with its source array from redist::shared_alloc (each receiver reads the
// sender's array in place: one copy), and a plain memcpy of the same bytes
// on each rank (the floor of one copy per byte).  Two problems, the world
// as one axis x:
//   reversed   [{x}N] -> [{x}N] on the ranks reversed: each rank's whole
//              block to one peer, one contiguous piece;
//   transpose  [{x}R, C] -> [R, {x}C]: every rank a strided piece to every
//              other (rows of C/n elements), 1/n of it kept locally;
//   all_to_all the same transpose planned by the collectives through the C
//              ABI (one all_to_all step), today's transport on malloc'ed
//              arrays against single copy with source, destination and
//              workspace from redist_alloc (the plan interpreter reading
//              each peer's chunk in place).
// The three take turns within each repetition (after one warm-up round),
// each timed on the slowest rank between barriers; every element of every
// rank's destination is checked after each (outside the timing), the
// destination refilled with a poison value first.  Printed: min..max and median of the repetitions in ms, and the
// median over the memcpy's median.
//   mpirun -np N shm [reps] [MiB per rank]
#include <redist/exchange.hpp>
#include <redist/redist.h>
#include <redist/shared.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void require(const redist::Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "shm bench: %s\n", st.message().c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

template <class F>
double timed(F f) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  f();
  double seconds = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

struct Summary {
  double lo, median, hi;
};

Summary summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2], ms.back()};
}

// Element (i, j) of the global R x C array of u32 is i * C + j (R * C < 2^32).
struct Problem {
  const char* name;
  redist::PlacedMesh source, target;
  redist::BlockLayout source_layout, target_layout;
};

redist::BlockLayout layout(std::size_t rows, std::size_t cols, int sharded_dim) {
  redist::BlockLayout l;
  l.ndim = 2;
  l.extent[0] = rows;
  l.extent[1] = cols;
  l.sharding[sharded_dim] = redist::DimSharding{1, {0}};
  return l;
}

// The local array of `box` of the global array.
void fill(const redist::Box& box, std::size_t cols, std::uint32_t* out) {
  std::size_t k = 0;
  for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i)
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) out[k++] = static_cast<std::uint32_t>(i * cols + j);
}

std::size_t wrong(const redist::Box& box, std::size_t cols, const std::uint32_t* got) {
  std::size_t k = 0, bad = 0;
  for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i)
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) bad += got[k++] != static_cast<std::uint32_t>(i * cols + j);
  return bad;
}

void require_c(int rc, const char* err) {
  if (rc != REDIST_OK) {
    std::fprintf(stderr, "shm bench: %s\n", err);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

void print_row(const char* problem, const char* variant, const std::vector<double>& ms, double floor_median) {
  const Summary s = summarize(ms);
  std::printf("%-10s %-18s %8.2f..%-8.2f (%8.2f)  %.2f\n", problem, variant, s.lo, s.hi, s.median,
              s.median / floor_median);
}

// The transpose by the collectives (the planner's all_to_all plan, run by
// the C ABI's plan interpreter): memcpy, malloc'ed arrays, redist_alloc'ed ones.
void all_to_all_transpose(int n, int me, int reps, std::size_t rows, std::size_t cols, std::size_t elems) {
  char err[512] = "";
  const std::string mesh = "{x:" + std::to_string(n) + "}";
  const std::string from = "[{x}" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
  const std::string to = "[" + std::to_string(rows) + ", {x}" + std::to_string(cols) + "]";
  redist_plan_t* plan = nullptr;
  redist_exec_t* exec = nullptr;
  require_c(redist_plan_create_with(mesh.c_str(), nullptr, from.c_str(), to.c_str(), "u32", "collectives", &plan, err,
                                    sizeof err),
            err);
  require_c(redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err), err);
  const std::size_t bytes = elems * 4, ws_bytes = redist_plan_workspace_bytes(plan);
  const std::size_t chunk = cols / static_cast<std::size_t>(n);
  const redist::Box source_box{2, {rows / n * me, 0}, {rows / n * (me + 1), cols}};
  const redist::Box target_box{2, {0, chunk * me}, {rows, chunk * (me + 1)}};
  enum { kMemcpy, kToday, kSingle, kVariants };
  const char* names[kVariants] = {"memcpy", "today's transport", "single copy"};
  std::vector<std::uint32_t> heap_src(elems), heap_dst(elems);
  std::vector<unsigned char> heap_ws(ws_bytes + 1);
  void *src = nullptr, *dst = nullptr, *ws = nullptr;
  require_c(redist_alloc(MPI_COMM_WORLD, bytes, &src, err, sizeof err), err);
  require_c(redist_alloc(MPI_COMM_WORLD, bytes, &dst, err, sizeof err), err);
  require_c(redist_alloc(MPI_COMM_WORLD, ws_bytes, &ws, err, sizeof err), err);
  fill(source_box, cols, heap_src.data());
  fill(source_box, cols, static_cast<std::uint32_t*>(src));
  std::uint32_t* sources[kVariants] = {heap_src.data(), heap_src.data(), static_cast<std::uint32_t*>(src)};
  std::uint32_t* targets[kVariants] = {heap_dst.data(), heap_dst.data(), static_cast<std::uint32_t*>(dst)};
  void* workspaces[kVariants] = {nullptr, heap_ws.data(), ws};
  // Every rank reads n-1 of the n chunks of its peers: (n-1)/n of its array.
  const std::size_t direct = bytes / static_cast<std::size_t>(n) * static_cast<std::size_t>(n - 1);
  std::vector<double> ms[kVariants];
  for (int r = -1; r < reps; ++r) {  // r = -1: a warm-up
    for (int v = 0; v < kVariants; ++v) {
      std::fill(targets[v], targets[v] + elems, 0xdeadbeefu);
      long bad = 0;
      double t = 0;
      if (v == kMemcpy) {
        t = timed([&] { std::memcpy(targets[v], sources[v], bytes); });
        bad = std::memcmp(targets[v], sources[v], bytes) != 0;
      } else {
        t = timed([&] {
          require_c(redist_exec_run(exec, sources[v], bytes, targets[v], bytes, workspaces[v], ws_bytes, err, sizeof err),
                    err);
        });
        bad = static_cast<long>(wrong(target_box, cols, targets[v]));
        if (redist_exec_direct_bytes(exec) != (v == kSingle ? direct : 0)) bad += 1;
      }
      MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (bad != 0) {
        if (me == 0) std::fprintf(stderr, "shm bench: all_to_all %s: %ld wrong elements\n", names[v], bad);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      if (r >= 0) ms[v].push_back(1e3 * t);
    }
  }
  const double floor = summarize(ms[kMemcpy]).median;
  for (int v = 0; v < kVariants && me == 0; ++v) print_row("all_to_all", names[v], ms[v], floor);
  redist_exec_free(exec);
  redist_plan_free(plan);
  require_c(redist_free(MPI_COMM_WORLD, ws, err, sizeof err), err);
  require_c(redist_free(MPI_COMM_WORLD, dst, err, sizeof err), err);
  require_c(redist_free(MPI_COMM_WORLD, src, err, sizeof err), err);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const int reps = argc > 1 ? std::max(3, std::atoi(argv[1])) : 7;
    const std::size_t mib = argc > 2 ? static_cast<std::size_t>(std::max(1, std::atoi(argv[2]))) : 64;
    int n = 0, me = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const std::size_t elems = mib * (std::size_t{1} << 20) / 4;  // per rank
    const std::size_t cols = 1024 * static_cast<std::size_t>(n);
    const std::size_t rows = elems * static_cast<std::size_t>(n) / cols;
    Problem reversed{"reversed", redist::PlacedMesh::contiguous(&n, 1, 0), {}, layout(rows, cols, 0), layout(rows, cols, 0)};
    reversed.target = reversed.source;
    std::reverse(reversed.target.ranks.begin(), reversed.target.ranks.end());
    const Problem transpose{"transpose", reversed.source, reversed.source, layout(rows, cols, 0), layout(rows, cols, 1)};
    if (me == 0)
      std::printf("shm bench: %d ranks, %zu MiB per rank, %d repetitions; ms on the slowest rank, min..max (median), "
                  "median / memcpy's median\n",
                  n, mib, reps);
    for (const Problem& p : {reversed, transpose}) {
      redist::Exchange ex;
      require(redist::Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target, p.target_layout, 4, &ex));
      const std::size_t bytes = ex.source_bytes();
      std::vector<std::uint32_t> heap_src(elems), dst(elems);
      void* shared = nullptr;
      require(redist::shared_alloc(MPI_COMM_WORLD, bytes, &shared));
      auto* shared_src = static_cast<std::uint32_t*>(shared);
      fill(ex.source_box(), cols, heap_src.data());
      fill(ex.source_box(), cols, shared_src);
      const std::size_t received = ex.target_bytes() / 4 - ex.kept_elements();
      // The three variants take turns within each repetition, so that the
      // machine's load at a given moment weighs on all three alike.
      enum { kMemcpy, kToday, kSingle, kVariants };
      const char* names[kVariants] = {"memcpy", "today's transport", "single copy"};
      std::uint32_t* sources[kVariants] = {heap_src.data(), heap_src.data(), shared_src};
      std::vector<double> ms[kVariants];
      for (int r = -1; r < reps; ++r) {  // r = -1: a warm-up
        for (int v = 0; v < kVariants; ++v) {
          std::fill(dst.begin(), dst.end(), 0xdeadbeefu);
          long bad = 0;
          double t = 0;
          if (v == kMemcpy) {
            t = timed([&] { std::memcpy(dst.data(), sources[v], bytes); });
            bad = std::memcmp(dst.data(), sources[v], bytes) != 0;
          } else {
            t = timed([&] { require(ex.run(sources[v], bytes, dst.data(), ex.target_bytes())); });
            bad = static_cast<long>(wrong(ex.target_box(), cols, dst.data()));
            if (ex.direct_elements() != (v == kSingle ? received : 0)) bad += 1;
          }
          MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
          if (bad != 0) {
            if (me == 0) std::fprintf(stderr, "shm bench: %s %s: %ld wrong elements\n", p.name, names[v], bad);
            MPI_Abort(MPI_COMM_WORLD, 1);
          }
          if (r >= 0) ms[v].push_back(1e3 * t);
        }
      }
      const double floor = summarize(ms[kMemcpy]).median;
      for (int v = 0; v < kVariants && me == 0; ++v) print_row(p.name, names[v], ms[v], floor);
      require(redist::shared_free(MPI_COMM_WORLD, shared));
    }
    all_to_all_transpose(n, me, reps, rows, cols, elems);
    if (me == 0) std::printf("every element of every rank checked after each repetition\n");
  }
  MPI_Finalize();
  return 0;
}
