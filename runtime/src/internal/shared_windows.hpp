// Internal to the MPI backend (not installed): the buffers of shared_alloc
// (redist/shared.hpp) as the direct exchange (exchange.cpp) finds them.  A
// process-wide registry of its live allocations, each one MPI-3
// shared-memory window over the ranks of one host that allocated together,
// kept in a passive-target epoch (MPI_Win_lock_all) from allocation to free
// so that MPI_Win_sync orders the loads and stores of different ranks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

namespace redist::backend {

// Where an array lies in a buffer of shared_alloc, named so that the other
// ranks of its window find it: the window by (leader, id), the buffer by its
// owner's rank in the window, and the array's offset in that buffer.  A
// window's key is unique among the world's processes: `leader` is the world
// rank of the window's first rank, `id` grows with every allocation the
// leader takes part in.  id 0: the array lies in no such buffer.
struct SharedSpan {
  std::uint64_t leader = 0;
  std::uint64_t id = 0;
  std::uint64_t owner = 0;
  std::uint64_t offset = 0;
};

// The span of [p, p + bytes) when it lies whole in one of this process's
// live buffers, else id 0 (also for bytes 0: nothing to read).
SharedSpan find_shared(const void* p, std::size_t bytes);

// Whether rank `rank` of `group` (an exchange's communicator's) is a rank of
// the span's window, so reads the span directly.  Called by the span's owner.
bool shares_window(const SharedSpan& span, MPI_Group group, int rank);

// The span's array in this process's address space, the owner's stores
// before its last MPI_Win_sync visible (MPI_Win_sync here); null when this
// process is no rank of the span's window.
const unsigned char* shared_address(const SharedSpan& span);

// Makes this process's stores to the span's buffer visible to the other
// ranks of its window once they synchronize with it (MPI_Win_sync).
void publish(const SharedSpan& span);

// shared_alloc and shared_free, messages prefixed with `what` and naming
// `allocator` (the C ABI's redist_alloc and redist_free name themselves).
Status allocate_shared(MPI_Comm comm, std::size_t bytes, void** out, const char* what);
Status free_shared(MPI_Comm comm, void* ptr, const char* what, const char* allocator);

}  // namespace redist::backend
