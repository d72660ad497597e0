// Internal to the runtime (not installed): the host side of the reducing
// exchange that the MPI backend (reduce_exchange.cpp) and the NCCL backend
// (nccl/reduce_exchange.cpp) share: the pending axes' checks, the digest
// ranks compare, and the one computation of a rank's contributions and
// peers (the model's reducing_sources_to; see redist/reduce_exchange.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "internal/exchange_peers.hpp"
#include "redist/placed.hpp"
#include "redist/redist.hpp"
#include "redist/reduce.hpp"

namespace redist::backend {

// The pending axes of one side: valid axes of its mesh, each once, sharding
// no dimension of its layout.  `what` names the side ("source").
Status check_pending(const PlacedMesh& mesh, const BlockLayout& layout, const int* axes, int count,
                     const char* what);

// The operation of a reducing exchange: one the element type has
// (op_computes), and not avg toward pending axes (an avg target's members
// each hold the value; the reducing exchange leaves it on one member).
Status check_reducing_op(Dtype dtype, Op op, int target_pending_count);

// A region of this rank's target box that member `member` (0-based, in the
// model's ascending member order) of the source group holding it
// contributes, from world rank `rank`.
struct Contribution {
  int rank;
  int member;
  Box region;
};

// What one rank of the world does in the reducing exchange.
struct ReducingPeers {
  Box source_box, target_box;  // its boxes (empty outside the mesh)
  int group_size = 1;          // members of a source pending group
  bool designated = false;     // in the target mesh, pending coordinates all 0
  std::vector<Contribution> kept;      // from its own source array (rank = itself)
  std::vector<Contribution> receives;  // from other ranks, in posting order
  std::vector<Box> holder_boxes;       // each receive's sender's source box
  std::vector<Transfer> sends;         // to other ranks, in posting order
};

// World rank `me`'s part.  Arguments must have passed validate_exchange and
// check_pending on both sides.  Messages between one pair of ranks follow
// each other in piece order on both sides.
ReducingPeers reducing_peers(int me, int world_size, const PlacedMesh& source,
                             const BlockLayout& source_layout, const int* source_pending,
                             int source_pending_count, const PlacedMesh& target,
                             const BlockLayout& target_layout, const int* target_pending,
                             int target_pending_count);

// A digest of the arguments, which every rank must pass alike.
std::uint64_t reducing_digest(const PlacedMesh& source, const BlockLayout& source_layout,
                              const int* source_pending, int source_pending_count,
                              const PlacedMesh& target, const BlockLayout& target_layout,
                              const int* target_pending, int target_pending_count, Dtype dtype);

}  // namespace redist::backend
