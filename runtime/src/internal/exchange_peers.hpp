// Internal to the runtime (not installed): the host side of the direct
// exchange that the MPI backend (exchange.cpp) and the NCCL backend
// (nccl/exchange.cpp) share: argument checks, the digest ranks compare, and
// the one computation of a rank's boxes and peers (the spread rule of the
// Coq model, per box intersection; see redist/exchange.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/placed.hpp"
#include "redist/redist.hpp"

namespace redist::backend {

// A region of global indices that moves between this rank and `rank`.
struct Transfer {
  int rank;
  Box region;
};

// What one rank of the world does in the exchange.
struct ExchangePeers {
  Box source_box, target_box;  // its boxes (empty outside the mesh)
  Box kept;                    // source box intersected with target box: a local copy
  std::vector<Transfer> receives, sends;  // never itself; in posting order
  std::vector<Box> holder_boxes;          // each receive's sender's source box
};

// Both meshes valid in a world of `world_size` ranks, both layouts valid on
// their mesh with the same global shape.  Messages do not name the caller.
Status validate_exchange(int world_size, const PlacedMesh& source, const BlockLayout& source_layout,
                         const PlacedMesh& target, const BlockLayout& target_layout,
                         std::size_t elem_bytes);

// A digest of the arguments, which every rank must pass alike.
std::uint64_t exchange_digest(const PlacedMesh& source, const BlockLayout& source_layout,
                              const PlacedMesh& target, const BlockLayout& target_layout,
                              std::size_t elem_bytes);

// World rank `me`'s part of the exchange, computed from its own peers only
// (O(world) memory).  Arguments must have passed validate_exchange.
ExchangePeers exchange_peers(int me, int world_size, const PlacedMesh& source,
                             const BlockLayout& source_layout, const PlacedMesh& target,
                             const BlockLayout& target_layout);

// A piece of a target rank's box (its box cut along the source blocks) and
// the source mesh position the spread rule reads it from: the rank's own
// where its source box has the piece; otherwise, the rank being number k
// among the piece's needers (target devices of its target block whose
// source box lacks the piece, in target-mesh order), holder number
// k mod |holders| of its block, in source-mesh order.
struct Piece {
  Box region;
  int holder;
};

// World rank `me`'s pieces, in source-block order (empty outside the
// target mesh).  exchange_peers' receives are the pieces of other holders.
std::vector<Piece> exchange_pieces(int me, int world_size, const PlacedMesh& source,
                                   const BlockLayout& source_layout, const PlacedMesh& target,
                                   const BlockLayout& target_layout);

}  // namespace redist::backend
