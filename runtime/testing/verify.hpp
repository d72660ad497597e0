// Verification of headers emitted by `redist gen` under MPI: shared by
// `redist run` (which embeds this file in the binary) and the end-to-end
// suites tests/e2e/.  Each rank fills its source box with a function of the
// global index, runs the plan, and compares its destination with its target
// box element by element.  A collectives plan runs on a workspace of exactly
// kWorkspaceBytes between guard bytes (verify); a direct exchange
// (verify_exchange) on the boxes of the Coq model (pl_box, written into the
// driver by `redist run`), not the runtime's own, and each rank must receive
// exactly the model's lower bound; an in-place schedule (verify_in_place)
// on one buffer per rank of the model's size and a staging.
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
// statically; the others come from shared libraries (MPI).  The live heap
// (every allocation and free, the aligned ones too, in usable sizes) is
// followed during those runs: its peak growth is reported beside the
// proven live bytes of an in-place run (verify_in_place).
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

#include "redist/exchange.hpp"
#include "redist/in_place.hpp"
#include "redist/mpi.hpp"
#include "redist/mpi_reduce.hpp"
#include "redist/reduce_exchange.hpp"
#include "redist/region_exchange.hpp"

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

// Allocation counters (defined with REDIST_VERIFY_MAIN).  heap_live: bytes
// allocated less bytes freed while counting (by every caller, MPI too), in
// the allocator's usable sizes; heap_peak: its most.
extern std::atomic<bool> counting;
extern std::atomic<long> news, mallocs, own_mallocs;
extern std::atomic<long long> heap_live, heap_peak;

struct Outcome {
  std::string error;          // non-empty: the run could not be checked
  long checked = 0;           // target elements compared in each run, summed over ranks
  long mismatches = 0;        // wrong target elements, summed over ranks
  long box_disagreements = 0; // exchange: ranks whose runtime boxes are not the model's
  long off_bound = 0;         // exchange: ranks that receive other than their lower bound
  std::size_t recv_max = 0;   // exchange: elements the busiest rank receives
  bool guards_intact = true;  // bytes around workspace and destination
  long news = 0, mallocs = 0, own_mallocs = 0;  // during checked and timed runs, summed over ranks
  double median_s = 0;        // median over repeats of the slowest rank's time
  std::size_t peak_bytes = 0; // measured largest local array, max over ranks
  std::size_t used_ping = 0, used_pong = 0, used_scratch = 0;  // max over ranks
  std::size_t heap_growth = 0; // the live heap's peak growth during a checked or timed run, max over runs and ranks
};

constexpr std::size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0xC5;

// Calls f(global index, local position) for every element of a box.
// rank: the array's number of dimensions.
template <class F>
void for_box(int rank, const std::size_t* global_shape, const std::size_t* off, const std::size_t* ext, F f) {
  std::size_t count = 1;
  for (int d = 0; d < rank; ++d) count *= ext[d];
  std::vector<std::size_t> local(static_cast<std::size_t>(rank), 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t global = 0;
    for (int d = 0; d < rank; ++d) global = global * global_shape[d] + off[d] + local[static_cast<std::size_t>(d)];
    f(global, i);
    for (int d = rank - 1; d >= 0; --d) {
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

// The measured part of both verifiers: run() `2 + repeats` times, a
// warm-up, a checked run and timed runs, each checked as well.  Before each
// run, prepare(poison) sets the buffers (the poison alternates between 0x00
// and 0xFF); after it, check(poison) compares.  Allocations are counted from
// the second run on.  Sets out.median_s (slowest rank) and out.error when a
// run failed on any rank (every rank then stops at the same run); the
// allocation counts of this rank are added to allocs (news, mallocs, own).
template <class Prepare, class Run, class Check>
bool repeat_runs(MPI_Comm comm, int repeats, Outcome& out, long allocs[3], Prepare prepare, Run run, Check check) {
  std::vector<double> times;
  for (int k = 0; k < 2 + repeats; ++k) {
    const unsigned char poison = (k % 2 == 0) ? 0x00 : 0xFF;
    prepare(poison);
    MPI_Barrier(comm);
    const bool count_allocs = k > 0;
    if (count_allocs) { news = 0; mallocs = 0; own_mallocs = 0; heap_live = 0; heap_peak = 0; counting = true; }
    const double t0 = MPI_Wtime();
    redist::Status st = run();
    const double t1 = MPI_Wtime();
    if (count_allocs) {
      counting = false;
      allocs[0] += news; allocs[1] += mallocs; allocs[2] += own_mallocs;
      out.heap_growth = std::max(out.heap_growth, static_cast<std::size_t>(heap_peak.load()));
    }
    double mine[2] = {t1 - t0, st.ok() ? 0.0 : 1.0}, most[2];
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, comm);
    if (most[1] > 0) {
      out.error = st.ok() ? "run failed on another rank" : st.message();
      return false;
    }
    if (k >= 2) times.push_back(most[0]);
    check(poison);
  }
  std::sort(times.begin(), times.end());
  if (!times.empty()) out.median_s = times[times.size() / 2];
  return true;
}

// Sums over ranks: the elements checked in one run (checked: this rank's
// target box), the wrong ones over all runs, the allocations; guards intact
// on every rank; the most heap growth of any rank.
inline void gather_counts(MPI_Comm comm, Outcome& out, long checked, long mismatches, const long allocs[3], bool guards) {
  long sums[5] = {checked, mismatches, allocs[0], allocs[1], allocs[2]}, tot[5];
  MPI_Allreduce(sums, tot, 5, MPI_LONG, MPI_SUM, comm);
  out.checked = tot[0];
  out.mismatches = tot[1];
  out.news = tot[2];
  out.mallocs = tot[3];
  out.own_mallocs = tot[4];
  int g = guards ? 1 : 0, all_g = 0;
  MPI_Allreduce(&g, &all_g, 1, MPI_INT, MPI_MIN, comm);
  out.guards_intact = all_g == 1;
  unsigned long long growth = out.heap_growth;
  MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.heap_growth = growth;
}

inline long count_mismatches(const unsigned char* got, const unsigned char* want, std::size_t elems, std::size_t E) {
  long wrong = 0;
  for (std::size_t i = 0; i < elems; ++i)
    if (std::memcmp(got + i * E, want + i * E, E) != 0) ++wrong;
  return wrong;
}

// Runs problem p on `comm` (which must have p.devices ranks: otherwise the
// runtime's error from create_mesh is returned).  Collective.
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
  for_box(p.rank, p.global_shape, off.data(), ext.data(), [&](std::uint64_t g, std::size_t i) { p.value(g, &src[i * E]); });
  std::vector<unsigned char> want(std::max<std::size_t>(p.tgt_elems * E, 1));
  p.tgt_box(me, off.data(), ext.data());
  for_box(p.rank, p.global_shape, off.data(), ext.data(), [&](std::uint64_t g, std::size_t i) { p.value(g, &want[i * E]); });
  // [guard | workspace | guard] and [destination | guard]: exact sizes.
  std::vector<unsigned char> ws(p.workspace_bytes + 2 * kGuard, kGuardByte);
  std::vector<unsigned char> dst(p.tgt_elems * E + kGuard, kGuardByte);
  unsigned char* w = ws.data() + kGuard;
  const std::size_t dst_bytes = p.tgt_elems * E;
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  std::size_t used[3] = {0, 0, 0};
  const std::size_t region_off[3] = {0, p.ping_bytes, p.ping_bytes + p.pong_bytes};
  const std::size_t region_len[3] = {p.ping_bytes, p.pong_bytes, p.scratch_bytes};
  const bool ran = repeat_runs(
      comm, repeats, out, allocs,
      [&](unsigned char poison) {
        std::memset(w, poison, p.workspace_bytes);
        std::memset(dst.data(), poison ^ 0x5A, dst_bytes);
      },
      [&] { return p.run(mesh, src.data(), p.src_elems * E, dst.data(), dst_bytes, w, p.workspace_bytes); },
      [&](unsigned char poison) {
        mismatches += count_mismatches(dst.data(), want.data(), p.tgt_elems, E);
        guards = guards && guard_ok(ws.data()) && guard_ok(w + p.workspace_bytes) && guard_ok(dst.data() + dst_bytes);
        for (int r = 0; r < 3; ++r) used[r] = std::max(used[r], used_extent(w + region_off[r], region_len[r], poison));
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(p.tgt_elems), mismatches, allocs, guards);
  unsigned long long mine[4] = {
      std::max({p.src_elems * E, dst_bytes, used[0], used[1]}), used[0], used[1], used[2]};
  unsigned long long most[4];
  MPI_Allreduce(mine, most, 4, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.used_ping = most[1];
  out.used_pong = most[2];
  out.used_scratch = most[3];
  return out;
}

// A direct-exchange header (redist gen for an exchange plan) and what the
// model says of it, per world rank w < world: whether w is in the source
// (target) mesh and its box there, as offsets and extents (rank numbers per
// rank, row-major), and the elements it must receive (the lower bound).
struct ExchangeProblem {
  const char* name;
  int world;
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes;
  std::size_t peak_elems;  // the proven peak: the largest source or target box
  redist::Status (*create)(MPI_Comm, redist::Exchange*);
  redist::Status (*run)(redist::Exchange&, const void*, std::size_t, void*, std::size_t);
  const bool* in_source;
  const std::size_t* src_offset;
  const std::size_t* src_extent;
  const bool* in_target;
  const std::size_t* tgt_offset;
  const std::size_t* tgt_extent;
  const std::size_t* recv_bound;
  void (*value)(std::uint64_t global, unsigned char* out);
};

// The model's box of rank `me` (empty outside the mesh or past the world)
// as a runtime Box, to compare with the runtime's.
inline redist::Box model_box(const ExchangeProblem& p, int me, const bool* in_mesh, const std::size_t* offset,
                             const std::size_t* extent) {
  redist::Box b;
  b.ndim = p.rank;
  if (me >= p.world || !in_mesh[me]) return b;  // [0, 0) in every dimension: empty
  for (int d = 0; d < p.rank; ++d) {
    b.lo[d] = offset[me * p.rank + d];
    b.hi[d] = b.lo[d] + extent[me * p.rank + d];
  }
  return b;
}

inline bool same_box(const redist::Box& a, const redist::Box& b) {
  if (redist::box_elements(a) == 0 && redist::box_elements(b) == 0) return true;
  if (a.ndim != b.ndim) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d]) return false;
  return true;
}

// Runs exchange p on `comm` (ranks past p.world take part holding nothing).
// The source is filled and the target checked on the model's boxes; when
// the runtime's boxes are not the model's on some rank, nothing runs and
// out.box_disagreements says on how many.  Collective.
inline Outcome verify_exchange(const ExchangeProblem& p, MPI_Comm comm, int repeats) {
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  redist::Exchange ex;
  if (redist::Status st = p.create(comm, &ex); !st.ok()) {
    out.error = st.message();
    return out;
  }
  const redist::Box sb = model_box(p, me, p.in_source, p.src_offset, p.src_extent);
  const redist::Box tb = model_box(p, me, p.in_target, p.tgt_offset, p.tgt_extent);
  long disagree = same_box(sb, ex.source_box()) && same_box(tb, ex.target_box()) ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &disagree, 1, MPI_LONG, MPI_SUM, comm);
  out.box_disagreements = disagree;
  if (disagree > 0) return out;
  const std::size_t E = p.elem_bytes, src_elems = redist::box_elements(sb), tgt_elems = redist::box_elements(tb);
  std::size_t ext[redist::kMaxRank] = {};
  std::vector<unsigned char> src(src_elems * E);
  for (int d = 0; d < sb.ndim; ++d) ext[d] = sb.hi[d] - sb.lo[d];
  for_box(p.rank, p.global_shape, sb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &src[i * E]); });
  std::vector<unsigned char> want(tgt_elems * E);
  for (int d = 0; d < tb.ndim; ++d) ext[d] = tb.hi[d] - tb.lo[d];
  for_box(p.rank, p.global_shape, tb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &want[i * E]); });
  // [destination | guard]; a rank without a box passes null and 0.
  const std::size_t dst_bytes = tgt_elems * E;
  std::vector<unsigned char> dst(dst_bytes + kGuard, kGuardByte);
  const void* src_ptr = src.empty() ? nullptr : src.data();
  void* dst_ptr = dst_bytes == 0 ? nullptr : dst.data();
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  const bool ran = repeat_runs(
      comm, repeats, out, allocs, [&](unsigned char poison) { std::memset(dst.data(), poison ^ 0x5A, dst_bytes); },
      [&] { return p.run(ex, src_ptr, src.size(), dst_ptr, dst_bytes); },
      [&](unsigned char) {
        mismatches += count_mismatches(dst.data(), want.data(), tgt_elems, E);
        guards = guards && guard_ok(dst.data() + dst_bytes);
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(tgt_elems), mismatches, allocs, guards);
  std::size_t received = 0;
  for (const redist::Exchange::Peer& peer : ex.receives()) received += peer.elements;
  const std::size_t bound = me < p.world ? p.recv_bound[me] : 0;
  long off = received == bound ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &off, 1, MPI_LONG, MPI_SUM, comm);
  out.off_bound = off;
  unsigned long long mine[2] = {std::max(src.size(), dst_bytes), received}, most[2];
  MPI_Allreduce(mine, most, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.recv_max = most[1];
  return out;
}

