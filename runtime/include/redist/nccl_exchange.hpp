// The direct exchange on GPUs (the model's Part 2, docs/model.md; the MPI
// version is redist/exchange.hpp): moves a global array from a block layout
// on a source placed mesh to a block layout on a target placed mesh of the
// same world, with grouped ncclSend/ncclRecv.
//
// Each rank's boxes, peers and regions are computed by the same code as the
// MPI exchange's (the spread rule of the Coq model, only for the rank's own
// peers), so every element comes from the same holder and each rank
// receives exactly |target box \ source box| elements.  NCCL sends
// contiguous bytes, so each message is packed into, or unpacked from, a
// staging workspace by a strided copy kernel; the kept part is a copy
// kernel from source to destination.  World rank r is rank r of the NCCL
// communicator.
//
//     // From an NCCL communicator the caller set up (no MPI needed):
//     redist::nccl::Exchange ex;
//     if (auto st = redist::nccl::Exchange::create(comm, src_mesh, src_layout, tgt_mesh, tgt_layout,
//                                                  4, stream, &ex); !st.ok()) ...
//     void* ws;  cudaMalloc(&ws, ex.workspace_bytes());   // or the generated kWorkspaceBytes
//     // hot path: enqueues on `stream`, allocates nothing
//     st = ex.run(src, ex.source_bytes(), dst, ex.target_bytes(), ws, ex.workspace_bytes(), stream);
//
// Buffers are device memory of the calling thread's current device; run()
// only enqueues work on the stream it is given, and src, dst and the
// workspace must stay valid and untouched until the stream has passed it.
//
// Agreement (on by default): create() and run() are collective over the
// world; a rank's argument error is reported by every rank (remote_error on
// the others) instead of leaving them blocked inside NCCL.  Exchanges made
// from an MPI communicator agree with one small MPI_Allreduce on the host;
// exchanges made from an NCCL communicator alone agree with an ncclAllReduce
// of a few words on the stream, which run() then waits for
// (cudaStreamSynchronize): set_agreement(false) removes that wait and makes
// identical, valid arguments on every rank the caller's guarantee.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi_c.hpp"
#include "redist/nccl.hpp"
#include "redist/placed.hpp"
#include "redist/redist.hpp"

namespace redist::backend {
struct Agreed;
}

namespace redist::nccl {

namespace detail {

// The communication side that Exchange and ReducingExchange
// (nccl_reduce_exchange.hpp) share: the world's NCCL communicator (the
// caller's, or one bootstrapped over MPI and owned), its size and this rank,
// and agreement on verdicts and digests: over MPI when bootstrapped from it,
// else an ncclAllReduce of a few words on the given stream, waited for.
// Move-only; the destructor frees the agreement's device words and the owned
// communicator.  Default-constructed or moved-from: empty().
class Endpoint {
 public:
  Endpoint() = default;
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;
  Endpoint(Endpoint&& other) noexcept;
  Endpoint& operator=(Endpoint&& other) noexcept;
  ~Endpoint();

  // Over the caller's communicator (not owned).  Errors are prefixed `what`.
  static Status over(ncclComm_t comm, const char* what, Endpoint* out);
  // Over a communicator bootstrapped from `world` (owned), the ranks
  // agreeing on `problem` as Mesh::create does.  Collective.
  static Status over(MPI_Comm world, const char* what, Endpoint* out, const ProblemDigest& problem = {});

  // backend::agree (the runtime's internal agreement) over the ranks.
  Status agree(Status local, const char* what, const backend::Agreed* agreed, std::size_t count,
               cudaStream_t stream);

  bool empty() const { return comm_ == nullptr; }
  ncclComm_t comm() const { return comm_; }
  int size() const { return size_; }
  int rank() const { return rank_; }

 private:
  void release() noexcept;

