// An exchange that sends exactly the messages it is given: each rank's
// region lists, as the proven lowering lists them (issue 26), over MPI.
// Nothing about layouts or meshes is computed here; the lists are the
// plan, and they are data.
//
// Per world rank r (boxes are per dimension (offset, extent) in row-major
// local coordinates of a dense local array):
//   sends  : (peer, boxes of r's SOURCE local array), one entry per peer
//   recvs  : (peer, boxes of r's TARGET local array), one entry per peer
//   copies : (source-local box, target-local box) of equal extents
// Pairing rule: the k-th box r sends to p has the extents of, and carries
// the elements of, the k-th box p receives from r, in row-major order within
// each box.  A peer's boxes travel as one message: one MPI derived datatype
// per peer and direction, built at create over the local array itself (no
// pack buffer); copies are row-wise memcpy of contiguous runs.
//
//     redist::RegionExchange ex;
//     if (auto st = redist::RegionExchange::create(MPI_COMM_WORLD, source_shape, target_shape,
//                                                  8, lists, &ex); !st.ok()) ...
//     st = ex.run(src, ex.source_bytes(), dst, ex.target_bytes());   // no allocation
//
// Agreement: create() and run() are collective over the world.  create()
// checks every rank's lists locally (peers, bounds, copy extents), agrees on
// the element size, the number of dimensions and the problem digest, then
// checks the pairing between ranks: every rank learns, per peer, how many
// boxes of which extents the peer sends it and compares that with what it
// expects to receive.  Any failure is reported by the rank that sees it (one
// line naming the peer and the box) and as remote_error by every other rank,
// so no rank is left waiting for a message that will not come.  What create
// does not check: that boxes of one array are disjoint (two receives
// writing one element), which the lowering's proofs guarantee.
//
// Split phase (start/test/wait) as redist::Exchange's (redist/exchange.hpp),
// with the same rules on the buffers while an operation is in flight.
// Single copy on a host (redist/shared.hpp) is not used: its readers locate
// a message in the sender's array by global boxes, which region lists do
// not carry; every message goes by MPI.
//
// Reducing (create with a RegionReduction: the lowering of composed cuts
// with pending axes, reduce_sends and reduce_recvs): the receive entries
// are listed in the order of combination, and an entry whose peer is this
// rank is its own contribution, paired box by box with its send entry to
// itself (there are no copies).  Every target position combines, in that
// order, the element of each entry whose box holds it.  create numbers the
// entries that hold a position (its contributions 0, 1, ...) from the lists
// alone and refuses lists where an entry's elements are not one numbered
// contribution throughout, or where positions count different numbers of
// contributions.  With G contributions per position, each arrives (by MPI
// or, its own, by copy) in slot k of a staging array of G target local
// arrays that the exchange owns (staging_bytes(): G * target_bytes(), none
// when G is 1: the one contribution lands in the target array), and
// completion combines the slots with local::reduce_blocks, the kernel of
// every reducing path (redist/reduce.hpp: a left fold c_0 op c_1 op ...,
// f16 and bf16 in f32 rounded once).  A rank no entry reaches (G = 0: a
// member the fill does not designate) holds op's identity.  avg is not
// taken: its division belongs to plans of Part 2.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/exchange.hpp"
#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"
#include "redist/reduce.hpp"

namespace redist {

// A dense row-major local array's extents (zero extents: an empty array).
struct LocalShape {
  int ndim = 0;
  std::size_t extent[kMaxRank] = {};
};

// A box of a local array: per dimension its first index and its extent.
struct RegionBox {
  std::size_t offset[kMaxRank] = {};
  std::size_t extent[kMaxRank] = {};
};

// The boxes exchanged with one peer (a world rank other than this one).
struct RegionMessage {
  int peer = -1;
  std::vector<RegionBox> boxes;
};

// A box of the source array copied into a box of the target array.
struct RegionCopy {
  RegionBox from, to;
};

// One rank's part of the exchange.
struct RegionLists {
  std::vector<RegionMessage> sends, recvs;
  std::vector<RegionCopy> copies;
};

// Every world rank's lists as the constant tables a generated header holds
// (redist gen of composed cuts): flat arrays indexed by rank, read by
// create(world, tables, ...) on each rank for its own part.
struct RegionTableMessage {
  int peer;
  std::size_t first_box, boxes;  // boxes [first_box, first_box + boxes) of RegionTables::boxes
};
struct RegionTableCopy {
  std::size_t from_box, to_box;  // indices into RegionTables::boxes
};
struct RegionTables {
  int world = 0;  // ranks with lists; a rank at or beyond it holds and exchanges nothing
  int ndim = 0;
  const std::size_t* source_shapes = nullptr;  // world * ndim extents
  const std::size_t* target_shapes = nullptr;
  // Rank r's sends are sends[sends_begin[r] .. sends_begin[r + 1]); likewise
  // recvs and copies.  The arrays may be null where they have no entry.
  const std::size_t* sends_begin = nullptr;
  const RegionTableMessage* sends = nullptr;
  const std::size_t* recvs_begin = nullptr;
  const RegionTableMessage* recvs = nullptr;
  const std::size_t* copies_begin = nullptr;
  const RegionTableCopy* copies = nullptr;
  std::size_t box_count = 0;
  const std::size_t* boxes = nullptr;  // box b: ndim offsets, then ndim extents, at b * 2 * ndim
};

// The combination of a reducing region exchange: the element type
// (elem_bytes is its size) and the operation (sum, prod, max, min;
// op_computes(dtype, op)).
struct RegionReduction {
  Dtype dtype = Dtype::i32;
  Op op = Op::sum;
  // avg: the contributions are added (step_op) and every target position is
  // then divided once by this (the extracted cuts_avg_divisor: the source's
  // pending group size); 1 for the other operations.
  std::size_t avg_divisor = 1;
};

// Owns a duplicate of the world communicator and one committed datatype per
// message, freed in the destructor (before MPI_Finalize).  Move-only; a
// default-constructed or moved-from RegionExchange is empty and run() on it
// fails.
class RegionExchange {
 public:
  // A peer of this rank and how many elements it sends or receives.
  using Peer = Exchange::Peer;

