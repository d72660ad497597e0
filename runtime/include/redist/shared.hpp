// Buffers in MPI-3 shared memory, so that the direct exchange (and the
// reducing exchange, and a hybrid's exchange parts, the same way: SingleCopy
// in exchange.hpp) moves every byte between ranks of one host with one copy.
//
// Open MPI's shared-memory transport copies a message twice (the sender into
// a segment, the receiver out of it).  A source array allocated here lies in
// a window of MPI_Win_allocate_shared over the ranks of its host
// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)); redist::Exchange::run() and
// start() then let each receiver on that host copy its pieces straight out of
// the sender's source array into its own destination (the same pieces as the
// messages, which are not sent).  Whether a message takes that path is
// decided per message and per run: the sender's source array must lie whole
// in a buffer of shared_alloc and the receiver must be one of the ranks that
// allocated it together (so on the same host); every other message (ranks on
// different hosts, a source array from anywhere else) goes by MPI as before.
// The destination array may come from anywhere: only its owner writes it.
//
//     void* src = nullptr;
//     if (auto st = redist::shared_alloc(MPI_COMM_WORLD, ex.source_bytes(), &src); !st.ok()) ...
//     ... fill src ...
//     st = ex.run(src, ex.source_bytes(), dst, ex.target_bytes());  // dst: any memory
//     st = redist::shared_free(MPI_COMM_WORLD, src);
//
// Both calls are collective over `comm` (every rank calls them, in the same
// order; its own size per rank, 0 included) and agree on their verdict, so a
// misuse on one rank is an error on every rank and none waits.  A buffer
// holds at least one byte (a distinct pointer even for 0 bytes) and is
// aligned for any element type.  Free every buffer before MPI_Finalize.
#pragma once

#include <cstddef>

#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

namespace redist {

// Collective over comm: *out is this rank's new buffer of `bytes` bytes in
// shared memory (null when the call fails).
Status shared_alloc(MPI_Comm comm, std::size_t bytes, void** out);

// Collective over the communicator of the shared_alloc that returned `ptr`
// (or one with the same ranks): every rank frees its pointer of that one
// allocation.  invalid_argument, on every rank, for a pointer shared_alloc
// did not return, one freed already, or ranks freeing different allocations.
Status shared_free(MPI_Comm comm, void* ptr);

}  // namespace redist
