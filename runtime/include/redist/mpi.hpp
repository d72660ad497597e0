// redist runtime, MPI backend.
//
// Usage (what generated code does):
//
//     redist::Mesh mesh;
//     const int axes[] = {2, 4};
//     if (auto st = redist::Mesh::create(MPI_COMM_WORLD, axes, 2, &mesh); !st.ok()) ...
//     const redist::Group groups[] = {{4, 2}, {1, 4}};
//     if (auto st = mesh.prepare(groups, 2); !st.ok()) ...   // once, collective
//     // hot path: straight-line calls, no allocation
//     st = redist::all_gather(mesh, {1, 4}, layout, 0, a, a_bytes, b, b_bytes, scratch, scratch_bytes);
//
// Collective calls and agreement.  Every rank of the mesh must make the same
// sequence of calls (create, prepare, all_permute, check_run, and
// all_gather / all_to_all, each rank over its own instance of the group)
// with the same group, layout, dims, table and group list; only the buffers
// differ.  Each call first checks its arguments locally.  With agreement on
// (the default, see Mesh::set_agreement), the ranks then combine their
// verdicts and compare those arguments with one small allreduce on the mesh
// communicator before moving data: an error one rank detects (e.g. only its
// buffer is too short) makes every rank return an error (remote_error on the
// others), and an argument that differs on one rank is invalid_argument on
// every rank, never a hang or a wrong result.  With agreement off, the
// caller guarantees identical arguments and buffers that pass the checks on
// every rank; a violation is undefined (a hang, or wrong data).
// dyn_slice never communicates and is not agreed.
//
// MPI errors on the runtime's communicators are returned (MPI_ERRORS_RETURN)
// as backend_error with MPI's message.  A message (a whole local array for
// all_gather and all_permute, one chunk for all_to_all) may have any size the
// layout allows: above 1 GiB it travels as one element of a derived datatype
// (1 GiB blocks and a remainder), since MPI counts are ints.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/geometry.hpp"
#include "redist/local.hpp"
#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

namespace redist {

// A mesh of devices over an MPI communicator.  Owns a duplicate of the
// communicator and the sub-communicators of its prepared groups, and frees
// them in its destructor (which must run before MPI_Finalize).  Move-only;
// a moved-from or default-constructed Mesh is empty (size() == 0) and every
// call on it fails with invalid_argument.
class Mesh : public MeshGeometry {
 public:
  Mesh() = default;
  Mesh(const Mesh&) = delete;
  Mesh& operator=(const Mesh&) = delete;
  Mesh(Mesh&& other) noexcept;
  Mesh& operator=(Mesh&& other) noexcept;
  ~Mesh();

  // Collective over `comm`.  Fails if comm is MPI_COMM_NULL, and on every
  // rank (always agreed) if on any rank naxes is not in 1..kMaxRank, an axis
  // size is < 1, the communicator size differs from the product of the axis
  // sizes, or the ranks pass different axis sizes.
  static Status create(MPI_Comm comm, const int* axis_sizes, int naxes, Mesh* out) {
    return create(comm, axis_sizes, naxes, ProblemDigest{}, out);
  }
  // The same for one problem (a generated header's create_mesh): the ranks
  // also agree, in the same allreduce, on `problem` (see ProblemDigest),
  // and fail alike, naming what differs and on which ranks, if it differs.
  static Status create(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                       Mesh* out);

  // Creates and caches the sub-communicator of every group in the list
  // (already cached ones and groups of size 1 are skipped).  Collective over
  // the mesh: every rank passes the same list.  Invalid groups, and lists
  // that differ between ranks, fail on every rank (always agreed, whatever
  // set_agreement says).
  Status prepare(const Group* groups, std::size_t count);

  // Whether collectives and check_run agree on verdicts and arguments before
  // moving data (default true; costs one allreduce of a few 64-bit words on
  // the mesh communicator per call, measured in runtime/README.md).  Off:
  // the caller guarantees identical arguments on every rank, and buffers
  // that pass the checks on every rank; a mismatch is then undefined (a
  // hang or wrong data).
  void set_agreement(bool on) { agreement_ = on; }
  bool agreement() const { return agreement_; }

