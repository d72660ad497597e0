// The NCCL exchange (redist/nccl_exchange.hpp) and reducing exchange
// (redist/nccl_reduce_exchange.hpp).  The exchange: its host logic (the strided
// box copies that pack, unpack and keep, replayed on the host) everywhere,
// and whole exchanges on random problems (tests/runtime/exchange_problems.hpp:
// uneven, empty boxes, cross-mesh, permuted ranks, every element size) on a
// GPU or against the emulation.  Every element of every rank is checked
// against the global array; peers and per-peer element counts against the
// MPI exchange's (whose peers tests/runtime/test_exchange.cpp checks against
// the model's spread rule element by element); the staging layout against
// its definition.  Half the problems use an NCCL communicator made by the
// test itself (no MPI in the exchange), half the MPI-bootstrapped one.
// The reducing exchange: random pending problems (pending axes on both
// sides, uneven, cross-mesh, every element type, every operation it has:
// sum, prod, max, min, avg), every element of every rank against the
// reduction computed on the host in ascending member order
// (bitwise, floats included), two runs bitwise equal, peers and counts
// against the MPI reducing exchange's, the workspace layout against its
// definition; misuse; no allocation in run().
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../runtime/exchange_problems.hpp"
#include "check.hpp"
#include "device.hpp"
#include "nccl/box_copy.hpp"
#include "redist/exchange.hpp"
#include "redist/nccl_exchange.hpp"
#include "redist/nccl_reduce_exchange.hpp"
#include "redist/reduce_exchange.hpp"

namespace gputest {

namespace {

using redist::Box;
using redist::Errc;
using redist::Status;
using redist::nccl::Exchange;

constexpr int kProblems = 100;  // per world size

// ---- box copy plans, replayed on the host ------------------------------------------

std::size_t box_offset(const Box& box, const std::size_t* index) {
  std::size_t off = 0;
  for (int d = 0; d < box.ndim; ++d) off = off * (box.hi[d] - box.lo[d]) + (index[d] - box.lo[d]);
  return off;
}

// Copies region from the array of box `from` to that of `to`, element by
// element, as the plan must.
void naive_copy(const Box& from, const Box& to, const Box& region, std::size_t elem,
                const unsigned char* src, unsigned char* dst) {
  const std::size_t n = redist::box_elements(region);
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t index[redist::kMaxRank], rest = e;
    for (int d = region.ndim - 1; d >= 0; --d) {
      const std::size_t extent = region.hi[d] - region.lo[d];
      index[d] = region.lo[d] + rest % extent;
      rest /= extent;
    }
    std::memcpy(dst + box_offset(to, index) * elem, src + box_offset(from, index) * elem, elem);
  }
}

Box random_box(std::mt19937& rng, int ndim) {
  Box b;
  b.ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    b.lo[d] = rng() % 4;
    b.hi[d] = b.lo[d] + 1 + rng() % 5;
  }
  return b;
}

// A box inside `outer` (non-empty, or empty now and then).
Box random_region(std::mt19937& rng, const Box& outer) {
  Box r = outer;
  for (int d = 0; d < outer.ndim; ++d) {
    const std::size_t extent = outer.hi[d] - outer.lo[d];
    r.lo[d] = outer.lo[d] + rng() % extent;
    r.hi[d] = r.lo[d] + (rng() % 8 == 0 ? 0 : 1 + rng() % (outer.hi[d] - r.lo[d]));
  }
  return r;
}