  ncclComm_t comm_ = nullptr;
  Mesh owned_;  // the MPI-bootstrapped communicator, when made from MPI
  int size_ = 0, rank_ = 0;
  std::uint64_t* agree_device_ = nullptr;  // words of the NCCL agreement (device memory)
};

}  // namespace detail

// Move-only; a default-constructed or moved-from Exchange is empty and
// run() on it fails.  The destructor frees the few device words agreement
// uses and, for an exchange made from MPI, its NCCL communicator.
class Exchange {
 public:
  // A message of this rank: its peer, the region of global indices, and
  // where its bytes lie in the staging workspace.
  struct Message {
    int rank;
    Box region;
    std::size_t offset;
    std::size_t bytes;
  };

  Exchange() = default;
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;
  Exchange(Exchange&& other) noexcept;
  Exchange& operator=(Exchange&& other) noexcept;
  ~Exchange();

  // Over the caller's NCCL communicator (not owned; it must outlive the
  // exchange): world rank r is its rank r.  Collective; uses `stream` once
  // for agreement and waits for it.  Fails on every rank alike as
  // redist::Exchange::create does (invalid mesh or layout, different global
  // shapes, arguments that differ between ranks).
  static Status create(ncclComm_t comm, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout,
                       std::size_t elem_bytes, cudaStream_t stream, Exchange* out) {
    return create(comm, source, source_layout, target, target_layout, elem_bytes, ProblemDigest{}, stream, out);
  }
  // The same for one problem (a generated header's create_exchange): the
  // ranks also agree, in the same reduction, on `problem` (ProblemDigest).
  static Status create(ncclComm_t comm, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout, std::size_t elem_bytes,
                       const ProblemDigest& problem, cudaStream_t stream, Exchange* out);

  // Convenience: an NCCL communicator over `world` bootstrapped with MPI
  // (as Mesh::create does; owned), and agreement over MPI.  Collective over
  // `world`; must be destroyed before MPI_Finalize.
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout,
                       std::size_t elem_bytes, Exchange* out) {
    return create(world, source, source_layout, target, target_layout, elem_bytes, ProblemDigest{}, out);
  }
  // The same for one problem, agreed when NCCL is bootstrapped and again
  // with the layouts.
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout, std::size_t elem_bytes,
                       const ProblemDigest& problem, Exchange* out);

  // Collective over the world.  src: this rank's source local array
  // (source_bytes(), null/0 outside the source mesh); dst: its target local
  // array (target_bytes(), null/0 outside the target mesh); workspace:
  // workspace_bytes() (null/0 when that is 0).  Longer buffers are fine;
  // none may overlap another.  Enqueues on `stream`; nothing is enqueued
  // when an argument error is reported.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
             void* workspace, std::size_t workspace_bytes, cudaStream_t stream);

  void set_agreement(bool on) { agreement_ = on; }
  bool agreement() const { return agreement_; }

  const Box& source_box() const { return source_box_; }
  const Box& target_box() const { return target_box_; }
  std::size_t source_bytes() const { return box_elements(source_box_) * elem_bytes_; }
  std::size_t target_bytes() const { return box_elements(target_box_) * elem_bytes_; }
  // This rank's staging: every received region, then every sent one, back
  // to back in that order (exactly the bytes it receives plus those it
  // sends).
  std::size_t workspace_bytes() const { return workspace_bytes_; }
  const std::vector<Message>& receives() const { return receives_; }
  const std::vector<Message>& sends() const { return sends_; }
  // The region copied from this rank's own source array.
  const Box& kept() const { return kept_; }

 private:
  // Both create()s, once the endpoint is set: fills *out, agreed on every rank.
  Status build(const PlacedMesh& source, const BlockLayout& source_layout, const PlacedMesh& target,
               const BlockLayout& target_layout, std::size_t elem_bytes, const ProblemDigest& problem,
               cudaStream_t stream, Exchange* out);

  detail::Endpoint endpoint_;
  std::size_t elem_bytes_ = 0;
  Box source_box_, target_box_, kept_;
  std::vector<Message> receives_, sends_;
  std::size_t workspace_bytes_ = 0;
  bool agreement_ = true;
};

}  // namespace redist::nccl
