// The exchange in place over MPI (the model's Part 3, proofs/inplace/Inplace.v):
// each rank has ONE buffer, holding its source box row-major at offset 0
// at the start and its target box row-major at offset 0 at the end, and a
// staging area; a schedule moves runs of elements between the buffers and
// stagings of the ranks in rounds.
//
// The schedule is data, made and validated by the verified planner
// (Redist_core.inplace_plan; the C ABI's redist_plan_create_in_place, or the
// constant tables of a header of `redist gen --in-place`: InPlaceTables).  Its
// validator guarantees what this executor relies on: within a round no run
// written meets a run read or another run written (round_sequential: so
// sends go straight out of the buffer and receives straight into it, local
// runs are copied, all in any order), every run lies within its area, and
// what a rank sends to a peer in a round is what the peer receives from it,
// run by run in the round's order (inplace_rounds_match).
//
// Per round, all of a rank's runs to one peer travel as one message: an
// MPI derived datatype over the runs, built at create() (no packing
// space).  A buffer and a staging area are two allocations whose distance
// is known only at run(), so runs between two ranks go as one message per
// pair of areas (buffer to buffer, staging to buffer, ...): one message per
// peer when no staging is involved.  Each round's messages carry tags of
// their own, so that messages of different rounds never match; a round's
// messages and local copies complete before the next round starts.
//
//     redist::InPlace ip;
//     if (auto st = redist::InPlace::create(MPI_COMM_WORLD, schedule, 4, problem, &ip); !st.ok()) ...
//     // hot path, no allocation:
//     st = ip.run(buffer, ip.buffer_bytes(), staging, ip.staging_bytes());
//
// Agreement: create() and run() are collective over the world.  create()
// compares the problem and a digest of the schedule over all ranks; run()
// agrees on every rank's buffer checks with one allreduce, so an error any
// rank sees is reported by every rank (the others get remote_error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

namespace redist {

// Inplace.v's area, place and move; offsets and lengths in elements.
enum class InPlaceArea : int { buffer = 0, staging = 1 };

struct InPlacePlace {
  int rank;  // world rank
  InPlaceArea area;
  std::size_t offset;
};

struct InPlaceMove {
  InPlacePlace from, to;
  std::size_t length;
};

struct InPlaceSchedule {
  std::vector<std::size_t> buffer_elements;  // per world rank: max(source box, target box)
  std::size_t staging_elements = 0;          // the staging the schedule was made within
  std::vector<std::vector<InPlaceMove>> rounds;
};

// A schedule as constant tables, as a header of `redist gen --in-place`
// prints it: one array of moves per round, pointed at here.
struct InPlaceRound {
  const InPlaceMove* moves;  // null when count is 0
  std::size_t count;
};

struct InPlaceTables {
  const std::size_t* buffer_elements;  // per world rank, `ranks` of them
  std::size_t ranks;
  std::size_t staging_elements;
  const InPlaceRound* rounds;  // null when round_count is 0
  std::size_t round_count;
};

// The most staging elements the schedule uses on any rank (at most its
// staging_elements): what every rank must pass to run().
std::size_t staging_used(const InPlaceSchedule& schedule);

// Owns a duplicate of the world communicator and the committed datatypes of
// this rank's messages.  Move-only; a default-constructed or moved-from
// InPlace is empty and run() on it fails.  Destroy before MPI_Finalize.
class InPlace {
 public:
  InPlace();
  InPlace(const InPlace&) = delete;
  InPlace& operator=(const InPlace&) = delete;
  InPlace(InPlace&& other) noexcept;
  InPlace& operator=(InPlace&& other) noexcept;
  ~InPlace();

  // Collective over `world` (at least as many ranks as the schedule has
  // buffers).  Fails on every rank alike when the schedule is malformed
  // (a rank outside it, a run outside its area, an element size outside
  // 1..16) or when ranks passed different schedules or problems.
  static Status create(MPI_Comm world, const InPlaceSchedule& schedule, std::size_t elem_bytes,
                       const ProblemDigest& problem, InPlace* out);
  // The same over constant tables (a null table with a nonzero count fails
  // on every rank alike).
  static Status create(MPI_Comm world, const InPlaceTables& tables, std::size_t elem_bytes,
                       const ProblemDigest& problem, InPlace* out);

  // Collective over the world.  buffer: this rank's buffer_bytes() (null/0
  // when it has none), its source box at offset 0; on return its target box.
  // staging: staging_bytes() (the same on every rank; null/0 when 0), not
  // overlapping the buffer.  A buffer or staging too short on any rank fails
  // on every rank and moves nothing.  Allocates nothing.
  Status run(void* buffer, std::size_t buffer_bytes, void* staging, std::size_t staging_bytes);

  std::size_t buffer_bytes() const { return buffer_bytes_; }
  std::size_t staging_bytes() const { return staging_bytes_; }
  std::size_t rounds() const { return rounds_.size(); }

 private:
  void release() noexcept;
  // create() once the tables, if any, were read: `read` is how that went.
  static Status create_agreed(MPI_Comm world, const InPlaceSchedule& schedule, std::size_t elem_bytes,
                              const ProblemDigest& problem, Status read, InPlace* out);

  // One message of a round: to or from `peer`, a datatype over runs of the
  // area `area` of this rank.
  struct Message {
    int peer;
    bool send;
    InPlaceArea area;
    int tag;
    MPI_Datatype type;
  };
  // One local copy of a round, in bytes.
  struct Copy {
    InPlaceArea from_area, to_area;
    std::size_t from_offset, to_offset, bytes;
  };
  // A round's messages and copies: index ranges into messages_ and copies_.
  struct Round {
    std::size_t messages_begin, messages_end, copies_begin, copies_end;
  };

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t buffer_bytes_ = 0, staging_bytes_ = 0;
  std::vector<Round> rounds_;
  std::vector<Message> messages_;
  std::vector<Copy> copies_;
  std::vector<MPI_Request> requests_;  // as many as the busiest round's messages
};

}  // namespace redist