void box_copy_plans(Tally& t) {
  std::mt19937 rng(7);
  const std::size_t elems[] = {1, 2, 4, 8, 16};
  long widened = 0;
  for (int i = 0; i < 2000; ++i) {
    const int ndim = 1 + static_cast<int>(rng() % redist::kMaxRank);
    const std::size_t elem = elems[rng() % 5];
    const Box region = random_region(rng, random_box(rng, ndim));
    // Two arrays containing the region (the region itself now and then: the staging side).
    auto around = [&]() {
      if (rng() % 3 == 0) return region;
      Box b = region;
      for (int d = 0; d < ndim; ++d) {
        b.lo[d] -= std::min<std::size_t>(b.lo[d], rng() % 2);
        b.hi[d] += rng() % 2;
      }
      return b;
    };
    const Box from = around(), to = around();
    // Shifted pointers narrow the word.
    const std::size_t shift_src = rng() % 3 == 0 ? elem : 0, shift_dst = rng() % 3 == 0 ? elem : 0;
    std::vector<unsigned char> src(redist::box_elements(from) * elem + shift_src + 16);
    for (std::size_t b = 0; b < src.size(); ++b) src[b] = static_cast<unsigned char>(rng());
    const std::size_t dst_bytes = redist::box_elements(to) * elem + shift_dst;
    std::vector<unsigned char> want(dst_bytes + kCanary, kPoison), got(want);
    naive_copy(from, to, region, elem, src.data() + shift_src, want.data() + shift_dst);
    const redist::cuda::detail::BoxCopy p = redist::cuda::detail::plan_box_copy(
        from, to, region, elem, src.data() + shift_src, got.data() + shift_dst);
    if (p.words * p.width != redist::box_elements(region) * elem)
      return t.fail("box copy plan of " + std::to_string(p.words) + " words of " +
                    std::to_string(p.width) + " bytes for a region of " +
                    std::to_string(redist::box_elements(region) * elem) + " bytes");
    widened += p.width > elem;
    const unsigned char* in = src.data() + shift_src;
    unsigned char* out = got.data() + shift_dst;
    for (std::size_t w = 0; w < p.words; ++w) {
      std::size_t s, d;
      redist::cuda::detail::box_words<std::size_t>(p, w, &s, &d);
      std::memcpy(out + d * p.width, in + s * p.width, p.width);
    }
    if (got != want) return t.fail("box copy plan " + std::to_string(i) + " differs from the naive copy");
  }
  t.expect(widened > 0, "no plan merged runs into wider words");
}

// ---- whole exchanges ---------------------------------------------------------------

using exchange_test::Problem;

std::size_t global_linear(const Box& box, std::size_t e, const redist::BlockLayout& l) {
  std::size_t rest = e, index[redist::kMaxRank];
  for (int d = box.ndim - 1; d >= 0; --d) {
    const std::size_t extent = box.hi[d] - box.lo[d];
    index[d] = box.lo[d] + rest % extent;
    rest /= extent;
  }
  std::size_t g = 0;
  for (int d = 0; d < l.ndim; ++d) g = g * l.extent[d] + index[d];
  return g;
}

// The local array of `box`, its element at global index g labelled by g.
std::vector<unsigned char> fill(const Box& box, const Problem& p, unsigned salt) {
  const std::size_t n = redist::box_elements(box);
  std::vector<unsigned char> v(n * p.elem_bytes);
  for (std::size_t e = 0; e < n; ++e)
    for (std::size_t b = 0; b < p.elem_bytes; ++b)
      v[e * p.elem_bytes + b] = label(0, global_linear(box, e, p.source_layout), b, salt);
  return v;
}

// The staging layout: receives then sends, back to back from 0, each its
// region's bytes, and the workspace exactly their sum.
void check_staging(const Exchange& ex, std::size_t elem, Tally& t, const std::string& what) {
  std::size_t offset = 0;
  for (const auto* list : {&ex.receives(), &ex.sends()})
    for (const Exchange::Message& m : *list) {
      if (m.offset != offset || m.bytes != redist::box_elements(m.region) * elem)
        return t.fail(what + ": staging slot of the message with rank " + std::to_string(m.rank) +
                      " at " + std::to_string(m.offset) + " (" + std::to_string(m.bytes) +
                      " bytes), expected at " + std::to_string(offset));
      offset += m.bytes;
    }
  t.expect(ex.workspace_bytes() == offset, what + ": workspace is not the staged bytes' sum");
}

// Peers and counts as the MPI exchange's, in the same order.
void check_peers(const Exchange& ex, const redist::Exchange& mpi, Tally& t, const std::string& what) {
  auto same = [](const std::vector<Exchange::Message>& a, const std::vector<redist::Exchange::Peer>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].rank != b[i].rank || redist::box_elements(a[i].region) != b[i].elements) return false;
    return true;
  };
  t.expect(same(ex.receives(), mpi.receives()), what + ": receives differ from the MPI exchange's");
  t.expect(same(ex.sends(), mpi.sends()), what + ": sends differ from the MPI exchange's");
  t.expect(redist::box_elements(ex.kept()) == mpi.kept_elements(), what + ": kept count differs");
  t.expect(ex.source_bytes() == mpi.source_bytes() && ex.target_bytes() == mpi.target_bytes(),
           what + ": local array sizes differ from the MPI exchange's");
}

