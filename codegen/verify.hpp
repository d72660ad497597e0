// Verification of headers emitted by `redist gen` under MPI: shared by
// `redist run` (which embeds this file in the binary) and the end-to-end
// suite tests/e2e/.  Each rank fills its source box with a function of the
// global index, runs the plan on a workspace of exactly kWorkspaceBytes
// between guard bytes, and compares its destination with its target box
// element by element.
//
// Element values (distinct per element where the type allows it):
//   f32, f64   the global index as a float/double while that is exact
//              (< 2^24, < 2^53), else the index's low bits as raw bits;
//   i32, i64, u32, u64   the index (32 bits: modulo 2^32);
//   c128, c64  (index, -index - 0.5) (c64 exact while the index < 2^24);
//   1- and 2-byte types (i8, u8, i16, u16, bool, bf16, f16, f8e4m3,
//              f8e5m2, the floats and bool as raw bits): a 64-bit hash of
//              the index, truncated.  Two elements then share a value with
//              probability 2^-8 or 2^-16, so a misplaced element goes
//              unnoticed with that probability; the wider types catch
//              every misplaced element.
// Comparison is bytewise, so raw bit patterns (NaNs included) are exact.
//
// Memory: ping, pong and scratch of the workspace are filled with a poison
// byte before a run; the highest byte that differs afterwards, over two runs
// with complementary poisons (a written byte differs from one of them), is
// how much of each region the run used.  The measured peak local array is
// the largest of the source, the destination and the used ping and pong
// regions.
//
// Allocation: with REDIST_VERIFY_MAIN defined in one translation unit,
// operator new and malloc/calloc/realloc are counted during the timed and
// checked runs (after one warm-up run, in which MPI sets up its channels).
// A malloc call is the program's own when its return address lies in the
// executable's text, where the runtime and the generated code are linked
// statically; the others come from shared libraries (MPI).
#pragma once

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "redist/mpi.hpp"

