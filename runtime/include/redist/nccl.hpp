// redist runtime, NCCL/CUDA backend: the same collectives as mpi.hpp on
// device buffers.
//
// Usage (what generated code does; one GPU per rank, selected with
// cudaSetDevice before Mesh::create):
//
//     cudaStream_t stream;  cudaStreamCreate(&stream);
//     redist::nccl::Mesh mesh;
//     const int axes[] = {2, 4};
//     if (auto st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes, 2, stream, &mesh); !st.ok()) ...
//     const redist::Group groups[] = {{4, 2}, {1, 4}};
//     if (auto st = mesh.prepare(groups, 2); !st.ok()) ...   // once, collective
//     // hot path: straight-line calls, no allocation, no host synchronisation
//     st = redist::nccl::all_gather(mesh, {1, 4}, layout, 0, a, a_bytes, b, b_bytes, scratch, scratch_bytes);
//     ...
//     st = mesh.synchronize();   // waits for the stream, reports asynchronous errors
//
// Function names, parameter order, groups, layouts, result layouts and
// scratch sizes are those of the MPI backend (redist.hpp, mpi.hpp), so a plan
// runs on either backend with the same workspace; only the namespace
// (redist::nccl), Mesh::create's stream argument and the final
// synchronize() differ.
//
// Buffers are device memory of the mesh's device (cudaMalloc,
// cudaMallocManaged or ncclMemAlloc); src, dst and scratch of one call must
// not overlap (checked).  Every call only enqueues work on the mesh's
// stream: the buffers must stay valid and untouched by other streams until
// the stream has passed that work (e.g. until synchronize()).  An error in
// a kernel or in NCCL's asynchronous progress is reported by synchronize().
//
// Collective calls and agreement are as in mpi.hpp: every rank makes the
// same sequence of calls with the same groups, layouts, dims and tables.
// Argument errors are checked on the host before anything is enqueued; with
// agreement on (the default) the ranks combine their verdicts and compare
// those arguments with one small MPI allreduce on the host (mesh
// communicator), so that an error one rank detects, or an argument that
// differs on one rank, makes every rank return an error instead of leaving
// the others blocked inside NCCL.  dyn_slice never communicates.
//
// Errors: argument errors as in the MPI backend; a failing CUDA or NCCL call
// returns backend_error naming the call and the library's error string.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/geometry.hpp"
#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

// ---- device kernels ----------------------------------------------------------
// The local kernels of local.hpp on device buffers, enqueued on `stream`:
// same arguments, same checks and messages, same results byte for byte.
// They copy the longest contiguous run with the widest of 16-, 8-, 4-, 2-
// or 1-byte loads and stores that the run length, the strides and both
// pointers' alignment allow; consecutive threads write consecutive
// destination words.
namespace redist::cuda {

Status slice(const Layout& src_layout, int dim, std::size_t parts, std::size_t index,
             const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
             cudaStream_t stream);

Status pack_chunks(const Layout& src_layout, int dim, std::size_t parts, const void* src,
                   std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream);

Status concat_blocks(const Layout& block_layout, int dim, std::size_t parts, const void* src,
                     std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream);

}  // namespace redist::cuda

namespace redist::backend {
struct AgreeOver;
}

namespace redist::nccl {

// A mesh of devices: one rank per GPU.  Owns a duplicate of the MPI
// communicator, an NCCL communicator over all ranks (created with
// ncclCommInitRank from an id broadcast over MPI), and per prepared group an
// NCCL sub-communicator (ncclCommSplit of the mesh's); agreement runs on the
// MPI communicator.  The stream belongs to the caller and must outlive the
// mesh's use.  Move-only; the destructor destroys the NCCL communicators and
// frees the MPI one (the mesh must be destroyed before MPI_Finalize to free
// it).  A
// moved-from or default-constructed Mesh is empty and every call on it
// fails with invalid_argument.
class Mesh : public MeshGeometry {
 public:
  Mesh() = default;
  Mesh(const Mesh&) = delete;
  Mesh& operator=(const Mesh&) = delete;
  Mesh(Mesh&& other) noexcept;
  Mesh& operator=(Mesh&& other) noexcept;
  ~Mesh();

  // Collective over `comm`.  Uses the calling thread's current CUDA device
  // (set it before).  Fails if comm is MPI_COMM_NULL, naxes is not in
  // 1..kMaxRank, an axis size is < 1, the communicator size differs from the
  // product of the axis sizes, there is no CUDA device, or NCCL fails.
  static Status create(MPI_Comm comm, const int* axis_sizes, int naxes, cudaStream_t stream,
                       Mesh* out) {
    return create(comm, axis_sizes, naxes, ProblemDigest{}, stream, out);
  }
  // The same for one problem, agreed as by redist::Mesh::create (mpi.hpp).
  static Status create(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                       cudaStream_t stream, Mesh* out);