void run_and_check(Exchange& ex, const Problem& p, unsigned salt, cudaStream_t stream, Tally& t,
                   const std::string& what) {
  const std::size_t src_bytes = ex.source_bytes(), dst_bytes = ex.target_bytes();
  const std::size_t ws_bytes = ex.workspace_bytes();
  DeviceBuffer src(src_bytes, t), dst(dst_bytes + kCanary, t), ws(ws_bytes + kCanary, t);
  if (!src || !dst || !ws) return;
  const std::vector<unsigned char> source = fill(ex.source_box(), p, salt);
  if (!upload(src.get(), source, t) || !poison(dst.get(), dst_bytes + kCanary, t) ||
      !poison(ws.get(), ws_bytes + kCanary, t))
    return;
  // Outside a mesh a rank passes null for that side.
  const Status ran = ex.run(src_bytes ? src.get() : nullptr, src_bytes, dst_bytes ? dst.get() : nullptr,
                            dst_bytes, ws_bytes ? ws.get() : nullptr, ws_bytes, stream);
  if (!ran.ok()) return t.fail(what + ": " + ran.message());
  if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize", t)) return;
  std::vector<unsigned char> want = fill(ex.target_box(), p, salt);
  expect_bytes(download(dst.get(), dst_bytes + kCanary, t), want, t, what + ": destination");
  const std::vector<unsigned char> after = download(ws.get() + ws_bytes, kCanary, t);
  for (unsigned char c : after)
    if (c != kPoison) return t.fail(what + ": wrote past the workspace");
}

void random_exchanges(Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  std::mt19937 rng(20261123u + static_cast<unsigned>(world_size()));
  for (int i = 0; i < kProblems && t.bad() == 0; ++i) {
    const Problem p = exchange_test::random_problem(rng, world_size());
    const bool from_nccl = i % 2 == 0;
    const std::string what = describe(p) + (from_nccl ? " (ncclComm_t)" : " (MPI)");
    Exchange ex;
    const Status created =
        from_nccl ? Exchange::create(nccl.comm, p.source, p.source_layout, p.target, p.target_layout,
                                     p.elem_bytes, stream.get(), &ex)
                  : Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target,
                                     p.target_layout, p.elem_bytes, &ex);
    if (!created.ok()) return t.fail(what + ": " + created.message());
    redist::Exchange mpi;
    if (Status st = redist::Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target,
                                             p.target_layout, p.elem_bytes, &mpi);
        !st.ok())
      return t.fail(what + ": MPI exchange: " + st.message());
    check_peers(ex, mpi, t, what);
    check_staging(ex, p.elem_bytes, t, what);
    run_and_check(ex, p, static_cast<unsigned>(i + 1), stream.get(), t, what);
  }
}

// ---- misuse ------------------------------------------------------------------------

Problem flat_problem(std::size_t extent) {
  const int n = world_size();
  Problem p;
  p.source = redist::PlacedMesh::contiguous(&n, 1, 0);
  p.target = p.source;
  p.source_layout.ndim = p.target_layout.ndim = 1;
  p.source_layout.extent[0] = p.target_layout.extent[0] = extent;
  p.source_layout.sharding[0] = {1, {0}};  // sharded -> replicated: everyone sends and receives
  p.elem_bytes = 4;
  return p;
}

