// Internal to the runtime (not installed): the host side that the MPI and
// the NCCL backend share, so that both check the same arguments in the same
// order, report them with the same messages, and agree on verdicts with the
// same MPI calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "redist/geometry.hpp"
#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"
#include "redist/reduce.hpp"

namespace redist::backend {

// backend_error with MPI's message, or ok for MPI_SUCCESS.
Status mpi_status(int rc, const char* what);

// Names the operation in front of a message that does not.
Status prefixed(const char* what, Status st);

Status check_empty(const MeshGeometry& mesh, const char* what);

// The common part of Mesh::create: checks the arguments and the
// communicator's size, agrees on the verdict, the axis sizes and the
// problem over `comm`, then duplicates `comm` into *dup (its errors
// returned, not fatal) and sets *rank to this process's rank in it.
Status open_mesh(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                 const void* out, MPI_Comm* dup, int* rank);

// One argument that every member of a call must pass alike, reduced to 64
// bits (exactly where it fits, else hashed), and what to report when the
// members' values differ (e.g. "members passed different layouts").
struct Agreed {
  std::uint64_t value;
  const char* differ;
};

// The most Agreed values one call may pass to agree().
inline constexpr std::size_t kMaxAgreed = 6;

// The values of a ProblemDigest, in agree()'s form: each names what differs.
// Every entry that agrees on a problem passes them first, so that ranks at
// different entries (one creating a mesh, another an exchange) find the
// same first difference and report it alike.
inline constexpr std::size_t kProblemAgreed = 4;
void agreed_problem(const ProblemDigest& problem, Agreed out[kProblemAgreed]);

// The digest h extended by v (order matters), and the 64-bit digest of n
// ints (a permutation table, a group list).
std::uint64_t combine_key(std::uint64_t h, std::uint64_t v);
std::uint64_t ints_key(const int* values, std::size_t n);

// Mesh::create's local checks on a communicator of comm_size ranks (the
// output pointer, the axes, the size), and the value every rank must pass
// alike (its axis sizes), for agree().
Status check_mesh_args(int comm_size, const int* axis_sizes, int naxes, const void* out,
                       Agreed* agreed);

// Where the ranks reduce agreement words: an MPI communicator (implicitly,
// from an MPI_Comm), or a backend's own elementwise-minimum allreduce of
// 64-bit words over its ranks (for a mesh made without MPI), called with
// `context`.
struct AgreeOver {
  using ReduceMin = Status (*)(const void* context, std::uint64_t* words, std::size_t n);
  AgreeOver(MPI_Comm c) : comm(c) {}  // implicit: every MPI caller passes its communicator
  AgreeOver(ReduceMin fn, const void* ctx) : reduce_min(fn), context(ctx) {}
  MPI_Comm comm = MPI_COMM_NULL;
  ReduceMin reduce_min = nullptr;
  const void* context = nullptr;
};

// Combines the local verdict of every rank of `comm` and checks that every
// rank passed the same `agreed` values (at most kMaxAgreed), in one
// allreduce: returns the local error if there is one, remote_error if only
// another rank failed, and invalid_argument naming the first value that
// differs between ranks.  The values of a rank with an error are ignored.
// Every call reduces the same number of words (unused slots are 0), so that
// ranks at different agreements fail alike.  Only when values differ
// (every rank sees that alike) does a second call,
// an allgather of that value over an MPI communicator, name the ranks whose
// value differs from rank 0's.
Status agree(AgreeOver comm, Status local, const char* what, const Agreed* agreed = nullptr,
             std::size_t count = 0);
// The words every agree() reduces, whatever its count.
inline constexpr std::size_t kMaxAgreedWords = 1 + 2 * kMaxAgreed;

// A call's verdict: `local` (its argument checks, whose messages do not
// name it) prefixed with `what`, and agreed over `comm` (see agree) when
// `on`: the mesh has more than one device and agreement is on.
template <std::size_t N>
Status verdict(Status local, const char* what, bool on, AgreeOver comm, const Agreed (&agreed)[N]) {
  static_assert(N <= kMaxAgreed, "agree() takes at most kMaxAgreed values");
  local = prefixed(what, std::move(local));
  return on ? agree(comm, std::move(local), what, agreed, N) : local;
}

// The values every group collective agrees on besides its own: the group
// and the layout.
Agreed agreed_group(Group g);
Agreed agreed_layout(const Layout& layout);
// all_gather's dim (t = 0), or all_to_all's source and target dims.
Agreed agreed_dims(int s, int t = 0);

// The checks of Mesh::prepare before any split: the list is valid on this
// rank, and every rank of `comm` passed a valid list, the same one.
// The verdict is always agreed, whatever the mesh's agreement setting.
Status agree_group_list(const MeshGeometry& mesh, AgreeOver comm, const Group* groups,
                        std::size_t count);

// The entry check of a generated run() (see check_run in mpi.hpp), over the
// mesh communicator `comm`, agreeing on `problem` too.
Status check_run(const MeshGeometry& mesh, AgreeOver comm, bool agreement, const char* what,
                 const ProblemDigest& problem, int devices, const void* src, std::size_t src_bytes, std::size_t src_need,
                 const void* dst, std::size_t dst_bytes, std::size_t dst_need,
                 const void* workspace, std::size_t workspace_bytes, std::size_t workspace_need);

// The MPI sub-communicator of rank's group g (member k is its rank k), with
// errors returned.
Status split_group(MPI_Comm comm, int rank, Group g, MPI_Comm* out);

// The entry of g in a mesh's cache of prepared groups (elements with a
// `group` member), or null.
template <class Cached>
const Cached* find_prepared(const std::vector<Cached>& cached, Group g) {
  for (const Cached& c : cached)
    if (c.group.stride == g.stride && c.group.size == g.size) return &c;
  return nullptr;
}

// Mesh::prepare over the mesh communicator `comm`: agrees on the list, then
// for every group of size > 1 not yet in `cached`, in list order, calls
// add(g), which creates the backend's communicator of g (a collective call
// on every rank) and caches it.  Stops at the first error.
template <class Cached, class Add>
Status prepare_groups(const MeshGeometry& mesh, AgreeOver comm, const Group* groups,
                      std::size_t count, const std::vector<Cached>& cached, Add add) {
  if (Status st = check_empty(mesh, "Mesh::prepare"); !st.ok()) return st;
  if (Status st = agree_group_list(mesh, comm, groups, count); !st.ok()) return st;
  for (std::size_t i = 0; i < count; ++i) {
    const Group g = groups[i];
    if (g.size == 1 || find_prepared(cached, g) != nullptr) continue;
    if (Status st = add(g); !st.ok()) return st;
  }
  return {};
}

// mesh_mismatch: the collective's group was not passed to Mesh::prepare.
Status not_prepared(Group g);

// Checks shared by every collective over a group: the mesh is not empty
// and g is one of its groups.
Status check_collective(const MeshGeometry& mesh, Group g, const char* what);

// too_large if one message of `bytes` exceeds the backend's `max_message`.
Status check_count(std::size_t bytes, std::size_t max_message);

// Sizes, then pairwise disjointness of the bytes a call uses in its three
// buffers (messages name "source", "destination" or "scratch").
Status check_buffers(const void* src, std::size_t src_bytes, std::size_t src_need, void* dst,
                     std::size_t dst_bytes, std::size_t dst_need, void* scratch,
                     std::size_t scratch_bytes, std::size_t scratch_need);

// The argument checks of the collectives, messages without the operation's
// name.  need_scratch is the scratch the chosen path uses; max_message the
// largest single message the backend can send.
Status check_all_gather(const Layout& layout, int dim, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch,
                        std::size_t max_message);
Status check_all_to_all(const Layout& layout, int s, int t, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch,
                        std::size_t max_message);
// The reductions' element type and operation, which members must pass alike.
Agreed agreed_reduction(Dtype dtype, Op op);

// The argument checks of reduce_scatter and all_reduce on both backends,
// messages without the operation's name: the layout, its element size
// against the type's, the operation (one the runtime computes on the type), the dim and the group size dividing it
// (reduce_scatter), one message (total / size for reduce_scatter, the
// larger of all_reduce's piece and tail) within max_message, and the
// buffers (need_scratch: what the backend's path uses).
Status check_reduce_scatter(const Layout& layout, int dim, std::size_t size, Dtype dtype, Op op,
                            const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                            void* scratch, std::size_t scratch_bytes, std::size_t need_scratch,
                            std::size_t max_message);
Status check_all_reduce(const Layout& layout, std::size_t size, Dtype dtype, Op op, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch, std::size_t max_message);

// Everything all_permute checks before moving data, messages prefixed and
// verdict agreed over the mesh communicator `comm` when `agreement` is on.
// On success *total is the bytes of one local array.
Status check_all_permute(const MeshGeometry& mesh, AgreeOver comm, bool agreement,
                         const int* recv_from, std::size_t table_len, const Layout& layout,
                         const void* src, std::size_t src_bytes, void* dst,
                         std::size_t dst_bytes, std::size_t max_message, std::size_t* total);

}  // namespace redist::backend
