// redist runtime: backend-independent vocabulary shared by every backend.
//
// A local array is dense, row-major, of rank 1..kMaxRank, with elements of
// 1, 2, 4, 8 or 16 bytes; the runtime only moves bytes and never looks at
// element values.  Devices are numbered row-major over the mesh axes (the
// first axis most significant), which is also their MPI rank.
//
// Workspace rule (what generated code allocates once, before the hot path):
//
//     workspace_bytes = 2 * peak_local_bytes + max_scratch_bytes
//
// where peak_local_bytes is the largest bytes(layout) of any type along the
// plan and max_scratch_bytes the largest scratch of any step: either its
// *_scratch_bytes(...) (fast) or its *_min_scratch_bytes(...) (least memory),
// see below.
// The workspace is split into ping-pong buffers
//     A = [0, peak), B = [peak, 2*peak), scratch = [2*peak, 2*peak + max_scratch)
// and step i reads from one of A/B and writes to the other.  Source,
// destination and scratch of one call must not overlap (checked).
// The *_scratch_bytes functions below are constexpr so that a generator can
// evaluate them at compile time, or replicate their formula.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace redist {

inline constexpr int kMaxRank = 8;

enum class Errc {
  ok = 0,
  invalid_argument,  // bad rank/dim/element size/extents/group/table entry
  buffer_too_small,  // a (pointer, bytes) pair is shorter than the call needs
  mesh_mismatch,     // communicator size != mesh size, group not prepared
  overlap,           // source, destination and scratch overlap
  too_large,         // beyond the runtime's limits (2^40 bytes an array, INT_MAX devices)
  backend_error,     // the communication library reported an error
  remote_error,      // another rank of the group reported an error (see mpi.hpp)
};

// Result of every fallible call.  The ok status carries no message and never
// allocates; an error carries a one-line message naming what is wrong.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message) : code_(code), message_(std::move(message)) {}
  bool ok() const { return code_ == Errc::ok; }
  Errc code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Errc code_ = Errc::ok;
  std::string message_;
};

const char* errc_name(Errc code);

// Shape of a local array.  Entries of `extent` at positions >= ndim are
// ignored.  Valid when 1 <= ndim <= kMaxRank, every used extent >= 1 and
// elem_bytes is 1, 2, 4, 8 or 16 (see validate_layout).
struct Layout {
  int ndim;
  std::size_t extent[kMaxRank];
  std::size_t elem_bytes;
};

Status validate_layout(const Layout& layout);

constexpr std::size_t num_elements(const Layout& l) {
  std::size_t n = 1;
  for (int i = 0; i < l.ndim && i < kMaxRank; ++i) n *= l.extent[i];
  return n;
}

constexpr std::size_t bytes(const Layout& l) { return num_elements(l) * l.elem_bytes; }

// Product of the extents before `dim`: how many separate contiguous runs a
// chunk along `dim` consists of.  1 means chunks along `dim` are contiguous.
constexpr std::size_t outer_count(const Layout& l, int dim) {
  std::size_t n = 1;
  for (int i = 0; i < dim && i < l.ndim && i < kMaxRank; ++i) n *= l.extent[i];
  return n;
}

constexpr Layout with_extent(Layout l, int dim, std::size_t extent) {
  if (dim >= 0 && dim < kMaxRank) l.extent[dim] = extent;
  return l;
}

// A collective's group in rank space: the members of rank r's group are
// base + k*stride for k = 0..size-1, base = r - group_index(r)*stride, and
// member k is the device whose coordinate on the group's (sub-)axis is k.
// For mesh axis x, stride = product of the sizes of the axes after x; the
// sub-axis x_lo of x has x's stride, x_hi has stride(x) * |x_lo|.
// Valid for a mesh of P devices when stride >= 1, size >= 1 and
// stride * size divides P.
struct Group {
  int stride;
  int size;
};

// What determines a plan's data movement, as 64-bit digests that the
// planner computes (a generated header's kProblem, a C ABI plan's): the
// meshes with their axes and world ranks, the source and target layouts
// (pending axes and their operation too), the element type and its size,
// and the plan's steps with the version of redist that made them.  Every
// entry that starts collective work (Mesh::create, Exchange::create, the C
// ABI's bind) agrees on it over its communicator, so ranks running
// different problems fail together, naming what differs and on which
// ranks, instead of exchanging mismatched messages.  All zero: no problem
// stated (a mesh made by hand), which ranks must then pass alike too.
struct ProblemDigest {
  std::uint64_t meshes = 0;
  std::uint64_t layouts = 0;
  std::uint64_t element = 0;
  std::uint64_t plan = 0;
};

constexpr bool operator==(const ProblemDigest& a, const ProblemDigest& b) {
  return a.meshes == b.meshes && a.layouts == b.layouts && a.element == b.element && a.plan == b.plan;
}
constexpr bool operator!=(const ProblemDigest& a, const ProblemDigest& b) { return !(a == b); }