// ---- composed cuts ----

// One cut of semantics.md Part 3's table: the dimension it cuts, block 0
// for the ceil-block cut, else the cyclic cut with blocks of `block`, and
// its mesh axes (positions in the mesh) in the order written.
struct Cut {
  int dim;
  std::size_t block;
  int naxes;
  int axes[redist::kMaxRank];
};

// A layout of composed cuts on a placed mesh: the axis sizes (the first
// axis most significant in the device index), the world rank of each
// device, the cuts in the order written (outermost first per dimension).
struct CutLayout {
  int naxes;
  const int* axis_sizes;
  int devices;
  const int* ranks;
  int ncuts;
  const Cut* cuts;
};

// A header of composed cuts (redist gen: the region exchange's tables) and
// what the checks compare it with: the layouts as written and the elements
// each world rank must receive (region_recv_count, the lower bound).
struct RegionProblem {
  const char* name;
  int world;
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes;
  std::size_t peak_elems;  // the largest source or target local array
  redist::Status (*create)(MPI_Comm, redist::RegionExchange*);
  redist::Status (*run)(redist::RegionExchange&, const void*, std::size_t, void*, std::size_t);
  CutLayout source, target;
  const std::size_t* recv_count;
  void (*value)(std::uint64_t global, unsigned char* out);
  // Pending axes (the reducing region exchange; op -1: none): the
  // operation, the element type, and the pending axes (positions in each
  // side's mesh, ascending).  A source member's contribution at a global
  // index is value(contribution_key(global, G, k)), k its place in its group (its
  // coordinates along the source's pending axes, row-major; G the group's
  // size), so every group combines to one array; recv_count is then the
  // extracted region_reduce_received.
  int op = -1;
  redist::Dtype dtype = redist::Dtype::i32;
  int source_npending = 0;
  const int* source_pending = nullptr;
  int target_npending = 0;
  const int* target_pending = nullptr;
};

// The coordinates of world rank `me`'s device in layout `l`'s mesh (none
// outside it).
inline std::vector<std::size_t> device_coords(const CutLayout& l, int me) {
  int device = -1;
  for (int k = 0; k < l.devices; ++k)
    if (l.ranks[k] == me) device = k;
  if (device < 0) return {};
  std::vector<std::size_t> coord(static_cast<std::size_t>(l.naxes));
  for (int a = l.naxes - 1, rest = device; a >= 0; --a) {
    coord[static_cast<std::size_t>(a)] = static_cast<std::size_t>(rest % l.axis_sizes[a]);
    rest /= l.axis_sizes[a];
  }
  return coord;
}

