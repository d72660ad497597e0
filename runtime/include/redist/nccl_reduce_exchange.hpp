// The reducing exchange on GPUs (the model's Sumexchange.v; the MPI version
// is redist/reduce_exchange.hpp): a global array held as pending sums over
// some axes of a source placed mesh moves to any block layout of the same
// global shape on a target placed mesh, itself possibly with pending axes,
// in one step, whatever the extents and the two meshes; with grouped
// ncclSend/ncclRecv.
//
// Data movement: that of the MPI version, computed by the same code (each
// rank's contributions and peers, internal/reducing_peers.hpp), so every
// target element gets the same contributions from the same ranks.  A
// designated target rank (pending coordinates 0 on the target mesh) gathers
// the contribution of every member of the source group into member array k
// of its workspace (shaped like its target box), then a reduction kernel
// combines the group-size arrays element by element by the operation, in
// ascending member order, into the destination: integers wrap,
// f32/f64/c64/c128 combine in their own type, f16 and bf16 in f32 rounded
// once to nearest even, max and min keep a NaN, complex products are
// (ac-bd) + (ad+bc)i, avg is the sum then one division by the group size;
// the same order and arithmetic as the MPI backend's local::reduce_blocks,
// so a plan gives the same bits run after run.  Other target ranks set
// their array to the operation's identity (an avg target, whose members each
// hold the value, is refused as by the MPI version).  Every element type
// has every operation op_computes allows (NCCL only moves bytes).
//
// Workspace, this rank's: the member arrays (group size * target box bytes,
// designated ranks only), then every received region, then every sent one,
// back to back (NCCL sends contiguous bytes: a copy kernel packs and
// unpacks).  The generated header's kWorkspaceBytes is the largest over the
// ranks, from the Coq model (Lowernccl.v, nccl_reducing_workspace_bytes).
//
//     redist::nccl::ReducingExchange ex;
//     if (auto st = redist::nccl::ReducingExchange::create(comm, src_mesh, src_layout, src_pending, 1,
//                                                          tgt_mesh, tgt_layout, nullptr, 0,
//                                                          redist::Dtype::f32, redist::Op::sum, stream, &ex);
//         !st.ok()) ...
//     void* ws;  cudaMalloc(&ws, ex.workspace_bytes());
//     // hot path: enqueues on the stream it is given, allocates nothing
//     st = ex.run(src, ex.source_bytes(), dst, ex.target_bytes(), ws, ex.workspace_bytes(), stream);
//
// Buffers, streams and agreement as for redist::nccl::Exchange
// (nccl_exchange.hpp).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <vector>

#include "redist/nccl_exchange.hpp"
#include "redist/reduce.hpp"

namespace redist::nccl {

// Move-only; a default-constructed or moved-from ReducingExchange is empty
// and run() on it fails.
class ReducingExchange {
 public:
  // A message of this rank: its peer, the region of global indices, where
  // its bytes lie in the workspace, and (receives) the member array it is
  // unpacked into.
  struct Message {
    int rank;
    int member;
    Box region;
    std::size_t offset;
    std::size_t bytes;
  };
  // A region of this rank's own source array copied into member array `member`.
  struct Kept {
    int member;
    Box region;
  };

  ReducingExchange() = default;
  ReducingExchange(const ReducingExchange&) = delete;
  ReducingExchange& operator=(const ReducingExchange&) = delete;
  ReducingExchange(ReducingExchange&& other) noexcept;
  ReducingExchange& operator=(ReducingExchange&& other) noexcept;
  ~ReducingExchange();

  // Over the caller's NCCL communicator (not owned): world rank r is its
  // rank r.  source_pending / target_pending: mesh axes of the source /
  // target mesh (each once, sharding no dimension).  Collective; uses
  // `stream` once for agreement and waits for it.  Fails on every rank alike
  // as redist::ReducingExchange::create does.
  static Status create(ncclComm_t comm, const PlacedMesh& source, const BlockLayout& source_layout,
                       const int* source_pending, int source_pending_count, const PlacedMesh& target,
                       const BlockLayout& target_layout, const int* target_pending,
                       int target_pending_count, Dtype dtype, Op op, cudaStream_t stream, ReducingExchange* out);

  // Convenience: over an NCCL communicator bootstrapped from `world` with
  // MPI (owned), agreement over MPI.  Must be destroyed before MPI_Finalize.
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const int* source_pending, int source_pending_count, const PlacedMesh& target,
                       const BlockLayout& target_layout, const int* target_pending,
                       int target_pending_count, Dtype dtype, Op op, ReducingExchange* out);

  // Collective over the world.  src: this rank's contribution to its source
  // box (source_bytes()); dst: its target array (target_bytes());
  // workspace: workspace_bytes().  Null and 0 where a size is 0; none may
  // overlap another.  Enqueues on `stream`, nothing when an argument error
  // is reported.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
             void* workspace, std::size_t workspace_bytes, cudaStream_t stream);

  void set_agreement(bool on) { agreement_ = on; }
  bool agreement() const { return agreement_; }

  const Box& source_box() const { return source_box_; }
  const Box& target_box() const { return target_box_; }
  std::size_t source_bytes() const { return box_elements(source_box_) * elem_bytes_; }
  std::size_t target_bytes() const { return box_elements(target_box_) * elem_bytes_; }
  std::size_t workspace_bytes() const { return workspace_bytes_; }
  // The member arrays' bytes at the start of the workspace (0 unless designated).
  std::size_t member_arrays_bytes() const { return member_arrays_bytes_; }
  bool designated() const { return designated_; }
  int group_size() const { return group_size_; }
  const std::vector<Message>& receives() const { return receives_; }
  const std::vector<Message>& sends() const { return sends_; }
  const std::vector<Kept>& kept() const { return kept_; }

 private:
  // Both create()s, once the endpoint is set: fills *out, agreed on every rank.
  Status build(const PlacedMesh& source, const BlockLayout& source_layout, const int* source_pending,
               int source_pending_count, const PlacedMesh& target, const BlockLayout& target_layout,
               const int* target_pending, int target_pending_count, Dtype dtype, Op op, cudaStream_t stream,
               ReducingExchange* out);

  detail::Endpoint endpoint_;
  Dtype dtype_ = Dtype::u8;
  Op op_ = Op::sum;
  std::size_t elem_bytes_ = 0;
  int group_size_ = 1;
  bool designated_ = false;
  Box source_box_, target_box_;
  std::vector<Kept> kept_;
  std::vector<Message> receives_, sends_;
  std::size_t member_arrays_bytes_ = 0, workspace_bytes_ = 0;
  bool agreement_ = true;
};

}  // namespace redist::nccl