constexpr int group_index(int rank, Group g) { return (rank / g.stride) % g.size; }
constexpr int group_member(int rank, Group g, int k) {
  return rank - group_index(rank, g) * g.stride + k * g.stride;
}

// ---- result layouts -------------------------------------------------------
// dyn_slice(dim, parts): extent[dim] / parts.
constexpr Layout dyn_slice_out(const Layout& in, int dim, std::size_t parts) {
  return with_extent(in, dim, parts == 0 ? 0 : in.extent[dim] / parts);
}
// all_gather(dim) over a group of `size`: extent[dim] * size.
constexpr Layout all_gather_out(const Layout& in, int dim, std::size_t size) {
  return with_extent(in, dim, in.extent[dim] * size);
}
// all_to_all(s, t) over a group of `size`: extent[s] * size, extent[t] / size.
constexpr Layout all_to_all_out(const Layout& in, int s, int t, std::size_t size) {
  return with_extent(with_extent(in, s, in.extent[s] * size), t,
                     size == 0 ? 0 : in.extent[t] / size);
}

// ---- scratch each collective needs (bytes) --------------------------------
// all_gather and all_to_all have two paths, chosen by the scratch they get:
//   scratch >= *_scratch_bytes      out-of-place (faster: sequential copies)
//   scratch >= *_min_scratch_bytes  in place in the destination (a block
//                                   transpose; least memory)
// and fail with buffer_too_small below *_min_scratch_bytes.  A generator
// picks either per step and sizes the workspace with it.  For invalid
// arguments they return 0 and the collective reports the error.

// Bytes of one index step along `dim`: elem_bytes * product of later extents.
constexpr std::size_t inner_bytes(const Layout& l, int dim) {
  std::size_t n = l.elem_bytes;
  for (int i = dim + 1; i < l.ndim && i < kMaxRank; ++i) n *= l.extent[i];
  return n;
}

// Reordering a [rows][cols] matrix of `block`-byte blocks into [cols][rows]
// in place (local::transpose_blocks) needs one block of scratch plus one
// bit per block.
constexpr std::size_t transpose_scratch_bytes(std::size_t rows, std::size_t cols,
                                              std::size_t block) {
  return rows <= 1 || cols <= 1 ? 0 : block + (rows * cols + 7) / 8;
}

// dyn_slice is a strided copy from source to destination.
constexpr std::size_t dyn_slice_scratch_bytes(const Layout&, int, std::size_t) { return 0; }

// all_gather receives member-major ([k][whole local array]); that is already
// the result layout iff outer_count(in, dim) == 1 (e.g. dim 0).  Otherwise
// the blocks are received into scratch and interleaved into the destination.
constexpr std::size_t all_gather_scratch_bytes(const Layout& in, int dim, std::size_t size) {
  if (dim < 0 || dim >= in.ndim || size <= 1) return 0;
  return outer_count(in, dim) == 1 ? 0 : size * bytes(in);
}
// In place: receive into the destination, viewed as [k][outer][run] with
// run = extent[dim] * inner_bytes(in, dim), and reorder it to [outer][k][run].
constexpr std::size_t all_gather_min_scratch_bytes(const Layout& in, int dim, std::size_t size) {
  if (dim < 0 || dim >= in.ndim || size <= 1) return 0;
  return transpose_scratch_bytes(size, outer_count(in, dim), in.extent[dim] * inner_bytes(in, dim));
}

// all_to_all sends chunk j (cut along t) to member j and concatenates what
// it receives along s.  The send side needs packing iff chunks along t are
// not contiguous (outer_count(in, t) > 1); the receive side needs unpacking
// iff blocks along s of the result are not contiguous
// (outer_count(all_to_all_out(in, s, t, size), s) > 1).  Either or both
// need one local array of scratch: when both do, the destination itself
// holds the packed send buffer.
constexpr std::size_t all_to_all_scratch_bytes(const Layout& in, int s, int t, std::size_t size) {
  if (s < 0 || t < 0 || s >= in.ndim || t >= in.ndim || s == t || size <= 1) return 0;
  const bool pack = outer_count(in, t) > 1;
  const bool unpack = outer_count(all_to_all_out(in, s, t, size), s) > 1;
  return (pack || unpack) ? bytes(in) : 0;
}
// In place: pack into the destination, exchange there (MPI_Alltoall with
// MPI_IN_PLACE, which stages one chunk inside MPI), and reorder the
// received [k][outer][run] blocks to [outer][k][run], where outer and run
// describe one member's block in the result: run = in.extent[s] *
// inner_bytes(result, s).
constexpr std::size_t all_to_all_min_scratch_bytes(const Layout& in, int s, int t,
                                                   std::size_t size) {
  if (s < 0 || t < 0 || s >= in.ndim || t >= in.ndim || s == t || size <= 1) return 0;
  const Layout out = all_to_all_out(in, s, t, size);
  return transpose_scratch_bytes(size, outer_count(out, s), in.extent[s] * inner_bytes(out, s));
}

// all_permute sends the source and receives straight into the destination.
constexpr std::size_t all_permute_scratch_bytes(const Layout&) { return 0; }

}  // namespace redist