// A device's place along `pending` (positions in l's mesh, ascending):
// row-major over those coordinates, the order of its group's members.
inline std::size_t pending_place(const CutLayout& l, const std::vector<std::size_t>& coord, const int* pending,
                                 int npending) {
  std::size_t k = 0;
  for (int j = 0; j < npending; ++j) k = k * static_cast<std::size_t>(l.axis_sizes[pending[j]]) + coord[static_cast<std::size_t>(pending[j])];
  return k;
}

inline std::size_t pending_group_size(const CutLayout& l, const int* pending, int npending) {
  std::size_t g = 1;
  for (int j = 0; j < npending; ++j) g *= static_cast<std::size_t>(l.axis_sizes[pending[j]]);
  return g;
}

// The global indices that world rank `me` holds along each dimension of
// layout `l`, in local order (none outside the mesh): Part 3's table
// applied cut by cut, each on the extent the previous cut left, written
// from semantics.md apart from the planner and its region lists.  A
// cyclic cut's local index ((i / B) / P) * B + i mod B grows with i, so
// its kept indices stay in order.
inline std::vector<std::vector<std::size_t>> held_indices(const CutLayout& l, int rank, const std::size_t* global_shape,
                                                         int me) {
  std::vector<std::vector<std::size_t>> held(static_cast<std::size_t>(rank));
  const std::vector<std::size_t> coord = device_coords(l, me);
  if (coord.empty()) return held;
  for (int d = 0; d < rank; ++d) {
    std::vector<std::size_t>& h = held[static_cast<std::size_t>(d)];
    for (std::size_t i = 0; i < global_shape[d]; ++i) h.push_back(i);
  }
  for (int c = 0; c < l.ncuts; ++c) {
    const Cut& cut = l.cuts[c];
    std::size_t parts = 1, part = 0;
    for (int k = 0; k < cut.naxes; ++k) {
      parts *= static_cast<std::size_t>(l.axis_sizes[cut.axes[k]]);
      part = part * static_cast<std::size_t>(l.axis_sizes[cut.axes[k]]) + coord[static_cast<std::size_t>(cut.axes[k])];
    }
    std::vector<std::size_t>& h = held[static_cast<std::size_t>(cut.dim)];
    const std::size_t n = h.size();
    std::vector<std::size_t> kept;
    if (cut.block == 0) {
      const std::size_t b = (n + parts - 1) / parts;
      for (std::size_t i = part * b; i < n && i < (part + 1) * b; ++i) kept.push_back(h[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if ((i / cut.block) % parts == part) kept.push_back(h[i]);
    }
    h = kept;
  }
  return held;
}

// Rank `me`'s local array of layout `l` (row-major over its held indices),
// element e written by element(global index, out).
template <class Element>
inline std::vector<unsigned char> local_values(const RegionProblem& p, const CutLayout& l, int me, Element element) {
  bool inside = false;
  for (int k = 0; k < l.devices; ++k) inside = inside || l.ranks[k] == me;
  if (!inside) return {};
  const std::vector<std::vector<std::size_t>> held = held_indices(l, p.rank, p.global_shape, me);
  std::size_t count = 1;
  for (const std::vector<std::size_t>& h : held) count *= h.size();
  std::vector<unsigned char> out(count * p.elem_bytes);
  std::vector<std::size_t> local(static_cast<std::size_t>(p.rank), 0);
  for (std::size_t e = 0; e < count; ++e) {
    std::uint64_t global = 0;
    for (int d = 0; d < p.rank; ++d)
      global = global * p.global_shape[d] + held[static_cast<std::size_t>(d)][local[static_cast<std::size_t>(d)]];
    element(global, &out[e * p.elem_bytes]);
    for (int d = p.rank - 1; d >= 0; --d) {
      if (++local[static_cast<std::size_t>(d)] < held[static_cast<std::size_t>(d)].size()) break;
      local[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

// What member `place` of a group of `members` contributes at a global
// index, as a key of RegionProblem::value: scrambled, so that floating
// contributions are rarely integers and their sum rounds differently in
// another order.
inline std::uint64_t contribution_key(std::uint64_t global, std::uint64_t members, std::uint64_t place) {
  return mix(global * members + place);
}

// Rank `me`'s source local array: each element its global index's value,
// or, with pending axes, its contribution (RegionProblem::op).
inline std::vector<unsigned char> region_source(const RegionProblem& p, int me) {
  if (p.op < 0) return local_values(p, p.source, me, p.value);
  const std::vector<std::size_t> coord = device_coords(p.source, me);
  if (coord.empty()) return {};
  const std::uint64_t members = pending_group_size(p.source, p.source_pending, p.source_npending);
  const std::uint64_t place = pending_place(p.source, coord, p.source_pending, p.source_npending);
  return local_values(p, p.source, me, [&](std::uint64_t global, unsigned char* out) {
    p.value(contribution_key(global, members, place), out);
  });
}

// Rank `me`'s expected target local array.  With pending axes, replayed
// on the host: the group's G contributions in member order combined by the
// runtime's kernel (local::reduce_blocks: a left fold, so floats are
// compared bitwise in that order; avg adds, then divides once by G), or op's identity on a target member
// other than its group's first when op keeps the value on one member
// (sum, prod).
inline std::vector<unsigned char> region_target(const RegionProblem& p, int me) {
  if (p.op < 0) return local_values(p, p.target, me, p.value);
  const std::vector<std::size_t> coord = device_coords(p.target, me);
  if (coord.empty()) return {};
  const auto op = static_cast<redist::Op>(p.op);
  const bool keeps = redist::every_member_keeps(op) ||
                     pending_place(p.target, coord, p.target_pending, p.target_npending) == 0;
  const std::uint64_t members = pending_group_size(p.source, p.source_pending, p.source_npending);
  std::vector<unsigned char> contributions(members * p.elem_bytes);
  return local_values(p, p.target, me, [&](std::uint64_t global, unsigned char* out) {
    if (!keeps) return redist::local::fill_identity(p.dtype, op, out, 1);
    for (std::uint64_t k = 0; k < members; ++k) p.value(contribution_key(global, members, k), &contributions[k * p.elem_bytes]);
    redist::local::reduce_blocks(p.dtype, redist::step_op(op), contributions.data(), 1, members, out);
    // avg: the sum divided once by the source group's size, counted here from the layout.
    if (op == redist::Op::avg) redist::local::divide(p.dtype, out, 1, members);
  });
}

// Runs a header of composed cuts on `comm` (ranks past p.world take part
// holding nothing).  The source is filled and the target checked on the
// local arrays this file computes from the layouts; when the runtime's
// local arrays have other sizes on some rank, nothing runs and
// out.box_disagreements says on how many.  Each rank must receive exactly
// p.recv_count.  Collective.
inline Outcome verify_regions(const RegionProblem& p, MPI_Comm comm, int repeats) {
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  redist::RegionExchange ex;
  if (redist::Status st = p.create(comm, &ex); !st.ok()) {
    out.error = st.message();
    return out;
  }
  const std::vector<unsigned char> src = region_source(p, me), want = region_target(p, me);
  long disagree = src.size() == ex.source_bytes() && want.size() == ex.target_bytes() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &disagree, 1, MPI_LONG, MPI_SUM, comm);
  out.box_disagreements = disagree;
  if (disagree > 0) return out;
  const std::size_t E = p.elem_bytes, dst_bytes = want.size();
  // [destination | guard]; a rank without a local array passes null and 0.
  std::vector<unsigned char> dst(dst_bytes + kGuard, kGuardByte);
  const void* src_ptr = src.empty() ? nullptr : src.data();
  void* dst_ptr = dst_bytes == 0 ? nullptr : dst.data();
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  const bool ran = repeat_runs(
      comm, repeats, out, allocs, [&](unsigned char poison) { std::memset(dst.data(), poison ^ 0x5A, dst_bytes); },
      [&] { return p.run(ex, src_ptr, src.size(), dst_ptr, dst_bytes); },
      [&](unsigned char) {
        mismatches += count_mismatches(dst.data(), want.data(), dst_bytes / E, E);
        guards = guards && guard_ok(dst.data() + dst_bytes);
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(dst_bytes / E), mismatches, allocs, guards);
  std::size_t received = 0;
  for (const redist::RegionExchange::Peer& peer : ex.receives()) received += peer.elements;
  const std::size_t count = me < p.world ? p.recv_count[me] : 0;
  long off = received == count ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &off, 1, MPI_LONG, MPI_SUM, comm);
  out.off_bound = off;
  unsigned long long mine[2] = {std::max(src.size(), dst_bytes), received}, most[2];
  MPI_Allreduce(mine, most, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.recv_max = most[1];
  return out;
}

// ---- hybrids ----

// A hybrid header (redist gen for a plan through an intermediate layout)
// and the model's boxes of its source and target per world rank (the
// exchange's model header): create and run are the header's, run on
// untyped buffers.
struct HybridProblem {
  ExchangeProblem model;  // boxes, global shape, element bytes and peak (create and run unused)
  std::size_t workspace_bytes;
  std::size_t mid_bytes;  // the intermediate's region at the start of the workspace
};

// Runs hybrid p on `comm` (kWorldSize ranks): the source filled and the
// target checked on the model's boxes, with guards around the destination
// and the workspace.  used_ping: the intermediate region used, used_scratch:
// the rest of the workspace used.  Collective.
template <class Plan>
Outcome verify_hybrid(const HybridProblem& h, redist::Status (*create)(MPI_Comm, Plan*),
                      redist::Status (*run)(Plan&, const void*, std::size_t, void*, std::size_t, void*, std::size_t),
                      MPI_Comm comm, int repeats) {
  const ExchangeProblem& p = h.model;
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  Plan plan;
  if (redist::Status st = create(comm, &plan); !st.ok()) {
    out.error = st.message();
    return out;
  }
  const redist::Box sb = model_box(p, me, p.in_source, p.src_offset, p.src_extent);
  const redist::Box tb = model_box(p, me, p.in_target, p.tgt_offset, p.tgt_extent);
  const std::size_t E = p.elem_bytes, src_elems = redist::box_elements(sb), tgt_elems = redist::box_elements(tb);
  std::size_t ext[redist::kMaxRank] = {};
  std::vector<unsigned char> src(src_elems * E);
  for (int d = 0; d < sb.ndim; ++d) ext[d] = sb.hi[d] - sb.lo[d];
  for_box(p.rank, p.global_shape, sb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &src[i * E]); });
  std::vector<unsigned char> want(tgt_elems * E);
  for (int d = 0; d < tb.ndim; ++d) ext[d] = tb.hi[d] - tb.lo[d];
  for_box(p.rank, p.global_shape, tb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &want[i * E]); });
  // [guard | workspace | guard] and [destination | guard]: exact sizes.
  const std::size_t dst_bytes = tgt_elems * E;
  std::vector<unsigned char> dst(dst_bytes + kGuard, kGuardByte);
  std::vector<unsigned char> ws(h.workspace_bytes + 2 * kGuard, kGuardByte);
  unsigned char* w = ws.data() + kGuard;
  const void* src_ptr = src.empty() ? nullptr : src.data();
  void* dst_ptr = dst_bytes == 0 ? nullptr : dst.data();
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  std::size_t used_mid = 0, used_rest = 0;
  const bool ran = repeat_runs(
      comm, repeats, out, allocs,
      [&](unsigned char poison) {
        std::memset(w, poison, h.workspace_bytes);
        std::memset(dst.data(), poison ^ 0x5A, dst_bytes);
      },
      [&] { return run(plan, src_ptr, src.size(), dst_ptr, dst_bytes, w, h.workspace_bytes); },
      [&](unsigned char poison) {
        mismatches += count_mismatches(dst.data(), want.data(), tgt_elems, E);
        guards = guards && guard_ok(ws.data()) && guard_ok(w + h.workspace_bytes) && guard_ok(dst.data() + dst_bytes);
        used_mid = std::max(used_mid, used_extent(w, h.mid_bytes, poison));
        used_rest = std::max(used_rest, used_extent(w + h.mid_bytes, h.workspace_bytes - h.mid_bytes, poison));
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(tgt_elems), mismatches, allocs, guards);
  unsigned long long mine[3] = {std::max({src.size(), dst_bytes, used_mid}), used_mid, used_rest}, most[3];
  MPI_Allreduce(mine, most, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.used_ping = most[1];
  out.used_scratch = most[2];
  return out;
}

// ---- in place ----

// An in-place header (redist gen --in-place) and the model's boxes of its
// source and target per world rank (the exchange's model header): each
// rank's buffer is max(|src box|, |tgt box|) elements.
struct InPlaceProblem {
  ExchangeProblem model;      // boxes, global shape and element bytes (create, run and peak unused)
  std::size_t staging_bytes;  // what every rank passes as its staging (kStagingBytes)
  std::size_t live_bytes;     // the proven bound: the largest buffer + the staging (kLiveBytes)
  redist::Status (*create)(MPI_Comm, redist::InPlace*);
  redist::Status (*run)(redist::InPlace&, void*, std::size_t, void*, std::size_t);
};

// Runs in-place problem p on `comm`: each rank's buffer of the model's size
// (the runtime's must agree, else nothing runs: box_disagreements) holds its
// source box at offset 0, the rest and the staging poisoned; after the run
// the buffer's first |tgt box| elements must be its target box.  Guards
// follow the buffer and surround the staging.  used_scratch: the staging
// used; peak_bytes: the most over ranks of buffer + staging used, the
// measured live bytes.  Collective.
inline Outcome verify_in_place(const InPlaceProblem& h, MPI_Comm comm, int repeats) {
  const ExchangeProblem& p = h.model;
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  redist::InPlace ip;
  if (redist::Status st = h.create(comm, &ip); !st.ok()) {
    out.error = st.message();
    return out;
  }
  const redist::Box sb = model_box(p, me, p.in_source, p.src_offset, p.src_extent);
  const redist::Box tb = model_box(p, me, p.in_target, p.tgt_offset, p.tgt_extent);
  const std::size_t E = p.elem_bytes, src_elems = redist::box_elements(sb), tgt_elems = redist::box_elements(tb);
  const std::size_t buffer_bytes = std::max(src_elems, tgt_elems) * E;
  long disagree = ip.buffer_bytes() == buffer_bytes ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &disagree, 1, MPI_LONG, MPI_SUM, comm);
  out.box_disagreements = disagree;
  if (disagree > 0) return out;
  std::size_t ext[redist::kMaxRank] = {};
  std::vector<unsigned char> src(src_elems * E);
  for (int d = 0; d < sb.ndim; ++d) ext[d] = sb.hi[d] - sb.lo[d];
  for_box(p.rank, p.global_shape, sb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &src[i * E]); });
  std::vector<unsigned char> want(tgt_elems * E);
  for (int d = 0; d < tb.ndim; ++d) ext[d] = tb.hi[d] - tb.lo[d];
  for_box(p.rank, p.global_shape, tb.lo, ext, [&](std::uint64_t g, std::size_t i) { p.value(g, &want[i * E]); });
  // [buffer | guard] and [guard | staging | guard]: exact sizes.
  std::vector<unsigned char> buffer(buffer_bytes + kGuard, kGuardByte);
  std::vector<unsigned char> stage(h.staging_bytes + 2 * kGuard, kGuardByte);
  unsigned char* staging = stage.data() + kGuard;
  void* buffer_ptr = buffer_bytes == 0 ? nullptr : buffer.data();
  void* staging_ptr = h.staging_bytes == 0 ? nullptr : staging;
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  std::size_t used_staging = 0;
  const bool ran = repeat_runs(
      comm, repeats, out, allocs,
      [&](unsigned char poison) {
        std::memset(buffer.data(), poison ^ 0x5A, buffer_bytes);
        if (!src.empty()) std::memcpy(buffer.data(), src.data(), src.size());
        std::memset(staging, poison, h.staging_bytes);
      },
      [&] { return h.run(ip, buffer_ptr, buffer_bytes, staging_ptr, h.staging_bytes); },
      [&](unsigned char poison) {
        mismatches += count_mismatches(buffer.data(), want.data(), tgt_elems, E);
        guards = guards && guard_ok(buffer.data() + buffer_bytes) && guard_ok(stage.data()) &&
                 guard_ok(staging + h.staging_bytes);
        used_staging = std::max(used_staging, used_extent(staging, h.staging_bytes, poison));
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(tgt_elems), mismatches, allocs, guards);
  unsigned long long mine[2] = {buffer_bytes + used_staging, used_staging}, most[2];
  MPI_Allreduce(mine, most, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.used_scratch = most[1];
  return out;
}

// ---- pending sums ----

// A pending-sum header (redist gen with sum{...}, codegen/header/emit_sums.ml): by
// the collectives (create_mesh non-null: a redist::Mesh and run()) or by
// the reducing exchange (create_exchange non-null).
struct SumsProblem {
  const char* name;
  int world;  // world ranks taking part
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes;
  const int* src_pending;
  int src_pending_count;
  const int* tgt_pending;
  int tgt_pending_count;
  redist::PlacedMesh (*source_mesh)();
  redist::PlacedMesh (*target_mesh)();
  std::size_t peak_elems;  // the proven peak local array (scheck's sm_peak)
  // By the collectives:
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
  std::size_t src_bytes, tgt_bytes;
  bool (*src_box)(int, std::size_t*, std::size_t*);
  bool (*tgt_box)(int, std::size_t*, std::size_t*);
  // The workspace regions that hold local arrays (the reductions' two
  // outputs, the collectives' ping and pong), for the measured peak.
  std::size_t array_offset[4], array_bytes[4];
  // By the reducing exchange:
  redist::Status (*create_exchange)(MPI_Comm, redist::ReducingExchange*);
  // Both: the header's kWorkspaceBytes and kLiveBytes (the extracted lowering's).
  std::size_t workspace_bytes, live_bytes;
  // Floating-point element types and operations other than sum (floats =
  // true; set by the driver's model header from the plan, not from the
  // generated header): every rank's destination is compared bitwise with
  // the reduction by op the host forms in the plan's order (staged_sum).  stage_of: per source mesh axis, -2 if
  // not pending, -1 if still pending at the target (each target rank keeps
  // its coordinate's share), else the reduction step that adds over it
  // (steps in order; the reducing exchange adds every pending axis in one).
  // zero_axes: target mesh axes on which a coordinate other than 0 holds
  // op's identity (zero for sums).
  bool floats = false;
  redist::Dtype dtype = redist::Dtype::u8;
  redist::Op op = redist::Op::sum;
  const int* stage_of = nullptr;
  int stages = 0;
  const int* zero_axes = nullptr;
  int zero_axes_count = 0;
  // The host's reduction of `count` values of one element in member order,
  // op's identity and avg's one division: the runtime's own (local::reduce_blocks and
  // fill_identity) unless a driver sets a reference of its own
  // (tests/e2e/reference_ops.hpp), so that a fault shared by the runtime and
  // the check cannot pass.
  void (*reduce)(redist::Dtype, redist::Op, const void* blocks, std::size_t elems, std::size_t count,
                 void* out) = redist::local::reduce_blocks;
  void (*identity)(redist::Dtype, redist::Op, void* out, std::size_t elems) = redist::local::fill_identity;
  void (*divide)(redist::Dtype, void* data, std::size_t elems, std::size_t divisor) = redist::local::divide;
};

// Values: the global array g(i) is a hash of the index; every member of a
// source pending group but the one with coordinates 0 holds a hash of
// (rank, i), and that one holds g(i) minus the others' (integers wrap), so
// every group sums to g in any integer type.  Integer dtypes only: the sums
// are checked exactly.
inline std::uint64_t sums_global_value(std::uint64_t index) { return mix(index * 2 + 1); }
inline std::uint64_t sums_share(int rank, std::uint64_t index) { return mix((std::uint64_t(rank) + 1) << 40 ^ index); }

// One side's pending groups: the devices of a placed mesh that differ only
// on the pending axes.
struct SumSide {
  redist::PlacedMesh mesh;
  const int* pending;
  int count;

  int position_of(int world_rank) const {
    for (int q = 0; q < mesh.size(); ++q)
      if (mesh.ranks[q] == world_rank) return q;
    return -1;
  }
  bool is_pending(int axis) const {
    for (int i = 0; i < count; ++i)
      if (pending[i] == axis) return true;
    return false;
  }
  // World ranks of the members of `position`'s group, its own included.
  std::vector<int> members(int position) const {
    std::vector<int> out;
    for (int q = 0; q < mesh.size(); ++q) {
      bool same = true;
      for (int a = 0; a < mesh.naxes; ++a)
        same = same && (is_pending(a) || redist::mesh_coord(mesh, q, a) == redist::mesh_coord(mesh, position, a));
      if (same) out.push_back(mesh.ranks[q]);
    }
    return out;
  }
  // The world rank of the member of `position`'s group with coordinates 0.
  int first_member(int position) const {
    int q = position, stride = 1;
    for (int a = mesh.naxes - 1; a >= 0; --a) {
      if (is_pending(a)) q -= redist::mesh_coord(mesh, position, a) * stride;
      stride *= mesh.axis_size[a];
    }
    return mesh.ranks[q];
  }
};

inline redist::Box sums_box(const SumsProblem& p, bool (*box)(int, std::size_t*, std::size_t*), int rank) {
  redist::Box b{p.rank, {}, {}};
  std::size_t extent[redist::kMaxRank];
  if (box(rank, b.lo, extent))
    for (int d = 0; d < p.rank; ++d) b.hi[d] = b.lo[d] + extent[d];
  return b;
}

// Global row-major indices of a box's elements, in local order.
inline std::vector<std::uint64_t> box_indices(const SumsProblem& p, const redist::Box& b) {
  std::vector<std::uint64_t> out(redist::box_elements(b));
  std::size_t ext[redist::kMaxRank] = {};
  for (int d = 0; d < b.ndim; ++d) ext[d] = b.hi[d] - b.lo[d];
  if (!out.empty()) for_box(p.rank, p.global_shape, b.lo, ext, [&](std::uint64_t g, std::size_t i) { out[i] = g; });
  return out;
}

// This rank's source contribution (see sums_global_value).
inline void fill_contribution(const SumsProblem& p, const SumSide& source, const std::vector<std::uint64_t>& index,
                              int me, unsigned char* src) {
  const int position = source.position_of(me);
  if (position < 0) return;
  const std::vector<int> group = source.members(position);
  const bool holds_rest = source.first_member(position) == me;
  for (std::size_t l = 0; l < index.size(); ++l) {
    std::uint64_t v = sums_share(me, index[l]);
    if (holds_rest) {
      v = sums_global_value(index[l]);
      for (int m : group)
        if (m != me) v -= sums_share(m, index[l]);
    }
    std::memcpy(src + l * p.elem_bytes, &v, p.elem_bytes);
  }
}

// ---- floating-point pending sums, and every operation but sum ----
// Member k (its coordinates on the source pending axes, mesh order, the
// first most significant) contributes float_share(k, i) at global index i,
// whatever group it is in, so the host knows every reduction without the
// plan's data movement.  Float values carry more significant bits than the
// type keeps, so the order of additions shows in the result; integers are
// the hash's low bytes.
inline void float_share(redist::Dtype t, std::uint64_t member, std::uint64_t index, unsigned char* out) {
  const std::uint64_t h = mix((member + 1) << 40 ^ index);
  auto put = [&](const auto& v, std::size_t at) { std::memcpy(out + at, &v, sizeof v); };
  auto real32 = [](std::uint64_t x) { return static_cast<float>(static_cast<std::int32_t>(x)) / 65536.0f; };
  auto real64 = [](std::uint64_t x) { return static_cast<double>(static_cast<std::int64_t>(x)) / 4294967296.0; };
  switch (t) {
    case redist::Dtype::f64: return put(real64(h), 0);
    case redist::Dtype::c64: put(real32(h), 0); return put(real32(h >> 17), 4);
    case redist::Dtype::c128: put(real64(h), 0); return put(real64(mix(h)), 8);
    case redist::Dtype::f16: return put(redist::local::f32_to_f16(real32(h) / 64.0f), 0);  // |v| < 512
    case redist::Dtype::bf16: return put(redist::local::f32_to_bf16(real32(h)), 0);
    case redist::Dtype::f32: return put(real32(h), 0);
    default: return std::memcpy(out, &h, redist::dtype_bytes(t)), void();
  }
}

// The member index of source position `position` (see float_share).
inline std::uint64_t member_index(const SumsProblem& p, const redist::PlacedMesh& mesh, int position) {
  std::uint64_t k = 0;
  for (int a = 0; a < mesh.naxes; ++a)
    if (p.stage_of[a] != -2) k = k * static_cast<std::uint64_t>(mesh.axis_size[a]) + redist::mesh_coord(mesh, position, a);
  return k;
}

inline void fill_float_shares(const SumsProblem& p, const SumSide& source, const std::vector<std::uint64_t>& index,
                              int me, unsigned char* src) {
  const int position = source.position_of(me);
  if (position < 0) return;
  const std::uint64_t k = member_index(p, source.mesh, position);
  for (std::size_t l = 0; l < index.size(); ++l) float_share(p.dtype, k, index[l], src + l * p.elem_bytes);
}

// The sum at global index i of the members whose coordinates are `coord`
// on every pending axis of a stage below `stage` and on the kept axes:
// stage s adds, in ascending order of its axes' coordinates, the sums of
// stage s - 1 (p.reduce: the runtime's arithmetic, f16/bf16 rounded once
// per step, as each step writes the element type; avg's steps add, and
// float_mismatches divides once).
inline void staged_sum(const SumsProblem& p, const redist::PlacedMesh& mesh, int stage, std::vector<int>& coord,
                       std::uint64_t index, unsigned char* out) {
  const std::size_t w = p.elem_bytes;
  if (stage < 0) {
    std::uint64_t k = 0;
    for (int a = 0; a < mesh.naxes; ++a)
      if (p.stage_of[a] != -2) k = k * static_cast<std::uint64_t>(mesh.axis_size[a]) + static_cast<std::uint64_t>(coord[a]);
    return float_share(p.dtype, k, index, out);
  }
  std::vector<int> axes;
  std::size_t count = 1;
  for (int a = 0; a < mesh.naxes; ++a)
    if (p.stage_of[a] == stage) axes.push_back(a), count *= static_cast<std::size_t>(mesh.axis_size[a]);
  std::vector<unsigned char> parts(count * w);
  for (std::size_t c = 0; c < count; ++c) {
    std::size_t rest = c;
    for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
      coord[*a] = static_cast<int>(rest % static_cast<std::size_t>(mesh.axis_size[*a]));
      rest /= static_cast<std::size_t>(mesh.axis_size[*a]);
    }
    staged_sum(p, mesh, stage - 1, coord, index, &parts[c * w]);
  }
  p.reduce(p.dtype, redist::step_op(p.op), parts.data(), 1, count, out);
}

// avg's one divisor: the devices of the source pending axes the plan
// reduces (stage_of >= 0), whatever its steps.
inline std::size_t reduced_devices(const SumsProblem& p, const redist::PlacedMesh& mesh) {
  std::size_t n = 1;
  for (int a = 0; a < mesh.naxes; ++a)
    if (p.stage_of[a] >= 0) n *= static_cast<std::size_t>(mesh.axis_size[a]);
  return n;
}

// The elements of this rank's target box that are not, bitwise, what the
// plan's reductions give there: op's identity on a rank with a coordinate
// other than 0 on a zero axis; else the staged sum over the source members that share the
// rank's coordinates on the kept axes (the target mesh is then the source's),
// for avg divided once by the devices the plan reduced over.
inline long float_mismatches(const SumsProblem& p, const SumSide& source, const SumSide& target,
                             const std::vector<std::uint64_t>& index, int me, const unsigned char* dst) {
  const int position = target.position_of(me);
  if (position < 0) return 0;
  bool zero = false;
  for (int i = 0; i < p.zero_axes_count; ++i) zero = zero || redist::mesh_coord(target.mesh, position, p.zero_axes[i]) != 0;
  std::vector<int> coord(static_cast<std::size_t>(source.mesh.naxes), 0);
  for (int a = 0; a < source.mesh.naxes; ++a)
    if (p.stage_of[a] == -1) coord[a] = redist::mesh_coord(target.mesh, position, a);
  const std::size_t w = p.elem_bytes;
  std::vector<unsigned char> want(w, 0);
  long wrong = 0;
  for (std::size_t l = 0; l < index.size(); ++l) {
    if (zero) p.identity(p.dtype, p.op, want.data(), 1);
    else staged_sum(p, source.mesh, p.stages - 1, coord, index[l], want.data());
    if (!zero && p.op == redist::Op::avg) p.divide(p.dtype, want.data(), 1, reduced_devices(p, source.mesh));
    wrong += std::memcmp(want.data(), dst + l * w, w) != 0;
  }
  return wrong;
}

// The members of each target group gather their destinations; the elements
// of the target box whose sum over the group is not the global array.
// Collective over comm.
inline long wrong_sums(const SumsProblem& p, const SumSide& target, const std::vector<std::uint64_t>& index, int me,
                       const unsigned char* dst, MPI_Comm comm) {
  const int position = target.position_of(me);
  MPI_Comm group;
  MPI_Comm_split(comm, position < 0 ? MPI_UNDEFINED : target.first_member(position), me, &group);
  if (position < 0) return 0;
  int n = 0;
  MPI_Comm_size(group, &n);
  const std::size_t w = p.elem_bytes, bytes = index.size() * w;
  std::vector<unsigned char> all(bytes * static_cast<std::size_t>(n) + 1);
  MPI_Allgather(dst, static_cast<int>(bytes), MPI_BYTE, all.data(), static_cast<int>(bytes), MPI_BYTE, group);
  MPI_Comm_free(&group);
  const std::uint64_t mask = w >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * w)) - 1;
  long wrong = 0;
  for (std::size_t l = 0; l < index.size(); ++l) {
    std::uint64_t sum = 0;
    for (int k = 0; k < n; ++k) {
      std::uint64_t v = 0;
      std::memcpy(&v, &all[static_cast<std::size_t>(k) * bytes + l * w], w);
      sum += v;
    }
    if ((sum & mask) != (sums_global_value(index[l]) & mask)) ++wrong;
  }
  return wrong;
}