namespace redist_verify {

// One generated header, seen through its constants and entry points.
struct Problem {
  const char* name;
  int devices;
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes, src_elems, tgt_elems, peak_elems;
  std::size_t ping_bytes, pong_bytes, scratch_bytes, workspace_bytes;
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
  bool (*src_box)(int, std::size_t*, std::size_t*);
  bool (*tgt_box)(int, std::size_t*, std::size_t*);
  void (*value)(std::uint64_t global, unsigned char* out);
};

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class V>
void value_of(std::uint64_t g, unsigned char* out) {
  V v{};
  if constexpr (std::is_same_v<V, float>) {
    if (g < (1ull << 24)) v = static_cast<float>(g);
    else { std::uint32_t bits = static_cast<std::uint32_t>(g); std::memcpy(&v, &bits, 4); }
  } else if constexpr (std::is_same_v<V, double>) {
    if (g < (1ull << 53)) v = static_cast<double>(g);
    else std::memcpy(&v, &g, 8);
  } else if constexpr (std::is_same_v<V, std::complex<double>> || std::is_same_v<V, std::complex<float>>) {
    using Real = typename V::value_type;
    v = V(static_cast<Real>(g), -static_cast<Real>(g) - Real(0.5));
  } else if constexpr (sizeof(V) <= 2) {
    // Raw bytes: also for bool and the fp8 structs, which have no conversion.
    const std::uint64_t h = mix(g);
    std::memcpy(out, &h, sizeof(V));
    return;
  } else {
    v = static_cast<V>(g);
  }
  std::memcpy(out, &v, sizeof(V));
}

// Allocation counters (defined with REDIST_VERIFY_MAIN).
extern std::atomic<bool> counting;
extern std::atomic<long> news, mallocs, own_mallocs;

struct Outcome {
  std::string error;          // non-empty: the run could not be checked
  long mismatches = 0;        // wrong target elements, summed over ranks
  bool guards_intact = true;  // bytes around workspace and destination
  long news = 0, mallocs = 0, own_mallocs = 0;  // during checked and timed runs, summed over ranks
  double median_s = 0;        // median over repeats of the slowest rank's time
  std::size_t peak_bytes = 0; // measured largest local array, max over ranks
  std::size_t used_ping = 0, used_pong = 0, used_scratch = 0;  // max over ranks
};

constexpr std::size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0xC5;

// Calls f(global index, local position) for every element of a box.
template <class F>
void for_box(const Problem& p, const std::size_t* off, const std::size_t* ext, F f) {
  std::size_t count = 1;
  for (int d = 0; d < p.rank; ++d) count *= ext[d];
  std::vector<std::size_t> local(static_cast<std::size_t>(p.rank), 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t global = 0;
    for (int d = 0; d < p.rank; ++d) global = global * p.global_shape[d] + off[d] + local[static_cast<std::size_t>(d)];
    f(global, i);
    for (int d = p.rank - 1; d >= 0; --d) {
      if (++local[static_cast<std::size_t>(d)] < ext[d]) break;
      local[static_cast<std::size_t>(d)] = 0;
    }
  }
}

inline std::size_t used_extent(const unsigned char* b, std::size_t n, unsigned char poison) {
  while (n > 0 && b[n - 1] == poison) --n;
  return n;
}

inline bool guard_ok(const unsigned char* b) {
  for (std::size_t i = 0; i < kGuard; ++i) if (b[i] != kGuardByte) return false;
  return true;
}

// Runs problem p on `comm` (which must have p.devices ranks: otherwise the
// runtime's error from create_mesh is returned) `1 + 1 + repeats` times:
// a warm-up, a checked run, and timed runs, each checked as well.  Collective.
inline Outcome verify(const Problem& p, MPI_Comm comm, int repeats) {
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  redist::Mesh mesh;
  if (redist::Status st = p.create_mesh(comm, &mesh); !st.ok()) {
    out.error = st.message();
    return out;
  }
  std::vector<std::size_t> off(static_cast<std::size_t>(p.rank)), ext(static_cast<std::size_t>(p.rank));
  const std::size_t E = p.elem_bytes;
  std::vector<unsigned char> src(std::max<std::size_t>(p.src_elems * E, 1));
  p.src_box(me, off.data(), ext.data());
  for_box(p, off.data(), ext.data(), [&](std::uint64_t g, std::size_t i) { p.value(g, &src[i * E]); });
  std::vector<unsigned char> want(std::max<std::size_t>(p.tgt_elems * E, 1));
  p.tgt_box(me, off.data(), ext.data());
  for_box(p, off.data(), ext.data(), [&](std::uint64_t g, std::size_t i) { p.value(g, &want[i * E]); });
  // [guard | workspace | guard] and [destination | guard]: exact sizes.
  std::vector<unsigned char> ws(p.workspace_bytes + 2 * kGuard, kGuardByte);
  std::vector<unsigned char> dst(p.tgt_elems * E + kGuard, kGuardByte);
  unsigned char* w = ws.data() + kGuard;
  const std::size_t dst_bytes = p.tgt_elems * E;
  std::vector<double> times;
  long local_mismatch = 0, local_news = 0, local_mallocs = 0, local_own = 0;
  bool local_guards = true;
  std::size_t used[3] = {0, 0, 0};
  const std::size_t region_off[3] = {0, p.ping_bytes, p.ping_bytes + p.pong_bytes};
  const std::size_t region_len[3] = {p.ping_bytes, p.pong_bytes, p.scratch_bytes};
  const int total_runs = 2 + repeats;
  for (int k = 0; k < total_runs; ++k) {
    const unsigned char poison = (k % 2 == 0) ? 0x00 : 0xFF;
    std::memset(w, poison, p.workspace_bytes);
    std::memset(dst.data(), poison ^ 0x5A, dst_bytes);
    MPI_Barrier(comm);
    const bool count_allocs = k > 0;
    if (count_allocs) { news = 0; mallocs = 0; own_mallocs = 0; counting = true; }
    const double t0 = MPI_Wtime();
    bool run_failed = false;
    std::string run_error;
    redist::Status st = p.run(mesh, src.data(), p.src_elems * E, dst.data(), dst_bytes, w, p.workspace_bytes);
    const double t1 = MPI_Wtime();
    if (count_allocs) { counting = false; local_news += news; local_mallocs += mallocs; local_own += own_mallocs; }
    if (!st.ok()) {
      run_failed = true;
      run_error = st.message();
    }
    // The slowest rank's time, and whether any rank failed (every rank
    // then stops at the same run).
    double mine[2] = {t1 - t0, run_failed ? 1.0 : 0.0}, most[2];
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, comm);
    if (most[1] > 0) {
      out.error = run_failed ? run_error : "run failed on another rank";
      return out;
    }
    if (k >= 2) times.push_back(most[0]);
    for (std::size_t i = 0; i < p.tgt_elems; ++i)
      if (std::memcmp(&dst[i * E], &want[i * E], E) != 0) ++local_mismatch;
    local_guards = local_guards && guard_ok(ws.data()) && guard_ok(w + p.workspace_bytes) && guard_ok(dst.data() + dst_bytes);
    for (int r = 0; r < 3; ++r)
      used[r] = std::max(used[r], used_extent(w + region_off[r], region_len[r], poison));
  }
  long sums[4] = {local_mismatch, local_news, local_mallocs, local_own}, tot[4];
  MPI_Allreduce(sums, tot, 4, MPI_LONG, MPI_SUM, comm);
  out.mismatches = tot[0];
  out.news = tot[1];
  out.mallocs = tot[2];
  out.own_mallocs = tot[3];
  int g = local_guards ? 1 : 0, all_g = 0;
  MPI_Allreduce(&g, &all_g, 1, MPI_INT, MPI_MIN, comm);
  out.guards_intact = all_g == 1;
  unsigned long long mine[4] = {
      std::max({p.src_elems * E, dst_bytes, used[0], used[1]}), used[0], used[1], used[2]};
  unsigned long long most[4];
  MPI_Allreduce(mine, most, 4, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.used_ping = most[1];
  out.used_pong = most[2];
  out.used_scratch = most[3];
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    out.median_s = times[times.size() / 2];
  }
  return out;
}

}  // namespace redist_verify