// Misuse of an exchange made from an NCCL communicator (agreement through
// ncclAllReduce) or over MPI (agreement through MPI).
void exchange_misuse(bool from_nccl, Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  const int me = world_rank(), n = world_size();
  const std::string how = from_nccl ? " (ncclComm_t)" : " (MPI)";
  auto create = [&](const Problem& q, Exchange* out) {
    return from_nccl ? Exchange::create(nccl.comm, q.source, q.source_layout, q.target, q.target_layout,
                                        q.elem_bytes, stream.get(), out)
                     : Exchange::create(MPI_COMM_WORLD, q.source, q.source_layout, q.target,
                                        q.target_layout, q.elem_bytes, out);
  };
  const Problem p = flat_problem(4 * static_cast<std::size_t>(n));  // no empty box
  Exchange ex;
  t.expect_code(Exchange::create(nullptr, p.source, p.source_layout, p.target, p.target_layout, 4,
                                 stream.get(), &ex),
                Errc::invalid_argument, "create on a null communicator");
  t.expect_code(ex.run(nullptr, 0, nullptr, 0, nullptr, 0, stream.get()), Errc::invalid_argument,
                "run on an empty exchange");
  // One rank's different shape fails create on every rank.
  const Status differ = create(flat_problem(me == n - 1 ? 5 : 4 * static_cast<std::size_t>(n)), &ex);
  if (n > 1) t.expect(!differ.ok(), "ranks passing different problems: create succeeded" + how);
  // An invalid layout on every rank is named.
  Problem bad = p;
  bad.source_layout.sharding[0] = {1, {3}};
  const Status invalid = create(bad, &ex);
  t.expect_code(invalid, Errc::invalid_argument, "an axis outside the mesh" + how);
  t.expect(invalid.message().find("source layout") != std::string::npos,
           "message does not name the source layout: " + invalid.message());

  if (Status st = create(p, &ex); !st.ok()) return t.fail(st.message() + how);
  const std::size_t sb = ex.source_bytes(), db = ex.target_bytes(), wb = ex.workspace_bytes();
  DeviceBuffer src(sb, t), dst(db, t), ws(wb + 1, t);
  if (!src || !dst || !ws) return;
  // One rank's short workspace: that rank names it, the others report remote_error.
  const bool short_here = n > 1 && me == 1;
  const Status shrt = ex.run(src.get(), sb, dst.get(), db, ws.get(), short_here ? wb - 1 : wb, stream.get());
  if (n > 1) {
    t.expect_code(shrt, short_here ? Errc::buffer_too_small : Errc::remote_error,
                  "one rank's short workspace" + how);
    if (short_here)
      t.expect(shrt.message() == "Exchange::run: workspace has " + std::to_string(wb - 1) +
                                     " bytes, needs " + std::to_string(wb),
               "message: " + shrt.message());
    t.expect_code(ex.run(src.get(), sb, dst.get(), db, src.get(), wb, stream.get()), Errc::overlap,
                  "workspace overlapping the source" + how);
  }
  // Still usable afterwards, agreement on and off.
  t.expect_code(ex.run(src.get(), sb, dst.get(), db, ws.get(), wb, stream.get()), Errc::ok,
                "run after errors" + how);
  ex.set_agreement(false);
  t.expect_code(ex.run(src.get(), sb, dst.get(), db, ws.get(), wb, stream.get()), Errc::ok,
                "run without agreement" + how);
  t.expect(cudaStreamSynchronize(stream.get()) == cudaSuccess, "stream synchronize");
}

// run() allocates nothing: counted over a second run of a cross-mesh problem
// (the first lets the emulation size its request list), agreement on and
// off, for both creation paths.
void exchange_run_allocates_nothing(Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  {
    const long before = operator_new_calls();
    std::vector<int> probe(16);
    t.expect(operator_new_calls() > before, "the operator new counter sees nothing");
  }
  std::mt19937 rng(99);
  const Problem p = exchange_test::random_problem(rng, world_size());
  for (bool from_nccl : {true, false}) {
    Exchange ex;
    const Status created =
        from_nccl ? Exchange::create(nccl.comm, p.source, p.source_layout, p.target, p.target_layout,
                                     p.elem_bytes, stream.get(), &ex)
                  : Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target,
                                     p.target_layout, p.elem_bytes, &ex);
    if (!created.ok()) return t.fail(created.message());
    const std::size_t sb = ex.source_bytes(), db = ex.target_bytes(), wb = ex.workspace_bytes();
    DeviceBuffer src(sb, t), dst(db, t), ws(wb, t);
    if (!src || !dst || !ws) return;
    for (bool agreement : {true, false}) {
      ex.set_agreement(agreement);
      long allocations = 0;
      for (int round = 0; round < 2; ++round) {
        const long before = operator_new_calls();
        const Status ran = ex.run(sb ? src.get() : nullptr, sb, db ? dst.get() : nullptr, db,
                                  wb ? ws.get() : nullptr, wb, stream.get());
        allocations = operator_new_calls() - before;
        if (!ran.ok()) return t.fail(ran.message());
      }
      t.expect(allocations == 0, describe(p) + ": run() made " + std::to_string(allocations) +
                                     " operator new calls" + (from_nccl ? " (ncclComm_t" : " (MPI") +
                                     (agreement ? ", agreement on)" : ", agreement off)"));
    }
    t.expect(cudaStreamSynchronize(stream.get()) == cudaSuccess, "stream synchronize");
  }
}

// ---- the reducing exchange -------------------------------------------------------

using redist::Dtype;
using ReducingNccl = redist::nccl::ReducingExchange;

constexpr int kReducingProblems = 60;  // per world size