// Runs pending-sum problem p on `comm` like verify: every element of every
// rank's target box must sum, over its target group, to the global array;
// guard bytes after the destination and the workspace intact; no
// allocation in run(); peak_bytes: the largest of the source, the
// destination and the used array regions of the workspace; used_scratch:
// the used extent of the whole workspace.  Collective.
inline Outcome verify_sums(const SumsProblem& p, MPI_Comm comm, int repeats) {
  Outcome out;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  const SumSide source{p.source_mesh(), p.src_pending, p.src_pending_count};
  const SumSide target{p.target_mesh(), p.tgt_pending, p.tgt_pending_count};
  const bool by_collectives = p.create_mesh != nullptr;
  redist::Box src_box, tgt_box;
  std::size_t src_bytes = 0, tgt_bytes = 0, ws_bytes = 0;
  redist::Mesh mesh;
  redist::ReducingExchange ex;
  if (by_collectives) {
    if (redist::Status st = p.create_mesh(comm, &mesh); !st.ok()) { out.error = st.message(); return out; }
    src_box = sums_box(p, p.src_box, me);
    tgt_box = sums_box(p, p.tgt_box, me);
    src_bytes = p.src_bytes, tgt_bytes = p.tgt_bytes, ws_bytes = p.workspace_bytes;
  } else {
    if (redist::Status st = p.create_exchange(comm, &ex); !st.ok()) { out.error = st.message(); return out; }
    src_box = ex.source_box(), tgt_box = ex.target_box();
    src_bytes = ex.source_bytes(), tgt_bytes = ex.target_bytes(), ws_bytes = ex.workspace_bytes();
  }
  // The reducing exchange asks each rank for its own staging: the header's
  // kWorkspaceBytes must be the largest of them (sumx_workspace_exact), and
  // a rank's source, destination and staging within kLiveBytes (sumx_live_le).
  long over[2] = {ws_bytes > p.workspace_bytes ? 1 : 0,
                  !by_collectives && src_bytes + tgt_bytes + ws_bytes > p.live_bytes ? 1 : 0};
  unsigned long long largest_ws = ws_bytes;
  MPI_Allreduce(MPI_IN_PLACE, over, 2, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &largest_ws, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  if (over[0] > 0) {
    out.error = "on " + std::to_string(over[0]) + " ranks the workspace is above the header's kWorkspaceBytes";
    return out;
  }
  if (!by_collectives && largest_ws != p.workspace_bytes) {
    out.error = "the largest workspace a rank asks for, " + std::to_string(largest_ws) +
                " B, is not the header's kWorkspaceBytes " + std::to_string(p.workspace_bytes) + " B";
    return out;
  }
  if (over[1] > 0) {
    out.error = "on " + std::to_string(over[1]) + " ranks source + destination + workspace is above the header's kLiveBytes";
    return out;
  }
  const std::vector<std::uint64_t> src_index = box_indices(p, src_box), tgt_index = box_indices(p, tgt_box);
  std::vector<unsigned char> src(src_bytes + 1, 0);
  if (p.floats) fill_float_shares(p, source, src_index, me, src.data());
  else fill_contribution(p, source, src_index, me, src.data());
  // [destination | guard] and [workspace | guard]: exact sizes.
  std::vector<unsigned char> dst(tgt_bytes + kGuard, kGuardByte), ws(ws_bytes + kGuard, kGuardByte);
  long mismatches = 0, allocs[3] = {0, 0, 0};
  bool guards = true;
  std::size_t used_arrays = 0, used_ws = 0;
  const int regions = by_collectives ? 4 : 0;
  const bool ran = repeat_runs(
      comm, repeats, out, allocs,
      [&](unsigned char poison) {
        std::memset(dst.data(), poison ^ 0x5A, tgt_bytes);
        std::memset(ws.data(), poison, ws_bytes);
      },
      [&] {
        return by_collectives ? p.run(mesh, src.data(), src_bytes, dst.data(), tgt_bytes, ws.data(), ws_bytes)
                              : ex.run(src_bytes ? src.data() : nullptr, src_bytes, tgt_bytes ? dst.data() : nullptr,
                                       tgt_bytes, ws_bytes ? ws.data() : nullptr, ws_bytes);
      },
      [&](unsigned char poison) {
        mismatches += p.floats ? float_mismatches(p, source, target, tgt_index, me, dst.data())
                               : wrong_sums(p, target, tgt_index, me, dst.data(), comm);
        guards = guards && guard_ok(dst.data() + tgt_bytes) && guard_ok(ws.data() + ws_bytes);
        for (int r = 0; r < regions; ++r)
          used_arrays = std::max(used_arrays, used_extent(ws.data() + p.array_offset[r], p.array_bytes[r], poison));
        used_ws = std::max(used_ws, used_extent(ws.data(), ws_bytes, poison));
      });
  if (!ran) return out;
  gather_counts(comm, out, static_cast<long>(tgt_index.size()), mismatches, allocs, guards);
  unsigned long long mine[2] = {std::max({src_bytes, tgt_bytes, used_arrays}), used_ws}, most[2];
  MPI_Allreduce(mine, most, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  out.peak_bytes = most[0];
  out.used_scratch = most[1];
  return out;
}

// The proven bound on the largest local array: max(|src|, |tgt|) for a
// collectives plan (plan_peak_le_max), the largest source or target box for
// an exchange (plan_with_peak).
inline std::size_t proven_peak_bytes(const Problem& p) { return std::max(p.src_elems, p.tgt_elems) * p.elem_bytes; }
inline std::size_t proven_peak_bytes(const ExchangeProblem& p) { return p.peak_elems * p.elem_bytes; }
inline std::size_t proven_peak_bytes(const SumsProblem& p) { return p.peak_elems * p.elem_bytes; }
inline std::size_t proven_peak_bytes(const RegionProblem& p) { return p.peak_elems * p.elem_bytes; }
// In place the bound is on the live bytes, buffer + staging (inplace_live_bytes).
inline std::size_t proven_peak_bytes(const InPlaceProblem& p) { return p.live_bytes; }

// "" when the outcome is verified, else the first reason it is not:
// no error, the runtime's boxes the model's, no wrong element, every rank
// at its lower bound, guards intact, no allocation from our code in run(),
// the measured peak within proven_peak_bytes.
inline std::string failure(const Outcome& o, std::size_t proven_peak_bytes) {
  if (!o.error.empty()) return o.error;
  if (o.box_disagreements != 0)
    return "on " + std::to_string(o.box_disagreements) + " ranks the runtime's boxes are not the model's";
  if (o.mismatches != 0) return std::to_string(o.mismatches) + " wrong target elements";
  if (o.off_bound != 0) return std::to_string(o.off_bound) + " ranks received other than their lower bound";
  if (!o.guards_intact) return "guard bytes around the workspace or destination changed";
  if (o.news != 0 || o.own_mallocs != 0)
    return "run() allocated: " + std::to_string(o.news) + " operator new, " + std::to_string(o.own_mallocs) +
           " malloc calls";
  if (o.peak_bytes > proven_peak_bytes)
    return "measured peak " + std::to_string(o.peak_bytes) + " B above the proven " +
           std::to_string(proven_peak_bytes) + " B";
  return "";
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

// An ExchangeProblem from the namespace NS of a generated exchange header,
// the namespace MODEL of `redist run`'s model header (Run.model_header) and
// RUN, a function calling NS::run on untyped buffers.
#define REDIST_VERIFY_EXCHANGE(NS, MODEL, RUN)                                                          \
  redist_verify::ExchangeProblem {                                                                      \
    #NS, MODEL::kWorld, MODEL::kRank, MODEL::kGlobalShape, NS::kElemBytes,                              \
        (NS::kMaxSrcElems > NS::kMaxTgtElems ? NS::kMaxSrcElems : NS::kMaxTgtElems), &NS::create_exchange, \
        &RUN, MODEL::kInSource, MODEL::kSrcOffset, MODEL::kSrcExtent, MODEL::kInTarget, MODEL::kTgtOffset,  \
        MODEL::kTgtExtent, MODEL::kRecvBound, &redist_verify::value_of<NS::value_type>                   \
  }

// A RegionProblem from the namespace NS of a generated header of composed
// cuts, the namespace MODEL of `redist run`'s model header
// (Run.regions_model_header) and RUN, a function calling NS::run on untyped
// buffers.
#define REDIST_VERIFY_REGIONS(NS, MODEL, RUN)                                                          \
  redist_verify::RegionProblem {                                                                       \
    #NS, MODEL::kWorld, MODEL::kRank, MODEL::kGlobalShape, NS::kElemBytes, MODEL::kPeakElems,          \
        &NS::create_exchange, &RUN, MODEL::kSource, MODEL::kTarget, MODEL::kRecvCount,                 \
        &redist_verify::value_of<NS::value_type>                                                       \
  }

// The same for a header with pending axes: MODEL also gives the operation
// and element type (kOp, kDtype: the problem's, not the header's) and the
// pending axes (kSourcePending, kTargetPending and their counts).
#define REDIST_VERIFY_REDUCING_REGIONS(NS, MODEL, RUN)                                                 \
  redist_verify::RegionProblem {                                                                       \
    #NS, MODEL::kWorld, MODEL::kRank, MODEL::kGlobalShape, NS::kElemBytes, MODEL::kPeakElems,          \
        &NS::create_exchange, &RUN, MODEL::kSource, MODEL::kTarget, MODEL::kRecvCount,                 \
        &redist_verify::value_of<NS::value_type>, static_cast<int>(MODEL::kOp), MODEL::kDtype,         \
        MODEL::kSourcePendingCount, MODEL::kSourcePending, MODEL::kTargetPendingCount,                 \
        MODEL::kTargetPending                                                                          \
  }

// A HybridProblem from the namespace NS of a generated hybrid header and
// the namespace MODEL of `redist run`'s model header; PEAK: the proven peak
// local array in elements (xcheck's).
#define REDIST_VERIFY_HYBRID(NS, MODEL, PEAK)                                                           \
  redist_verify::HybridProblem {                                                                        \
    redist_verify::ExchangeProblem{#NS, MODEL::kWorld, MODEL::kRank, MODEL::kGlobalShape, NS::kElemBytes, \
                                   PEAK, nullptr, nullptr, MODEL::kInSource, MODEL::kSrcOffset,         \
                                   MODEL::kSrcExtent, MODEL::kInTarget, MODEL::kTgtOffset,              \
                                   MODEL::kTgtExtent, MODEL::kRecvBound,                                \
                                   &redist_verify::value_of<NS::value_type>},                           \
        NS::kWorkspaceBytes, NS::kMidBytes                                                              \
  }

// An InPlaceProblem from the namespace NS of a generated in-place header and
// the namespace MODEL of `redist run`'s model header.
#define REDIST_VERIFY_IN_PLACE(NS, MODEL)                                                               \
  redist_verify::InPlaceProblem {                                                                       \
    redist_verify::ExchangeProblem{#NS, MODEL::kWorld, MODEL::kRank, MODEL::kGlobalShape, NS::kElemBytes, \
                                   0, nullptr, nullptr, MODEL::kInSource, MODEL::kSrcOffset,            \
                                   MODEL::kSrcExtent, MODEL::kInTarget, MODEL::kTgtOffset,              \
                                   MODEL::kTgtExtent, MODEL::kRecvBound,                                \
                                   &redist_verify::value_of<NS::value_type>},                           \
        NS::kStagingBytes, NS::kLiveBytes, &NS::create, &NS::run                                        \
  }

// A SumsProblem from the namespace NS of a generated pending-sum header
// (redist_gen::NS), by the collectives or by the reducing exchange; PEAK:
// the plan's proven peak local array in elements (Sumplan's peak), which
// the header does not carry.
#define REDIST_VERIFY_SUMS_COMMON(NS, WORLD, PEAK)                                                          \
  #NS, WORLD, redist_gen::NS::kRank, redist_gen::NS::kGlobalShape, redist_gen::NS::kElemBytes,          \
      redist_gen::NS::kSrcPending, redist_gen::NS::kSrcPendingCount, redist_gen::NS::kTgtPending,       \
      redist_gen::NS::kTgtPendingCount, redist_gen::NS::source_mesh, redist_gen::NS::target_mesh,       \
      PEAK

#define REDIST_VERIFY_SUMS_COLLECTIVES(NS, PEAK)                                                            \
  redist_verify::SumsProblem {                                                                        \
    REDIST_VERIFY_SUMS_COMMON(NS, redist_gen::NS::kDevices, PEAK), redist_gen::NS::create_mesh,              \
        redist_gen::NS::run, redist_gen::NS::kSrcBytes, redist_gen::NS::kTgtBytes,                     \
        redist_gen::NS::src_box, redist_gen::NS::tgt_box,                                              \
        {0, redist_gen::NS::kPre0Bytes, redist_gen::NS::kCollectivesOffset,                            \
         redist_gen::NS::kCollectivesOffset + redist_gen::NS::collectives::kPingBytes},                \
        {redist_gen::NS::kPre0Bytes, redist_gen::NS::kPre1Bytes, redist_gen::NS::collectives::kPingBytes, \
         redist_gen::NS::collectives::kPongBytes},                                                     \
        nullptr, redist_gen::NS::kWorkspaceBytes, redist_gen::NS::kLiveBytes                           \
  }

#define REDIST_VERIFY_SUMS_EXCHANGE(NS, PEAK)                                                               \
  redist_verify::SumsProblem {                                                                        \
    REDIST_VERIFY_SUMS_COMMON(NS, redist_gen::NS::kWorldSize, PEAK), nullptr, nullptr, 0, 0, nullptr,        \
        nullptr, {0, 0, 0, 0}, {0, 0, 0, 0}, redist_gen::NS::create_exchange,                          \
        redist_gen::NS::kWorkspaceBytes, redist_gen::NS::kLiveBytes                                    \
  }

#ifdef REDIST_VERIFY_MAIN
#include <malloc.h>

extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* __libc_memalign(std::size_t, std::size_t);
extern "C" void __libc_free(void*);

extern "C" char __executable_start, etext;  // bounds of the executable's text (GNU ld)

namespace redist_verify {
std::atomic<bool> counting{false};
std::atomic<long> news{0}, mallocs{0}, own_mallocs{0};
std::atomic<long long> heap_live{0}, heap_peak{0};

inline void heap_grew(const void* q) {
  if (q == nullptr || !counting.load(std::memory_order_relaxed)) return;
  const long long live = heap_live += static_cast<long long>(malloc_usable_size(const_cast<void*>(q)));
  long long peak = heap_peak.load();
  while (live > peak && !heap_peak.compare_exchange_weak(peak, live)) {
  }
}

inline void heap_shrank(void* q) {
  if (q != nullptr && counting.load(std::memory_order_relaxed)) heap_live -= static_cast<long long>(malloc_usable_size(q));
}

inline void* count_malloc(void* q, const void* caller) {
  if (!counting.load(std::memory_order_relaxed)) return q;
  const char* c = static_cast<const char*>(caller);
  if (c >= &__executable_start && c < &etext) ++own_mallocs; else ++mallocs;
  heap_grew(q);
  return q;
}
}  // namespace redist_verify

// glibc's allocator does the work; these only count calls while a run is
// being measured.  Not inlined: the return address must be the caller's.
extern "C" __attribute__((noinline)) void* malloc(std::size_t n) {
  return redist_verify::count_malloc(__libc_malloc(n), __builtin_return_address(0));
}
extern "C" __attribute__((noinline)) void* calloc(std::size_t n, std::size_t m) {
  return redist_verify::count_malloc(__libc_calloc(n, m), __builtin_return_address(0));
}
extern "C" __attribute__((noinline)) void* realloc(void* q, std::size_t n) {
  redist_verify::heap_shrank(q);
  void* moved = __libc_realloc(q, n);
  redist_verify::count_malloc(moved != nullptr ? moved : (n > 0 ? q : nullptr), __builtin_return_address(0));
  return moved;
}
extern "C" void free(void* q) {
  redist_verify::heap_shrank(q);
  __libc_free(q);
}
// The aligned allocations too, so that what they allocate and free is
// weighed alike.
extern "C" __attribute__((noinline)) void* memalign(std::size_t alignment, std::size_t n) {
  return redist_verify::count_malloc(__libc_memalign(alignment, n), __builtin_return_address(0));
}
extern "C" __attribute__((noinline)) void* aligned_alloc(std::size_t alignment, std::size_t n) {
  return redist_verify::count_malloc(__libc_memalign(alignment, n), __builtin_return_address(0));
}
extern "C" __attribute__((noinline)) int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  void* q = redist_verify::count_malloc(__libc_memalign(alignment, n), __builtin_return_address(0));
  if (q == nullptr) return 12;  // ENOMEM
  *out = q;
  return 0;
}
void* operator new(std::size_t n) {
  if (redist_verify::counting.load(std::memory_order_relaxed)) ++redist_verify::news;
  void* q = __libc_malloc(n == 0 ? 1 : n);
  redist_verify::heap_grew(q);
  if (q != nullptr) return q;
  throw std::bad_alloc();
}
void operator delete(void* q) noexcept { std::free(q); }
void operator delete(void* q, std::size_t) noexcept { std::free(q); }
#endif
