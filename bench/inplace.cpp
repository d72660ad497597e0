// In place beside out of place (issue 28, bench/inplace.py): one problem of
// the large suite through the C ABI, with its memory per rank.
//
//   redist_exch       the direct exchange out of place (redist_plan_create_with,
//                     strategy exchange): source + target + workspace
//   redist_inplace_5  redist_plan_create_in_place with staging of 5% (25%) of
//   redist_inplace_25 the largest buffer: one buffer, max(source, target), + staging
//   fftw_inplace      fftwf_mpi_plan_many_transpose with in == out, where FFTW
//                     expresses the move (bench/fftw.cpp): its array of
//                     fftw_mpi_local_size elements
//
// Every target element is checked after the runs (the in-place buffer is
// refilled with the source, untimed, before each).  One JSON line per
// system: time median and range over the runs (the slowest rank's), the
// bytes allocated for the move (the most over ranks) and the heap the
// system holds beyond them after its setup and grows by during its runs
// (bench/heap_counter.cpp), or why it did not run.
//
//   mpirun -np N inplace MESH FROM TO N0xN1 FFTW_DIRECTION REPS
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fftw3-mpi.h>

#include "bench_common.hpp"
#include "redist/redist.h"

namespace {

using bench::Timing;

int g_rank = 0;

// Element g of the global array (row-major index): exact in f32.
float value_at(std::size_t g) { return static_cast<float>(g % 1000003); }

struct Box {
  std::size_t off[2] = {}, ext[2] = {};
  std::size_t elems() const { return ext[0] * ext[1]; }
};

void fill(const Box& b, std::size_t n1, float* a) {
  for (std::size_t i = 0; i < b.ext[0]; ++i)
    for (std::size_t j = 0; j < b.ext[1]; ++j) a[i * b.ext[1] + j] = value_at((b.off[0] + i) * n1 + b.off[1] + j);
}

bool holds(const Box& b, std::size_t n1, const float* a) {
  for (std::size_t i = 0; i < b.ext[0]; ++i)
    for (std::size_t j = 0; j < b.ext[1]; ++j)
      if (a[i * b.ext[1] + j] != value_at((b.off[0] + i) * n1 + b.off[1] + j)) return false;
  return true;
}

long long most(long long mine) {
  long long m = 0;
  MPI_Allreduce(&mine, &m, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

void report(const char* system, const Timing& t, bool ok, long long alloc_bytes, long long setup_heap,
            const std::string& note) {
  const long long alloc = most(alloc_bytes), setup = most(setup_heap), run = most(t.heap);
  if (g_rank != 0) return;
  std::string times;
  for (double v : t.ms) times += (times.empty() ? "" : ",") + std::to_string(v);
  const double lo = t.ms.empty() ? -1 : *std::min_element(t.ms.begin(), t.ms.end());
  const double hi = t.ms.empty() ? -1 : *std::max_element(t.ms.begin(), t.ms.end());
  std::printf("{\"system\":\"%s\",\"ok\":%s,\"time_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,\"times_ms\":[%s],"
              "\"alloc_bytes\":%lld,\"setup_heap_bytes\":%lld,\"run_heap_bytes\":%lld,\"note\":\"%s\"}\n",
              system, ok ? "true" : "false", t.ms.empty() ? -1.0 : t.median(), lo, hi, times.c_str(), alloc, setup,
              run, note.c_str());
  std::fflush(stdout);
}

void skip(const char* system, const std::string& why) { report(system, Timing{}, false, -1, -1, why); }

void require(int rc, const char* what, const char* err) {
  if (rc == 0) return;
  std::fprintf(stderr, "bench inplace: %s: %s\n", what, err);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

Box box_of(const redist_plan_t* plan, int rank, bool source) {
  Box b;
  char err[256];
  const int rc = source ? redist_plan_src_box(plan, rank, b.off, b.ext, err, sizeof err)
                        : redist_plan_tgt_box(plan, rank, b.off, b.ext, err, sizeof err);
  require(rc, "box", err);
  return b;
}

void run_exchange(const redist_plan_t* plan, const Box& sb, const Box& tb, std::size_t n1, int reps) {
  char err[512];
  const long long before = bench::heap_now();
  redist_exec_t* exec = nullptr;
  require(redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err), "bind", err);
  std::vector<float> src(sb.elems()), dst(tb.elems(), -1.0f);
  std::vector<unsigned char> workspace(std::max<uint64_t>(redist_plan_workspace_bytes(plan), 1));
  const long long allocated = static_cast<long long>((src.size() + dst.size()) * sizeof(float) +
                                                     redist_plan_workspace_bytes(plan));
  const long long setup = bench::heap_now() - before - static_cast<long long>(workspace.size()) -
                          static_cast<long long>((src.size() + dst.size()) * sizeof(float));
  fill(sb, n1, src.data());
  const Timing t = bench::time_runs(reps, MPI_COMM_WORLD, [&] {
    require(redist_exec_run(exec, src.data(), src.size() * sizeof(float), dst.data(), dst.size() * sizeof(float),
                            workspace.data(), workspace.size(), err, sizeof err),
            "redist_exec_run", err);
  });
  const bool ok = bench::all_ranks(holds(tb, n1, dst.data()), MPI_COMM_WORLD);
  redist_exec_free(exec);
  report("redist_exch", t, ok, allocated, setup, "");
}

void run_in_place(const char* system, const char* mesh, const char* from, const char* to, std::size_t staging_bytes,
                  const Box& sb, const Box& tb, std::size_t n1, int reps) {
  char err[512];
  redist_plan_t* plan = nullptr;
  if (redist_plan_create_in_place(mesh, nullptr, from, to, "f32", staging_bytes, &plan, err, sizeof err) != 0) {
    skip(system, "refused: " + std::string(err));
    return;
  }
  const long long before = bench::heap_now();
  redist_exec_t* exec = nullptr;
  require(redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err), "bind", err);
  const std::size_t buf_bytes = redist_plan_buffer_bytes(plan, g_rank);
  const std::size_t staged = redist_plan_workspace_bytes(plan);
  std::vector<float> buf(buf_bytes / sizeof(float));
  std::vector<unsigned char> staging(staged);
  const long long setup = bench::heap_now() - before - static_cast<long long>(buf_bytes + staged);
  const Timing t = bench::time_runs(
      reps, MPI_COMM_WORLD,
      [&] {
        require(redist_exec_run_in_place(exec, buf.data(), buf_bytes, staged > 0 ? staging.data() : nullptr, staged,
                                         err, sizeof err),
                system, err);
      },
      [&] { fill(sb, n1, buf.data()); });
  const bool ok = bench::all_ranks(holds(tb, n1, buf.data()), MPI_COMM_WORLD);
  redist_exec_free(exec);
  const std::string note = std::to_string(redist_plan_num_steps(plan)) + " rounds, staging " +
                           std::to_string(staged) + " of " + std::to_string(staging_bytes) + " bytes";
  redist_plan_free(plan);
  report(system, t, ok, static_cast<long long>(buf_bytes + staged), setup, note);
}

void run_fftw(std::size_t n0, std::size_t n1, int direction, int size, const Box& sb, const Box& tb, int reps) {
  if (direction == 0) {
    skip("fftw_inplace", "n/a: FFTW transposes rows over all ranks to columns over all ranks (2-D, one mesh) only");
    return;
  }
  bench::Problem p{};
  p.ndim = 2;
  p.shape[0] = n0;
  p.shape[1] = n1;
  p.fftw_direction = direction;
  const long long before = bench::heap_now();
  bench::FftwTranspose* f = bench::fftw_setup(p, size, true);
  if (f == nullptr) {
    skip("fftw_inplace", "fftw: no plan");
    return;
  }
  const long long array_bytes = static_cast<long long>(bench::fftw_array_elems(f) * sizeof(float));
  const long long setup = bench::heap_now() - before - array_bytes;
  float* a = bench::fftw_in(f);
  const Timing t = bench::time_runs(reps, MPI_COMM_WORLD, [&] { bench::fftw_run(f); }, [&] { fill(sb, n1, a); });
  const bool ok = bench::all_ranks(holds(tb, n1, bench::fftw_out(f)), MPI_COMM_WORLD);
  bench::fftw_free(f);
  report("fftw_inplace", t, ok, array_bytes, setup, "");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::size_t n0 = 0, n1 = 0;
  const int reps = argc == 7 ? std::atoi(argv[6]) : 0;
  if (argc != 7 || std::sscanf(argv[4], "%zux%zu", &n0, &n1) != 2 || reps < 1) {
    if (g_rank == 0) std::fprintf(stderr, "usage: inplace MESH FROM TO N0xN1 FFTW_DIRECTION REPS (REPS >= 1)\n");
    MPI_Finalize();
    return 2;
  }
  const char *mesh = argv[1], *from = argv[2], *to = argv[3];
  char err[512];
  redist_plan_t* exchange = nullptr;
  require(redist_plan_create_with(mesh, nullptr, from, to, "f32", "exchange", &exchange, err, sizeof err),
          "redist_plan_create_with", err);
  const Box sb = box_of(exchange, g_rank, true), tb = box_of(exchange, g_rank, false);
  fftwf_mpi_init();
  run_exchange(exchange, sb, tb, n1, reps);
  // The staging budgets are shares of the largest buffer of any rank.
  const long long largest = most(static_cast<long long>(std::max(sb.elems(), tb.elems()) * sizeof(float)));
  for (int percent : {5, 25}) {
    const std::size_t staging = std::max<std::size_t>(largest * percent / 100 / sizeof(float), 1) * sizeof(float);
    run_in_place(("redist_inplace_" + std::to_string(percent)).c_str(), mesh, from, to, staging, sb, tb, n1, reps);
  }
  run_fftw(n0, n1, std::atoi(argv[5]), size, sb, tb, reps);
  redist_plan_free(exchange);
  fftwf_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