// Member k's contribution at global linear index g, as element bytes: any
// value (floats with more significant bits than the type keeps, so that
// rounding happens), independent of which group holds g, so that the host
// knows every target element's sum without knowing the holder.
void contribution(Dtype dtype, std::size_t g, int k, unsigned salt, unsigned char* out) {
  std::uint64_t h = (g + 1) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(k) + 1) * 0xC2B2AE3D27D4EB4Full ^ salt;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  auto put = [&](const auto& v, std::size_t at) { std::memcpy(out + at, &v, sizeof v); };
  auto real32 = [](std::uint64_t x) { return static_cast<float>(static_cast<std::int32_t>(x)) / 65536.0f; };
  auto real64 = [](std::uint64_t x) { return static_cast<double>(static_cast<std::int64_t>(x)) / 4294967296.0; };
  switch (dtype) {
    case Dtype::f32: return put(real32(h), 0);
    case Dtype::f64: return put(real64(h), 0);
    case Dtype::c64: put(real32(h), 0); return put(real32(h >> 17), 4);
    case Dtype::c128: put(real64(h), 0); return put(real64(h * 31), 8);
    case Dtype::f16: return put(redist::local::f32_to_f16(real32(h) / 64.0f), 0);
    case Dtype::bf16: return put(redist::local::f32_to_bf16(real32(h)), 0);
    default: std::memcpy(out, &h, redist::dtype_bytes(dtype));
  }
}

// This rank's member index in its source pending group: its coordinates on
// the pending axes, in mesh order, the first most significant (the model's
// group_members order).
int member_index(const redist::PlacedMesh& mesh, int position, const std::vector<int>& pending) {
  int k = 0;
  for (int a = 0; a < mesh.naxes; ++a)
    if (std::find(pending.begin(), pending.end(), a) != pending.end())
      k = k * mesh.axis_size[a] + redist::mesh_coord(mesh, position, a);
  return k;
}

int position_of(const redist::PlacedMesh& mesh, int rank) {
  const auto it = std::find(mesh.ranks.begin(), mesh.ranks.end(), rank);
  return it == mesh.ranks.end() ? -1 : static_cast<int>(it - mesh.ranks.begin());
}

struct PendingProblem {
  Problem p;
  Dtype dtype;
  redist::Op op = redist::Op::sum;
  std::vector<int> source_pending, target_pending;
};

PendingProblem random_pending_problem(std::mt19937& rng) {
  PendingProblem q;
  q.p = exchange_test::random_problem(rng, world_size());
  q.dtype = redist::kAllDtypes[rng() % std::size(redist::kAllDtypes)];
  q.p.elem_bytes = redist::dtype_bytes(q.dtype);
  q.source_pending = exchange_test::random_pending(rng, q.p.source, q.p.source_layout);
  q.target_pending = exchange_test::random_pending(rng, q.p.target, q.p.target_layout);
  // An operation the element type has; avg only toward no pending axes (its members each hold the value).
  std::vector<redist::Op> ops;
  for (redist::Op op : {redist::Op::sum, redist::Op::prod, redist::Op::max, redist::Op::min, redist::Op::avg})
    if (redist::op_computes(q.dtype, op) && !(op == redist::Op::avg && !q.target_pending.empty())) ops.push_back(op);
  q.op = ops[rng() % ops.size()];
  return q;
}

std::string describe(const PendingProblem& q) {
  return describe(q.p) + " " + redist::dtype_name(q.dtype) + " " + redist::op_name(q.op) + " pending " + std::to_string(q.source_pending.size()) +
         " -> " + std::to_string(q.target_pending.size());
}

Status create_reducing(const PendingProblem& q, bool from_nccl, ncclComm_t comm, cudaStream_t stream,
                       ReducingNccl* out) {
  const auto& ps = q.source_pending;
  const auto& pt = q.target_pending;
  return from_nccl ? ReducingNccl::create(comm, q.p.source, q.p.source_layout, ps.data(), static_cast<int>(ps.size()),
                                          q.p.target, q.p.target_layout, pt.data(), static_cast<int>(pt.size()),
                                          q.dtype, q.op, stream, out)
                   : ReducingNccl::create(MPI_COMM_WORLD, q.p.source, q.p.source_layout, ps.data(),
                                          static_cast<int>(ps.size()), q.p.target, q.p.target_layout, pt.data(),
                                          static_cast<int>(pt.size()), q.dtype, q.op, out);
}