  RegionExchange();
  RegionExchange(const RegionExchange&) = delete;
  RegionExchange& operator=(const RegionExchange&) = delete;
  RegionExchange(RegionExchange&& other) noexcept;
  RegionExchange& operator=(RegionExchange&& other) noexcept;
  ~RegionExchange();

  // Collective over `world`.  source, target: this rank's local arrays
  // (same ndim on every rank); lists: this rank's messages and copies.
  // Fails on every rank alike when some rank's lists are invalid or do not
  // pair with its peers', or when ranks disagree on elem_bytes, ndim or
  // `problem` (ProblemDigest, as the other executors).
  static Status create(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                       std::size_t elem_bytes, const RegionLists& lists, const ProblemDigest& problem,
                       RegionExchange* out);
  static Status create(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                       std::size_t elem_bytes, const RegionLists& lists, RegionExchange* out) {
    return create(world, source, target, elem_bytes, lists, ProblemDigest{}, out);
  }
  // The same with this rank's part read from every rank's tables; an index
  // out of range in them fails on every rank alike.
  static Status create(MPI_Comm world, const RegionTables& tables, std::size_t elem_bytes,
                       const ProblemDigest& problem, RegionExchange* out);
  // The reducing exchange (see the top of this file), from lists or tables.
  static Status create(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                       const RegionReduction& reduction, const RegionLists& lists, const ProblemDigest& problem,
                       RegionExchange* out);
  static Status create(MPI_Comm world, const RegionTables& tables, const RegionReduction& reduction,
                       const ProblemDigest& problem, RegionExchange* out);

  // Collective over the world: src is this rank's source local array
  // (source_bytes(); null/0 when it is empty), dst its target local array
  // (target_bytes()).  Longer buffers are fine; they must not overlap.
  // Nothing is written to dst when an argument error is reported.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);
  // run() in two halves, as Exchange::start, test and wait.
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);
  Status test(bool* done);
  Status wait();

  std::size_t source_bytes() const { return source_bytes_; }
  std::size_t target_bytes() const { return target_bytes_; }
  // This rank's messages (peers with no elements left out), in posting order.
  const std::vector<Peer>& receives() const { return receives_; }
  const std::vector<Peer>& sends() const { return sends_; }
  // Elements this rank copies from its own source array.
  std::size_t kept_elements() const { return kept_elements_; }
  // Reducing: the contributions each target position combines (G; 0 on a
  // rank that holds the identity) and the staging the exchange owns for them.
  std::size_t contributions() const { return contributions_; }
  std::size_t staging_bytes() const { return staging_.size(); }

 private:
  void release() noexcept;
  // create(), with `local` an error this rank found before its lists were checked.
  // reduction: null for the plain exchange.
  static Status create_agreed(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                              std::size_t elem_bytes, const RegionReduction* reduction, const RegionLists& lists,
                              const ProblemDigest& problem, Status local, RegionExchange* out);
  static Status create_from_tables(MPI_Comm world, const RegionTables& tables, std::size_t elem_bytes,
                                   const RegionReduction* reduction, const ProblemDigest& problem,
                                   RegionExchange* out);
  Status start_as(const char* what, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);
  // advance() and, when the messages have arrived, the reducing combination.
  Status complete(bool block, bool* done, const char* what);
  // Where contribution `slot` lands: the target array itself when G is 1.
  unsigned char* slot_base(std::size_t slot, void* dst);

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t elem_bytes_ = 0;
  std::size_t source_bytes_ = 0, target_bytes_ = 0;
  LocalShape source_, target_;
  std::vector<RegionCopy> copies_;
  std::size_t kept_elements_ = 0;
  // Reducing only: the operation, G, each receive's and copy's slot, the
  // staging, and the destination of the operation in flight.
  bool reducing_ = false;
  RegionReduction reduction_;
  std::size_t contributions_ = 0;
  std::vector<std::size_t> receive_slots_, copy_slots_;
  std::vector<unsigned char> staging_;
  void* dst_ = nullptr;
  std::vector<Peer> receives_, sends_;
  // One datatype per message, receives first, and a request slot for each.
  std::vector<MPI_Datatype> types_;
  std::vector<MPI_Request> requests_;
  SplitPhase split_;
};

}  // namespace redist
