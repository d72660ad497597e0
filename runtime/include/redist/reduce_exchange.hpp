// redist runtime, MPI backend: the reducing exchange (the model's
// Sumexchange.v): a global array held as pending sums over some axes of a
// source placed mesh moves to any block layout of the same global shape on
// a target placed mesh, itself possibly with pending axes, in one step,
// whatever the extents (ceil blocks) and the two meshes.
//
// Data movement (reducing_sources_to).  A target rank is designated when
// its coordinates on the target's pending axes are all 0 (every rank when
// the target has none).  A designated rank's target box is cut along the
// source blocks; each piece is read from the source device the direct
// exchange's spread rule names (the rank itself when its source box has the
// piece), and from every member of that device's group over the source's
// pending axes (devices differing only there, which hold the same box): the
// piece gets the sum of the members' values, added in ascending member order
// (local::reduce_blocks: integers exact, f16/bf16 in f32 rounded once).
// Other target ranks set their array to the operation's identity
// (local::fill_identity), so an avg target, whose members each hold the
// value, is refused.
//
// Staging: a designated rank receives member k's contribution into
// workspace array k (shaped like its target box; one MPI subarray datatype
// per message, no packing), copies its own, then adds the group-size arrays
// into the destination.  Workspace: reducing_exchange_workspace_bytes =
// group size * target box bytes (0 on the other ranks).  Messages: one per
// (piece, member on another rank), posted in piece order on both sides.
//
// run() allocates nothing and makes one small allreduce to agree on the
// buffer checks.  create() is collective over the world, as
// Exchange::create, and its cost is O(target devices * pieces) per rank.
//
// Single copy on a host, as Exchange's (exchange.hpp): a contribution whose
// sender's source array lies in a buffer of shared_alloc that the receiver
// shares is copied by the receiver straight into its workspace array, not
// sent; the sums are then added as before.
//
// Split phase, as Exchange's (exchange.hpp): run() is start() then wait();
// start() posts the messages and stages this rank's own contributions;
// the sums are added when the messages have arrived, by the wait() or the
// test() that sees them complete (in the same member order as run()).
// Until then src must stay untouched and neither dst nor the workspace be
// used.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/exchange.hpp"
#include "redist/reduce.hpp"

namespace redist {

constexpr std::size_t reducing_exchange_workspace_bytes(std::size_t group_size,
                                                        std::size_t target_elems,
                                                        std::size_t elem_bytes) {
  return group_size * target_elems * elem_bytes;
}

class ReducingExchange {
 public:
  using Peer = Exchange::Peer;

  ReducingExchange() = default;
  ReducingExchange(const ReducingExchange&) = delete;
  ReducingExchange& operator=(const ReducingExchange&) = delete;
  ReducingExchange(ReducingExchange&& other) noexcept;
  ReducingExchange& operator=(ReducingExchange&& other) noexcept;
  ~ReducingExchange();

  // Collective over `world`.  source_pending / target_pending: mesh axes of
  // the source / target mesh (each once, sharding no dimension).  Fails on
  // every rank alike as Exchange::create does, and for bad pending axes.
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const int* source_pending, int source_pending_count,
                       const PlacedMesh& target, const BlockLayout& target_layout,
                       const int* target_pending, int target_pending_count, Dtype dtype,
                       Op op, ReducingExchange* out);

  // Collective over the world.  src: this rank's contribution to its source
  // box (source_bytes()); dst: its target array (target_bytes());
  // workspace: workspace_bytes().  Null and 0 where a size is 0.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
             void* workspace, std::size_t workspace_bytes);

  // run() in two halves, with Exchange's rules (exchange.hpp).
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
               std::size_t workspace_bytes);
  Status test(bool* done);
  Status wait();

  const Box& source_box() const { return source_box_; }
  const Box& target_box() const { return target_box_; }
  std::size_t source_bytes() const { return box_elements(source_box_) * elem_bytes_; }
  std::size_t target_bytes() const { return box_elements(target_box_) * elem_bytes_; }
  std::size_t workspace_bytes() const {
    return designated_ ? reducing_exchange_workspace_bytes(group_size_, box_elements(target_box_),
                                                           elem_bytes_)
                       : 0;
  }
  bool designated() const { return designated_; }
  int group_size() const { return group_size_; }
  // Elements this rank receives from each other rank (summed over its
  // messages), and sends; in posting order, a rank once per message.
  const std::vector<Peer>& receives() const { return receives_; }
  const std::vector<Peer>& sends() const { return sends_; }
  // Of receives(), the elements the last start() (or run()) copied straight
  // out of peers' shared source arrays (single copy, as Exchange's); the
  // rest came by MPI.
  std::size_t direct_elements() const { return direct_elements_; }

 private:
  void release() noexcept;
  Status start_as(const char* what, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                  void* workspace, std::size_t workspace_bytes);
  // advance() and, when the messages arrived, the sums into dst.
  Status complete(bool block, const char* what);

  MPI_Comm comm_ = MPI_COMM_NULL;
  Dtype dtype_ = Dtype::u8;
  Op op_ = Op::sum;
  std::size_t elem_bytes_ = 0;
  int group_size_ = 1;
  bool designated_ = false;
  Box source_box_, target_box_;
  // Pieces of this rank's own contributions: (member index, region).
  struct Kept {
    int member;
    Box region;
  };
  std::vector<Kept> kept_;
  std::vector<Peer> receives_, sends_;
  std::vector<int> receive_slot_;    // member index of each receive
  std::vector<MPI_Datatype> types_;  // receives, then sends
  std::vector<MPI_Request> requests_;  // receives, sends, the host's barrier (single copy)
  SplitPhase split_;
  SingleCopy single_copy_;
  std::size_t direct_elements_ = 0;
  // The operation in flight's destination and staging arrays.
  void* dst_ = nullptr;
  unsigned char* staging_ = nullptr;
};

}  // namespace redist
