// The direct exchange over MPI (the model's Part 2, docs/model.md): moves a
// global array from a block layout on a source placed mesh to a block layout
// on a target placed mesh of the same world in one step.
//
// Every element a rank must end with comes from one holder: the rank itself
// when its source box has the element, otherwise, of the source devices
// whose box has it (the holders, in source-mesh order), holder number
// k mod |holders|, k being the rank's index among the needers of the element
// (target devices whose target box has it and whose source box does not, in
// target-mesh order).  This is the spread rule of the Coq model
// (spread_holder); the runtime computes it per box intersection, and only
// for the calling rank's own peers (no table over all pairs of ranks).
// Each rank therefore receives exactly |target box \ source box| elements,
// one message per peer, and copies the rest locally.
//
// Messages are MPI derived datatypes over the local arrays themselves
// (subarrays of the source array to send, of the destination array to
// receive): no pack buffers, and no 2 GiB limit on a message.
//
//     redist::Exchange ex;
//     if (auto st = redist::Exchange::create(MPI_COMM_WORLD, src_mesh, src_layout,
//                                            tgt_mesh, tgt_layout, 8, &ex); !st.ok()) ...
//     // hot path, no allocation:
//     st = ex.run(src, ex.source_bytes(), dst, ex.target_bytes());
//
// Agreement: create() and run() are collective over the world communicator;
// every rank passes the same meshes, layouts and element size.  create()
// compares a fingerprint of them over all ranks, and run() agrees on every
// rank's buffer checks with one allreduce, so an error any rank sees is
// reported by every rank (the others get remote_error) instead of leaving
// them blocked.
//
// Split phase: run() is start() then wait().  start() (collective: the same
// agreed checks) posts every message and makes the local copy, then
// returns; test() and wait() are local (MPI_Testall, MPI_Waitall), so that
// computation can run between start() and wait() while MPI moves the data
// (how much moves without a call into MPI is the MPI library's business:
// Open MPI's shared-memory and TCP transports progress inside MPI calls, so
// a compute loop that calls test() now and then keeps them moving).  From
// start() until wait() returns or test() reports done, the source array
// must not be written or freed and the destination not read or written.
//
//     st = ex.start(src, ex.source_bytes(), dst, ex.target_bytes());
//     compute();                      // touching neither src nor dst
//     st = ex.wait();                 // dst complete
//
// Single copy on a host: a source array allocated by redist::shared_alloc
// (redist/shared.hpp) is read in place by the ranks of its host that
// receive from it.  start() then gathers, over the ranks of the host, where
// each one's source array lies (this is also the point after which every
// one of them has entered start(), so their source arrays are complete);
// each receiver copies its pieces from such arrays straight into its own
// destination (the same pieces the messages would carry, box copies of
// contiguous runs, which are then not sent), posts the other messages,
// and all the host's ranks enter a non-blocking barrier that test() and
// wait() complete with the messages: no rank's wait() returns, and so no
// rank reuses its source array, before every reader of it is done.  Only
// each destination's owner writes it.  Messages from arrays allocated
// elsewhere or between hosts go by MPI as above.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi_c.hpp"
#include "redist/placed.hpp"
#include "redist/redist.hpp"

namespace redist {

namespace backend {
struct ExchangePeers;  // internal/exchange_peers.hpp
struct SharedSpan;     // internal/shared_windows.hpp
}

// Where one exchange's split-phase operation stands, and the misuse checks
// of start(), test() and wait(), shared by Exchange and ReducingExchange.
// Builds without NDEBUG also check the source array: a checksum of its
// bytes recorded at start() is compared when the operation completes, and
// a change (the array written, or freed and its memory reused, before
// completion) is an invalid_argument error on the rank where it happened.
class SplitPhase {
 public:
  // start()'s local check (unprefixed, for the caller's agreement):
  // invalid_argument from start() until wait().
  Status check_start() const;
  // start() has posted the operation's requests; it reads `src` until it completes.
  void started(const void* src, std::size_t src_bytes);
  // test() (block false: MPI_Testall) or wait() (block true: MPI_Waitall)
  // on the operation's requests.  *arrived: they completed in this call (the
  // caller then finishes the operation locally).  invalid_argument when no
  // operation was started.  After test() has seen completion, wait()
  // returns at once; an error ends the operation.
  Status advance(std::vector<MPI_Request>& requests, bool block, bool* arrived, const char* what);
  bool in_flight() const { return phase_ == Phase::in_flight; }
  // A destructor's: completes an operation still in flight, so that MPI
  // writes no buffer after the object is gone.
  void complete_abandoned(std::vector<MPI_Request>& requests) noexcept;

 private:
  enum class Phase { idle, in_flight, completed };
  Phase phase_ = Phase::idle;
  const void* source_ = nullptr;
  std::size_t source_bytes_ = 0;
  std::uint64_t source_sum_ = 0;
};

// A destructor's, for an executor of messages (Exchange, ReducingExchange,
// RegionExchange): completes an operation still in flight, frees its message
// types and its communicator, and leaves them empty and null.  After
// MPI_Finalize nothing is freed: the handles died with MPI.
void release_message_handles(SplitPhase& split, std::vector<MPI_Request>& requests,
                             std::vector<MPI_Datatype>& types, MPI_Comm& comm) noexcept;

// Single copy on a host for one exchange (Exchange, ReducingExchange): which
// of a rank's receives it reads straight out of its sender's source array
// (a buffer of shared_alloc on the same host), and which of its sends are
// read so and therefore not sent.  Decided at every start, the same way on
// both sides of a message; see "Single copy on a host" below.
class SingleCopy {
 public:
  // A receive: its sender, its region, the sender's source box.
  struct Receive {
    int rank;
    Box region, holder_box;
  };

