#include "redist/in_place.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/mpi_regions.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;

namespace {

// Tags: per round, one per pair of areas (the sender's, the receiver's).
// Rounds complete one after another, so tags may repeat after kRoundTags
// rounds; 4 * kRoundTags stays within the least MPI_TAG_UB MPI allows
// (32767).
constexpr int kRoundTags = 8192;

int tag_of(std::size_t round, InPlaceArea from, InPlaceArea to) {
  return static_cast<int>(round % kRoundTags) * 4 + static_cast<int>(from) * 2 + static_cast<int>(to);
}

std::string str(std::size_t n) { return std::to_string(n); }

// The elements of `place`'s area on its rank.
std::size_t area_elements(const InPlaceSchedule& schedule, const InPlacePlace& place) {
  return place.area == InPlaceArea::buffer ? schedule.buffer_elements[static_cast<std::size_t>(place.rank)]
                                           : schedule.staging_elements;
}

// Every place on a rank of the schedule, in an area, every run within it.
Status check_schedule(const InPlaceSchedule& schedule, std::size_t elem_bytes, int world_size) {
  if (elem_bytes < 1 || elem_bytes > 16)
    return {Errc::invalid_argument, "element size " + str(elem_bytes) + " (1 to 16 bytes)"};
  if (schedule.buffer_elements.size() > static_cast<std::size_t>(world_size))
    return {Errc::mesh_mismatch, "the schedule has " + str(schedule.buffer_elements.size()) +
                                     " ranks, the communicator " + std::to_string(world_size)};
  constexpr std::size_t kMaxArrayBytes = std::size_t{1} << 40;
  for (std::size_t n : schedule.buffer_elements)
    if (n > kMaxArrayBytes / elem_bytes)
      return {Errc::too_large, "a buffer of " + str(n) + " elements exceeds 2^40 bytes"};
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r)
    for (std::size_t m = 0; m < schedule.rounds[r].size(); ++m) {
      const InPlaceMove& mv = schedule.rounds[r][m];
      const std::string at = "round " + str(r) + ", move " + str(m);
      for (const InPlacePlace* x : {&mv.from, &mv.to}) {
        if (x->rank < 0 || static_cast<std::size_t>(x->rank) >= schedule.buffer_elements.size())
          return {Errc::invalid_argument, at + ": rank " + std::to_string(x->rank) + " outside the schedule's " +
                                              str(schedule.buffer_elements.size()) + " ranks"};
        if (x->area != InPlaceArea::buffer && x->area != InPlaceArea::staging)
          return {Errc::invalid_argument, at + ": an area neither buffer nor staging"};
        const std::size_t room = area_elements(schedule, *x);
        if (x->offset > room || mv.length > room - x->offset)
          return {Errc::invalid_argument, at + ": a run of " + str(mv.length) + " elements at " + str(x->offset) +
                                              " outside its area of " + str(room)};
      }
    }
  if (staging_used(schedule) > kMaxArrayBytes / elem_bytes)
    return {Errc::too_large, "a staging of " + str(staging_used(schedule)) + " elements exceeds 2^40 bytes"};
  return {};
}

std::uint64_t schedule_digest(const InPlaceSchedule& schedule, std::size_t elem_bytes) {
  std::uint64_t h = backend::combine_key(backend::combine_key(0, elem_bytes), schedule.staging_elements);
  for (std::size_t n : schedule.buffer_elements) h = backend::combine_key(h, n);
  for (const auto& round : schedule.rounds) {
    h = backend::combine_key(h, round.size());
    for (const InPlaceMove& mv : round)
      for (const InPlacePlace* x : {&mv.from, &mv.to}) {
        h = backend::combine_key(h, static_cast<std::uint64_t>(x->rank) * 2 + static_cast<std::uint64_t>(x->area));
        h = backend::combine_key(backend::combine_key(h, x->offset), mv.length);
      }
  }
  return h;
}

}  // namespace

std::size_t staging_used(const InPlaceSchedule& schedule) {
  std::size_t used = 0;
  for (const auto& round : schedule.rounds)
    for (const InPlaceMove& mv : round)
      for (const InPlacePlace* x : {&mv.from, &mv.to})
        if (x->area == InPlaceArea::staging) used = std::max(used, x->offset + mv.length);
  return used;
}