// This rank's target array as the host computes it: on a designated rank
// (pending coordinates 0 on the target mesh) every element is the left fold
// by the operation over the group's members in ascending order
// (local::reduce_blocks over the members' contributions; avg the sum divided
// once by the group size); on the others, the operation's identity.
std::vector<unsigned char> host_reduction(const PendingProblem& q, const Box& box, unsigned salt) {
  const std::size_t n = redist::box_elements(box), w = q.p.elem_bytes;
  std::vector<unsigned char> out(n * w, 0);
  const int me = position_of(q.p.target, world_rank());
  for (int a : q.target_pending)
    if (me >= 0 && redist::mesh_coord(q.p.target, me, a) != 0) {
      redist::local::fill_identity(q.dtype, q.op, out.data(), n);
      return out;
    }
  int group = 1;
  for (int a : q.source_pending) group *= q.p.source.axis_size[a];
  std::vector<unsigned char> members(static_cast<std::size_t>(group) * w);
  for (std::size_t e = 0; e < n; ++e) {
    const std::size_t g = global_linear(box, e, q.p.source_layout);
    for (int k = 0; k < group; ++k) contribution(q.dtype, g, k, salt, &members[static_cast<std::size_t>(k) * w]);
    redist::local::reduce_blocks(q.dtype, q.op, members.data(), 1, static_cast<std::size_t>(group), &out[e * w]);
  }
  return out;
}

void random_reducing_exchanges(Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  std::mt19937 rng(20261125u + static_cast<unsigned>(world_size()));
  int pending_both = 0, floats = 0;
  int by_op[5] = {0, 0, 0, 0, 0};  // problems run, per redist::Op
  // Every rank goes through every problem (a wrong element on one rank
  // must not leave the others waiting in the next run).
  for (int i = 0; i < kReducingProblems; ++i) {
    const PendingProblem q = random_pending_problem(rng);
    const bool from_nccl = i % 2 == 0;
    const std::string what = describe(q) + (from_nccl ? " (ncclComm_t)" : " (MPI)");
    ReducingNccl ex;
    if (Status st = create_reducing(q, from_nccl, nccl.comm, stream.get(), &ex); !st.ok())
      return t.fail(what + ": " + st.message());
    redist::ReducingExchange mpi;
    if (Status st = redist::ReducingExchange::create(
            MPI_COMM_WORLD, q.p.source, q.p.source_layout, q.source_pending.data(),
            static_cast<int>(q.source_pending.size()), q.p.target, q.p.target_layout, q.target_pending.data(),
            static_cast<int>(q.target_pending.size()), q.dtype, q.op, &mpi);
        !st.ok())
      return t.fail(what + ": MPI reducing exchange: " + st.message());
    auto same = [](const std::vector<ReducingNccl::Message>& a, const std::vector<redist::ReducingExchange::Peer>& b) {
      if (a.size() != b.size()) return false;
      for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].rank != b[k].rank || redist::box_elements(a[k].region) != b[k].elements) return false;
      return true;
    };
    t.expect(same(ex.receives(), mpi.receives()), what + ": receives differ from the MPI reducing exchange's");
    t.expect(same(ex.sends(), mpi.sends()), what + ": sends differ from the MPI reducing exchange's");
    t.expect(ex.designated() == mpi.designated() && ex.group_size() == mpi.group_size(),
             what + ": designation or group size differs from the MPI reducing exchange's");
    std::size_t offset = ex.member_arrays_bytes();
    t.expect(offset == (ex.designated() ? static_cast<std::size_t>(ex.group_size()) * ex.target_bytes() : 0),
             what + ": member arrays' bytes");
    for (const auto* list : {&ex.receives(), &ex.sends()})
      for (const ReducingNccl::Message& m : *list) {
        t.expect(m.offset == offset && m.bytes == redist::box_elements(m.region) * q.p.elem_bytes,
                 what + ": staging slot of a message with rank " + std::to_string(m.rank));
        offset += m.bytes;
      }
    t.expect(ex.workspace_bytes() == offset, what + ": workspace is not member arrays + staged bytes");
    pending_both += !q.source_pending.empty() && !q.target_pending.empty();
    floats += q.dtype == Dtype::f32 || q.dtype == Dtype::bf16 || q.dtype == Dtype::f16 || q.dtype == Dtype::f64;
    ++by_op[static_cast<int>(q.op)];

    const unsigned salt = static_cast<unsigned>(i + 1);
    const std::size_t sb = ex.source_bytes(), db = ex.target_bytes(), wb = ex.workspace_bytes();
    DeviceBuffer src(sb, t), dst(db + kCanary, t), again(db + kCanary, t), ws(wb + kCanary, t);
    if (!src || !dst || !again || !ws) return;
    std::vector<unsigned char> source(sb);
    const int my_source = position_of(q.p.source, world_rank());
    if (my_source >= 0) {
      const int k = member_index(q.p.source, my_source, q.source_pending);
      for (std::size_t e = 0; e < sb / q.p.elem_bytes; ++e)
        contribution(q.dtype, global_linear(ex.source_box(), e, q.p.source_layout), k, salt,
                     &source[e * q.p.elem_bytes]);
    }
    if (!upload(src.get(), source, t) || !poison(dst.get(), db + kCanary, t) ||
        !poison(again.get(), db + kCanary, t) || !poison(ws.get(), wb + kCanary, t))
      return;
    for (const DeviceBuffer* out : {&dst, &again}) {
      const Status ran = ex.run(sb ? src.get() : nullptr, sb, db ? out->get() : nullptr, db, wb ? ws.get() : nullptr,
                                wb, stream.get());
      if (!ran.ok()) return t.fail(what + ": " + ran.message());
    }
    if (!cuda_ok(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize", t)) return;
    const std::vector<unsigned char> want = host_reduction(q, ex.target_box(), salt);
    expect_bytes(download(dst.get(), db + kCanary, t), want, t, what + ": destination");
    expect_bytes(download(again.get(), db + kCanary, t), want, t, what + ": second run");
    for (unsigned char c : download(ws.get() + wb, kCanary, t))
      if (c != kPoison) {
        t.fail(what + ": wrote past the workspace");
        break;
      }
  }
  if (world_size() > 2) {
    t.expect(pending_both > 0, "no problem had pending axes on both sides");
    for (redist::Op op : {redist::Op::sum, redist::Op::prod, redist::Op::max, redist::Op::min, redist::Op::avg})
      t.expect(by_op[static_cast<int>(op)] > 0, std::string("no problem had the operation ") + redist::op_name(op));
    t.expect(floats > 0, "no problem had a floating-point type");
  }
}