  SingleCopy();
  SingleCopy(const SingleCopy&) = delete;
  SingleCopy& operator=(const SingleCopy&) = delete;
  SingleCopy(SingleCopy&& other) noexcept;
  SingleCopy& operator=(SingleCopy&& other) noexcept;
  ~SingleCopy();

  // Collective over `comm` (the exchange's own, at create): this host's
  // ranks and the receives from them.
  Status bind(MPI_Comm comm, const std::vector<Receive>& receives, const char* what);
  // Collective over the host (at start, once every rank's checks agreed):
  // where each host rank's source array lies.  A rank's answer arrives
  // only once it has entered start(), its stores to src published first.
  Status gather(const void* src, std::size_t src_bytes, const char* what);
  // Receive i is read in place (at the last gather).
  bool reads(std::size_t i) const { return !read_from_.empty() && read_from_[i] != nullptr; }
  // This rank's source array is read in place by world rank `rank`.
  bool read_by(int rank) const;
  // Copies receive i's region out of its sender's source array into the
  // local array of box `to` at `into`; returns its elements.
  std::size_t copy(std::size_t i, unsigned char* into, const Box& to, std::size_t elem_bytes) const;
  // When some host rank's source array is read in place: posts, in
  // *request, the host's non-blocking barrier whose completion (with the
  // exchange's other requests) means every reader is done, so no rank
  // rewrites its source array before that.  Otherwise leaves it null.
  Status release(MPI_Request* request, const char* what);

 private:
  void free_handles() noexcept;

  // The ranks of this host (null when it has no other rank of the world)
  // and the exchange's group; for each receive, its region, its sender's
  // source box and the sender's rank on this host (-1: on another); at
  // each gather, where every host rank's source array lies and where this
  // rank reads each receive from (null: by MPI).
  struct HostReceive {
    Box region, holder_box;
    int host_rank;
  };
  MPI_Comm host_ = MPI_COMM_NULL;
  MPI_Group group_ = MPI_GROUP_NULL;
  int host_rank_ = 0;
  std::vector<HostReceive> receives_;
  std::vector<backend::SharedSpan> spans_;
  std::vector<const unsigned char*> read_from_;
};

// Owns a duplicate of the world communicator and the committed datatypes of
// its messages, freed in the destructor (which must run before
// MPI_Finalize).  Move-only; a default-constructed or moved-from Exchange is
// empty and run() on it fails.
class Exchange {
 public:
  // A peer of this rank and how many elements it sends or receives.
  struct Peer {
    int rank;
    std::size_t elements;
  };

  Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;
  Exchange(Exchange&& other) noexcept;
  Exchange& operator=(Exchange&& other) noexcept;
  ~Exchange();

  // Collective over `world`.  Fails on every rank alike when a mesh or
  // layout is invalid on some rank (a rank outside the world, a rank listed
  // twice, an axis sharding two dims, ...), when the two layouts differ in
  // global shape, or when ranks passed different arguments.
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout,
                       std::size_t elem_bytes, Exchange* out) {
    return create(world, source, source_layout, target, target_layout, elem_bytes, ProblemDigest{}, out);
  }
  // The same for one problem (a generated header's create_exchange): the
  // ranks also agree, in the same allreduce, on `problem` (ProblemDigest:
  // the element type beyond its size, the plan and redist's version).
  static Status create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout,
                       std::size_t elem_bytes, const ProblemDigest& problem, Exchange* out);

  // Collective over the world.  src: this rank's source local array
  // (source_bytes(), null/0 outside the source mesh); dst: its target local
  // array (target_bytes(), null/0 outside the target mesh).  Longer buffers
  // are fine; they must not overlap.  Nothing is written to dst when an
  // argument error is reported.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

  // run() in two halves (split phase, above).  start(): collective, the same
  // arguments and agreed checks as run(), and invalid_argument on every rank
  // when any rank has started an operation and not waited for it (every
  // start() is followed by one wait(); run() in between is refused too).
  // test(): *done true when the operation has completed (dst is then
  // complete; a wait() after it returns at once).  wait(): blocks until it
  // completes.  test() and wait() are local; without a start() they fail
  // with invalid_argument; an error from either ends the operation.
  // Destroying an Exchange with an operation in flight waits for it.
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);
  Status test(bool* done);
  Status wait();

  // This rank's boxes (empty outside the respective mesh) and array sizes.
  const Box& source_box() const { return source_box_; }
  const Box& target_box() const { return target_box_; }
  std::size_t source_bytes() const { return box_elements(source_box_) * elem_bytes_; }
  std::size_t target_bytes() const { return box_elements(target_box_) * elem_bytes_; }
  // Whom this rank receives from and sends to (not itself), in posting order.
  const std::vector<Peer>& receives() const { return receives_; }
  const std::vector<Peer>& sends() const { return sends_; }
  // Elements this rank copies from its own source array.
  std::size_t kept_elements() const { return box_elements(kept_); }
  // Of receives(), the elements the last start() (or run()) copied straight
  // out of peers' shared source arrays (single copy); the rest came by MPI.
  std::size_t direct_elements() const { return direct_elements_; }

 private:
  void release() noexcept;
  Status start_as(const char* what, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t elem_bytes_ = 0;
  Box source_box_, target_box_;
  Box kept_;  // source box intersected with target box, copied locally
  std::vector<Peer> receives_, sends_;
  // One datatype per peer, receives first, and a request slot for each,
  // then one for the host's barrier (single copy).
  std::vector<MPI_Datatype> types_;
  std::vector<MPI_Request> requests_;
  SplitPhase split_;

  SingleCopy single_copy_;
  std::size_t direct_elements_ = 0;
};

}  // namespace redist