  // size(), rank(), axis sizes, coordinates, index_in(g) and check_group(g)
  // come from MeshGeometry (geometry.hpp).
  MPI_Comm comm() const { return comm_; }

  // The cached communicator of g (rank k in it is member k).  Fails with
  // mesh_mismatch if g was not prepared.  Does not allocate.
  Status group_comm(Group g, MPI_Comm* out) const;

 private:
  struct Cached {
    Group group;
    MPI_Comm comm;
  };
  void release() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool agreement_ = true;
  std::vector<Cached> groups_;
};

// All collectives: `layout` is the calling device's source layout; src /
// dst / scratch are (pointer, bytes) pairs, each at least as long as the call
// needs (longer is fine: only the prefix is used).  The destination gets the
// result layout named below.  On any error but backend_error nothing has
// been written to dst or scratch (all checks precede the data movement).

// Keeps chunk index_in(g) of g.size equal chunks along `dim`
// (dst layout dyn_slice_out(layout, dim, g.size)).  g.size must divide
// extent[dim].  Local: no communication, no prepare needed.
Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim,
                 const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

// dst = concatenation along `dim` of the members' src, k = 0..g.size-1
// (dst layout all_gather_out(layout, dim, g.size)).
// Scratch: all_gather_scratch_bytes(layout, dim, g.size) or more takes the
// out-of-place path; all_gather_min_scratch_bytes(...) or more the in-place
// one (see redist.hpp).  All members should pass the same amount (the path
// is chosen per rank, so mixing is correct, only uneven in speed).
Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim,
                  const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                  void* scratch, std::size_t scratch_bytes);

// Member k cuts src along t into g.size equal chunks and sends chunk j to
// member j; dst is the concatenation along s of the chunks received, in
// order of k (dst layout all_to_all_out(layout, s, t, g.size)).
// s != t; g.size must divide extent[t].
// Scratch: all_to_all_scratch_bytes(layout, s, t, g.size) or more takes the
// out-of-place path; all_to_all_min_scratch_bytes(...) or more the in-place
// one (see redist.hpp).  All members must take the same path (pass the same
// amount): MPI requires MPI_IN_PLACE on all members or none.
Status all_to_all(const Mesh& mesh, Group g, const Layout& layout, int s, int t,
                  const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                  void* scratch, std::size_t scratch_bytes);

// The entry check of a generated run(), called once before its first step:
// the mesh has `devices` devices, and src, dst and workspace are non-null
// (where their need is > 0), at least src_need, dst_need and workspace_need
// bytes long, and pairwise disjoint.  Collective over the mesh: with
// agreement on, the verdict, the plan's problem and the three needs are
// agreed with one allreduce (ranks running different plans fail alike), so that a rank whose
// buffer is short makes every rank return (remote_error on the others).
// `what` names the caller in messages, e.g. "my_plan::run".
Status check_run(const Mesh& mesh, const char* what, const ProblemDigest& problem, int devices,
                 const void* src,
                 std::size_t src_bytes, std::size_t src_need, const void* dst,
                 std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                 std::size_t workspace_bytes, std::size_t workspace_need);

// Collective over comm: every rank passes the same problem, or every rank
// fails alike (invalid_argument naming what differs and on which ranks).
// One allreduce of the shape every agreement has, so that a rank here and a
// rank in another header's Mesh::create or Exchange::create fail together
// instead of waiting.  A generated hybrid's create() calls it first.
Status agree_problem(MPI_Comm comm, const ProblemDigest& problem, const char* what);

// recv_from has mesh.size() entries; rank r's dst becomes a copy of rank
// recv_from[r]'s src (same layout on every rank).  A rank that receives from
// itself copies locally.  Uses nonblocking point-to-point on the mesh
// communicator; every rank must call it with the same table.  No scratch.
Status all_permute(const Mesh& mesh, const int* recv_from, std::size_t table_len,
                   const Layout& layout, const void* src, std::size_t src_bytes,
                   void* dst, std::size_t dst_bytes);

}  // namespace redist