// Misuse of a reducing exchange, from an NCCL communicator or over MPI.
void reducing_misuse(bool from_nccl, Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  const int me = world_rank(), n = world_size();
  const std::string how = from_nccl ? " (ncclComm_t)" : " (MPI)";
  PendingProblem q;
  q.p = flat_problem(4 * static_cast<std::size_t>(n));
  q.p.target_layout.sharding[0] = {0, {}};
  q.dtype = Dtype::f32;
  ReducingNccl ex;
  t.expect_code(ReducingNccl::create(nullptr, q.p.source, q.p.source_layout, nullptr, 0, q.p.target, q.p.target_layout,
                                     nullptr, 0, q.dtype, redist::Op::sum, stream.get(), &ex),
                Errc::invalid_argument, "create on a null communicator");
  t.expect_code(ex.run(nullptr, 0, nullptr, 0, nullptr, 0, stream.get()), Errc::invalid_argument,
                "run on an empty reducing exchange");
  // A pending axis that shards a dim is named on every rank.
  PendingProblem bad = q;
  bad.source_pending = {0};
  const Status sharding = create_reducing(bad, from_nccl, nccl.comm, stream.get(), &ex);
  t.expect_code(sharding, Errc::invalid_argument, "a pending axis sharding a dim" + how);
  t.expect(sharding.message().find("source pending axis 0 also shards dim 0") != std::string::npos,
           "message: " + sharding.message());
  // One rank's different pending axes fail create on every rank.
  PendingProblem differ = q;
  differ.target_pending = {0};
  if (n > 1) {
    const Status st = create_reducing(me == n - 1 ? differ : q, from_nccl, nccl.comm, stream.get(), &ex);
    t.expect(!st.ok(), "ranks passing different pending axes: create succeeded" + how);
  }
  if (Status st = create_reducing(q, from_nccl, nccl.comm, stream.get(), &ex); !st.ok())
    return t.fail(st.message() + how);
  const std::size_t sb = ex.source_bytes(), db = ex.target_bytes(), wb = ex.workspace_bytes();
  DeviceBuffer src(sb, t), dst(db, t), ws(wb + 1, t);
  if (!src || !dst || !ws) return;
  const bool short_here = n > 1 && me == 1;
  const Status shrt = ex.run(src.get(), sb, dst.get(), db, ws.get(), short_here ? wb - 1 : wb, stream.get());
  if (n > 1) {
    t.expect_code(shrt, short_here ? Errc::buffer_too_small : Errc::remote_error, "one rank's short workspace" + how);
    if (short_here)
      t.expect(shrt.message() == "ReducingExchange::run: workspace has " + std::to_string(wb - 1) + " bytes, needs " +
                                     std::to_string(wb),
               "message: " + shrt.message());
    t.expect_code(ex.run(src.get(), sb, dst.get(), db, src.get(), wb, stream.get()), Errc::overlap,
                  "workspace overlapping the source" + how);
  }
  t.expect_code(ex.run(src.get(), sb, dst.get(), db, ws.get(), wb, stream.get()), Errc::ok, "run after errors" + how);
  ex.set_agreement(false);
  t.expect_code(ex.run(src.get(), sb, dst.get(), db, ws.get(), wb, stream.get()), Errc::ok,
                "run without agreement" + how);
  t.expect(cudaStreamSynchronize(stream.get()) == cudaSuccess, "stream synchronize");
}