InPlace::InPlace() = default;

InPlace::InPlace(InPlace&& other) noexcept { *this = std::move(other); }

InPlace& InPlace::operator=(InPlace&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    buffer_bytes_ = std::exchange(other.buffer_bytes_, 0);
    staging_bytes_ = std::exchange(other.staging_bytes_, 0);
    rounds_ = std::exchange(other.rounds_, {});
    messages_ = std::exchange(other.messages_, {});
    copies_ = std::exchange(other.copies_, {});
    requests_ = std::exchange(other.requests_, {});
  }
  return *this;
}

InPlace::~InPlace() { release(); }

void InPlace::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized) {
    for (Message& m : messages_)
      if (m.type != MPI_DATATYPE_NULL) MPI_Type_free(&m.type);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  comm_ = MPI_COMM_NULL;
  messages_.clear();
}

Status InPlace::create(MPI_Comm world, const InPlaceSchedule& schedule, std::size_t elem_bytes,
                       const ProblemDigest& problem, InPlace* out) {
  return create_agreed(world, schedule, elem_bytes, problem, {}, out);
}

Status InPlace::create(MPI_Comm world, const InPlaceTables& tables, std::size_t elem_bytes,
                       const ProblemDigest& problem, InPlace* out) {
  InPlaceSchedule schedule;
  schedule.staging_elements = tables.staging_elements;
  Status read;
  if ((tables.buffer_elements == nullptr && tables.ranks > 0) || (tables.rounds == nullptr && tables.round_count > 0))
    read = {Errc::invalid_argument, "a null table with a nonzero count"};
  else {
    schedule.buffer_elements.assign(tables.buffer_elements, tables.buffer_elements + tables.ranks);
    for (std::size_t r = 0; r < tables.round_count && read.ok(); ++r) {
      const InPlaceRound& round = tables.rounds[r];
      if (round.moves == nullptr && round.count > 0)
        read = {Errc::invalid_argument, "round " + str(r) + ": a null table of " + str(round.count) + " moves"};
      else
        schedule.rounds.emplace_back(round.moves, round.moves + round.count);
    }
  }
  return create_agreed(world, read.ok() ? schedule : InPlaceSchedule{}, elem_bytes, problem, std::move(read), out);
}