  // Over an NCCL communicator the caller already has (not owned: it must
  // outlive the mesh; no MPI needed): mesh position r is its rank r.
  // Collective over `comm`.  Agreement (of create, prepare and, when on,
  // of every collective) is an ncclAllReduce of a few 64-bit words on the
  // mesh's stream followed by a wait for that stream; set_agreement(false)
  // removes it from the collectives.  comm() is MPI_COMM_NULL.
  static Status create(ncclComm_t comm, const int* axis_sizes, int naxes, cudaStream_t stream,
                       Mesh* out) {
    return create(comm, axis_sizes, naxes, ProblemDigest{}, stream, out);
  }
  static Status create(ncclComm_t comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                       cudaStream_t stream, Mesh* out);

  // Splits and caches the communicators of every group in the list
  // (cached ones and groups of size 1 are skipped).  Collective over the
  // mesh: every rank passes the same list; invalid groups and lists that
  // differ between ranks fail on every rank.
  Status prepare(const Group* groups, std::size_t count);

  // As redist::Mesh::set_agreement (mpi.hpp), with the same contract when off.
  void set_agreement(bool on) { agreement_ = on; }
  bool agreement() const { return agreement_; }

  // size(), rank(), axis sizes, coordinates, index_in(g) and check_group(g)
  // come from MeshGeometry (geometry.hpp), as for redist::Mesh.
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  // The stream later calls enqueue on (the caller's; a stream per call is
  // this before each call).
  void set_stream(cudaStream_t stream) { stream_ = stream; }
  MPI_Comm comm() const { return comm_; }
  ncclComm_t nccl_comm() const { return nccl_; }

  // The cached NCCL communicator of a prepared group of size > 1 (member k
  // is its rank k).  mesh_mismatch if g was not prepared.
  Status group_comm(Group g, ncclComm_t* out) const;

  // Waits for everything enqueued on the stream; reports a CUDA error or an
  // asynchronous NCCL error of any of the mesh's communicators.
  Status synchronize() const;

 private:
  struct Cached {
    Group group;
    ncclComm_t nccl;
  };
  void release() noexcept;
  // Where the mesh's ranks agree: its MPI communicator, else NCCL.
  friend backend::AgreeOver agree_over(const Mesh& mesh);
  static Status reduce_over_nccl(const void* mesh, std::uint64_t* words, std::size_t n);

  MPI_Comm comm_ = MPI_COMM_NULL;
  ncclComm_t nccl_ = nullptr;
  bool owns_nccl_ = true;
  std::uint64_t* agree_device_ = nullptr;  // words of the NCCL agreement (device memory), made without MPI
  cudaStream_t stream_ = nullptr;
  int device_ = -1;
  bool agreement_ = true;
  std::vector<Cached> groups_;
};

// The collectives, as in mpi.hpp (see there for the data movement), on
// device buffers, enqueued on mesh.stream().

Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                 std::size_t src_bytes, void* dst, std::size_t dst_bytes);

// ncclAllGather; when outer_count(layout, dim) > 1 into scratch, then an
// unpack kernel.  Scratch: all_gather_scratch_bytes(layout, dim, g.size).
Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes);

// Pack kernel if needed, grouped ncclSend/ncclRecv (the own chunk is a
// device copy), unpack kernel if needed.
// Scratch: all_to_all_scratch_bytes(layout, s, t, g.size).
Status all_to_all(const Mesh& mesh, Group g, const Layout& layout, int s, int t,
                  const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                  void* scratch, std::size_t scratch_bytes);

// The entry check of a generated run(), as redist::check_run (mpi.hpp);
// the buffers are device memory, checked on the host only for null, size
// and overlap.
Status check_run(const Mesh& mesh, const char* what, const ProblemDigest& problem, int devices,
                 const void* src,
                 std::size_t src_bytes, std::size_t src_need, const void* dst,
                 std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                 std::size_t workspace_bytes, std::size_t workspace_need);

// Grouped ncclSend/ncclRecv on the mesh communicator from the table
// recv_from (mesh.size() entries); a rank that receives from itself copies
// on the device.  No scratch.
Status all_permute(const Mesh& mesh, const int* recv_from, std::size_t table_len,
                   const Layout& layout, const void* src, std::size_t src_bytes, void* dst,
                   std::size_t dst_bytes);

}  // namespace redist::nccl