// run() allocates nothing (second run counted), both creation paths,
// agreement on and off.
void reducing_run_allocates_nothing(Tally& t) {
  Stream stream(t);
  NcclComm nccl(t);
  if (stream.get() == nullptr || nccl.comm == nullptr) return;
  std::mt19937 rng(98);
  PendingProblem q = random_pending_problem(rng);
  for (bool from_nccl : {true, false}) {
    ReducingNccl ex;
    if (Status st = create_reducing(q, from_nccl, nccl.comm, stream.get(), &ex); !st.ok())
      return t.fail(st.message());
    const std::size_t sb = ex.source_bytes(), db = ex.target_bytes(), wb = ex.workspace_bytes();
    DeviceBuffer src(sb, t), dst(db, t), ws(wb, t);
    if (!src || !dst || !ws) return;
    for (bool agreement : {true, false}) {
      ex.set_agreement(agreement);
      long allocations = 0;
      for (int round = 0; round < 2; ++round) {
        const long before = operator_new_calls();
        const Status ran = ex.run(sb ? src.get() : nullptr, sb, db ? dst.get() : nullptr, db,
                                  wb ? ws.get() : nullptr, wb, stream.get());
        allocations = operator_new_calls() - before;
        if (!ran.ok()) return t.fail(ran.message());
      }
      t.expect(allocations == 0, describe(q) + ": run() made " + std::to_string(allocations) + " operator new calls" +
                                     (from_nccl ? " (ncclComm_t" : " (MPI") +
                                     (agreement ? ", agreement on)" : ", agreement off)"));
    }
    t.expect(cudaStreamSynchronize(stream.get()) == cudaSuccess, "stream synchronize");
  }
}

}  // namespace

void add_exchange_cases(std::vector<Case>& cases) {
  cases.push_back({"exchange: box copy plans replayed on the host (2000 random regions)", Needs::anything,
                   box_copy_plans});
  cases.push_back({"exchange: 100 random problems per world size, every element of every rank", Needs::gpu,
                   random_exchanges});
  cases.push_back({"exchange from an ncclComm_t: misuse reported on every rank", Needs::gpu,
                   [](Tally& t) { exchange_misuse(true, t); }});
  cases.push_back({"exchange over MPI: misuse reported on every rank", Needs::gpu,
                   [](Tally& t) { exchange_misuse(false, t); }});
  cases.push_back({"exchange: run() allocates nothing", Needs::gpu, exchange_run_allocates_nothing});
  cases.push_back({"reducing exchange: 60 random pending problems per world size (uneven, cross-mesh, every "
                   "element type, sum, prod, max, min and avg), every element of every rank bitwise equal to the "
                   "host's ascending-order reduction, two runs bitwise equal",
                   Needs::gpu, random_reducing_exchanges});
  cases.push_back({"reducing exchange from an ncclComm_t: misuse reported on every rank", Needs::gpu,
                   [](Tally& t) { reducing_misuse(true, t); }});
  cases.push_back({"reducing exchange over MPI: misuse reported on every rank", Needs::gpu,
                   [](Tally& t) { reducing_misuse(false, t); }});
  cases.push_back({"reducing exchange: run() allocates nothing", Needs::gpu, reducing_run_allocates_nothing});
}

}  // namespace gputest