// A Problem from the namespace of a generated header.
#define REDIST_VERIFY_PROBLEM(NS)                                                               \
  redist_verify::Problem {                                                                      \
    #NS, NS::kDevices, NS::kRank, NS::kGlobalShape, NS::kElemBytes, NS::kSrcElems,              \
        NS::kTgtElems, NS::kPeakElems, NS::kPingBytes, NS::kPongBytes, NS::kScratchBytes,       \
        NS::kWorkspaceBytes, &NS::create_mesh, &NS::run, &NS::src_box, &NS::tgt_box,            \
        &redist_verify::value_of<NS::value_type>                                                \
  }

#ifdef REDIST_VERIFY_MAIN
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);

extern "C" char __executable_start, etext;  // bounds of the executable's text (GNU ld)

namespace redist_verify {
std::atomic<bool> counting{false};
std::atomic<long> news{0}, mallocs{0}, own_mallocs{0};

inline void count_malloc(const void* caller) {
  if (!counting.load(std::memory_order_relaxed)) return;
  const char* c = static_cast<const char*>(caller);
  if (c >= &__executable_start && c < &etext) ++own_mallocs; else ++mallocs;
}
}  // namespace redist_verify

// glibc's allocator does the work; these only count calls while a run is
// being measured.  Not inlined: the return address must be the caller's.
extern "C" __attribute__((noinline)) void* malloc(std::size_t n) {
  redist_verify::count_malloc(__builtin_return_address(0));
  return __libc_malloc(n);
}
extern "C" __attribute__((noinline)) void* calloc(std::size_t n, std::size_t m) {
  redist_verify::count_malloc(__builtin_return_address(0));
  return __libc_calloc(n, m);
}
extern "C" __attribute__((noinline)) void* realloc(void* q, std::size_t n) {
  redist_verify::count_malloc(__builtin_return_address(0));
  return __libc_realloc(q, n);
}
void* operator new(std::size_t n) {
  if (redist_verify::counting.load(std::memory_order_relaxed)) ++redist_verify::news;
  if (void* q = __libc_malloc(n == 0 ? 1 : n)) return q;
  throw std::bad_alloc();
}
void operator delete(void* q) noexcept { std::free(q); }
void operator delete(void* q, std::size_t) noexcept { std::free(q); }
#endif