Status InPlace::create_agreed(MPI_Comm world, const InPlaceSchedule& schedule, std::size_t elem_bytes,
                              const ProblemDigest& problem, Status read, InPlace* out) {
  constexpr const char* what = "InPlace::create";
  if (out == nullptr) return {Errc::invalid_argument, "InPlace::create: output is null"};
  if (world == MPI_COMM_NULL) return {Errc::invalid_argument, "InPlace::create: communicator is MPI_COMM_NULL"};
  int world_size = 0, me = 0;
  MPI_Comm_size(world, &world_size);
  MPI_Comm_rank(world, &me);
  Status local = prefixed(what, read.ok() ? check_schedule(schedule, elem_bytes, world_size) : std::move(read));
  backend::Agreed agreed[backend::kProblemAgreed + 1];
  backend::agreed_problem(problem, agreed);
  agreed[backend::kProblemAgreed] = {schedule_digest(schedule, elem_bytes),
                                     "ranks passed different schedules or element sizes"};
  if (Status st = backend::agree(world, std::move(local), what, agreed, backend::kProblemAgreed + 1); !st.ok())
    return st;

  InPlace ip;
  const auto mine = static_cast<std::size_t>(me);
  if (mine < schedule.buffer_elements.size()) ip.buffer_bytes_ = schedule.buffer_elements[mine] * elem_bytes;
  ip.staging_bytes_ = staging_used(schedule) * elem_bytes;
  if (Status st = mpi_status(MPI_Comm_dup(world, &ip.comm_), what); !st.ok()) return st;
  MPI_Comm_set_errhandler(ip.comm_, MPI_ERRORS_RETURN);
  MPI_Datatype element = MPI_DATATYPE_NULL;
  if (Status st = mpi_status(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &element), what); !st.ok())
    return st;

  // This rank's runs of a round to or from one peer between one pair of
  // areas, in the round's order: one message.
  struct Pending {
    int peer;
    bool send;
    InPlaceArea from, to;
    std::vector<backend::Run> runs;
  };
  Status built;
  std::size_t busiest = 0;
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
    std::vector<Pending> pending;
    Round round{ip.messages_.size(), 0, ip.copies_.size(), 0};
    for (const InPlaceMove& mv : schedule.rounds[r]) {
      const bool sends = mv.from.rank == me, receives = mv.to.rank == me;
      if (sends && receives) {
        ip.copies_.push_back({mv.from.area, mv.to.area, mv.from.offset * elem_bytes, mv.to.offset * elem_bytes,
                              mv.length * elem_bytes});
        continue;
      }
      if (!sends && !receives) continue;
      const int peer = sends ? mv.to.rank : mv.from.rank;
      auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
        return p.peer == peer && p.send == sends && p.from == mv.from.area && p.to == mv.to.area;
      });
      if (it == pending.end()) it = pending.insert(pending.end(), Pending{peer, sends, mv.from.area, mv.to.area, {}});
      it->runs.push_back(sends ? backend::Run{mv.from.offset, mv.length} : backend::Run{mv.to.offset, mv.length});
    }
    for (const Pending& p : pending) {
      ip.messages_.push_back({p.peer, p.send, p.send ? p.from : p.to, tag_of(r, p.from, p.to), MPI_DATATYPE_NULL});
      if (built.ok()) built = backend::runs_type(p.runs, element, &ip.messages_.back().type, what);
    }
    round.messages_end = ip.messages_.size();
    round.copies_end = ip.copies_.size();
    busiest = std::max(busiest, pending.size());
    ip.rounds_.push_back(round);
  }
  MPI_Type_free(&element);
  // A datatype MPI refused on one rank must not leave the others with an
  // executor that would wait for it.
  if (Status st = backend::agree(ip.comm_, std::move(built), what); !st.ok()) return st;
  ip.requests_.assign(busiest, MPI_REQUEST_NULL);
  *out = std::move(ip);
  return {};
}

Status InPlace::run(void* buffer, std::size_t buffer_bytes, void* staging, std::size_t staging_bytes) {
  constexpr const char* what = "InPlace::run";
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": executor is empty (not created or moved from)"};
  Status local = local::check_buffer(buffer, buffer_bytes, buffer_bytes_, "buffer");
  if (local.ok()) local = local::check_buffer(staging, staging_bytes, staging_bytes_, "staging");
  if (local.ok()) local = local::check_disjoint(buffer, buffer_bytes_, "buffer", staging, staging_bytes_, "staging");
  if (Status st = backend::agree(comm_, prefixed(what, std::move(local)), what); !st.ok()) return st;

  unsigned char* const base[2] = {static_cast<unsigned char*>(buffer), static_cast<unsigned char*>(staging)};
  auto at = [&](InPlaceArea area) { return base[static_cast<int>(area)]; };
  for (const Round& round : rounds_) {
    // The validator keeps every run a round writes away from every run it
    // reads, so the receives, the sends and the local copies may proceed
    // at once, in any order.
    int n = 0;
    for (bool send : {false, true})
      for (std::size_t i = round.messages_begin; i < round.messages_end; ++i) {
        const Message& m = messages_[i];
        if (m.send != send) continue;
        const int rc = send ? MPI_Isend(at(m.area), 1, m.type, m.peer, m.tag, comm_, &requests_[n])
                            : MPI_Irecv(at(m.area), 1, m.type, m.peer, m.tag, comm_, &requests_[n]);
        if (Status st = mpi_status(rc, what); !st.ok()) {
          MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE);
          return st;
        }
        ++n;
      }
    for (std::size_t i = round.copies_begin; i < round.copies_end; ++i) {
      const Copy& c = copies_[i];
      std::memmove(at(c.to_area) + c.to_offset, at(c.from_area) + c.from_offset, c.bytes);
    }
    if (Status st = mpi_status(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE), what); !st.ok()) return st;
  }
  return {};
}

}  // namespace redist
