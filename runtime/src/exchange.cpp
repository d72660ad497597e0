#include "redist/exchange.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "internal/mpi_regions.hpp"
#include "internal/source_guard.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;
using backend::copy_region;
using backend::subarray;

namespace {

// The exchange owns its communicator and sends at most one message per pair
// of ranks, so one tag suffices.
constexpr int kExchangeTag = 0x7ed2;

}  // namespace

Status SplitPhase::check_start() const {
  if (phase_ == Phase::idle) return {};
  return {Errc::invalid_argument, "an operation is already started (not yet waited for): wait() first"};
}

void SplitPhase::started(const void* src, std::size_t src_bytes) {
  phase_ = Phase::in_flight;
  source_ = src;
  source_bytes_ = src_bytes;
  source_sum_ = backend::source_checksum(src, src_bytes);
}

Status SplitPhase::advance(std::vector<MPI_Request>& requests, bool block, bool* arrived, const char* what) {
  *arrived = false;
  switch (phase_) {
    case Phase::idle:
      return {Errc::invalid_argument, std::string(what) + ": no operation in flight: start() first"};
    case Phase::completed:
      if (block) phase_ = Phase::idle;
      return {};
    case Phase::in_flight:
      break;
  }
  const int n = static_cast<int>(requests.size());
  int complete = 1;
  const Status st = mpi_status(block ? MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE)
                                     : MPI_Testall(n, requests.data(), &complete, MPI_STATUSES_IGNORE),
                               what);
  if (!st.ok()) {
    phase_ = Phase::idle;
    return st;
  }
  if (!complete) return {};
  *arrived = true;
  phase_ = block ? Phase::idle : Phase::completed;
  if (backend::source_checksum(source_, source_bytes_) != source_sum_) {
    phase_ = Phase::idle;
    return {Errc::invalid_argument, std::string(what) + backend::kSourceChanged};
  }
  return {};
}

void SplitPhase::complete_abandoned(std::vector<MPI_Request>& requests) noexcept {
  if (phase_ == Phase::in_flight)
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  phase_ = Phase::idle;
}

void release_message_handles(SplitPhase& split, std::vector<MPI_Request>& requests,
                             std::vector<MPI_Datatype>& types, MPI_Comm& comm) noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    split.complete_abandoned(requests);
    for (MPI_Datatype& t : types)
      if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
  comm = MPI_COMM_NULL;
  types.clear();
}

Exchange::Exchange() = default;

Exchange::Exchange(Exchange&& other) noexcept { *this = std::move(other); }

Exchange& Exchange::operator=(Exchange&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    elem_bytes_ = std::exchange(other.elem_bytes_, 0);
    source_box_ = std::exchange(other.source_box_, Box{});
    target_box_ = std::exchange(other.target_box_, Box{});
    kept_ = std::exchange(other.kept_, Box{});
    receives_ = std::exchange(other.receives_, {});
    sends_ = std::exchange(other.sends_, {});
    types_ = std::exchange(other.types_, {});
    requests_ = std::exchange(other.requests_, {});
    split_ = std::exchange(other.split_, {});
    single_copy_ = std::move(other.single_copy_);
    direct_elements_ = std::exchange(other.direct_elements_, 0);
  }
  return *this;
}

Exchange::~Exchange() { release(); }

void Exchange::release() noexcept { release_message_handles(split_, requests_, types_, comm_); }

Status Exchange::create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                        const PlacedMesh& target, const BlockLayout& target_layout,
                        std::size_t elem_bytes, const ProblemDigest& problem, Exchange* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Exchange::create: output is null"};
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, "Exchange::create: communicator is MPI_COMM_NULL"};
  int world_size = 0, me = 0;
  MPI_Comm_size(world, &world_size);
  MPI_Comm_rank(world, &me);
  Status local = prefixed("Exchange::create", backend::validate_exchange(world_size, source, source_layout,
                                                                        target, target_layout, elem_bytes));
  Exchange ex;
  backend::ExchangePeers peers;
  if (local.ok()) {
    peers = backend::exchange_peers(me, world_size, source, source_layout, target, target_layout);
    ex.elem_bytes_ = elem_bytes;
    ex.source_box_ = peers.source_box;
    ex.target_box_ = peers.target_box;
    ex.kept_ = peers.kept;
  }
  backend::Agreed agreed[backend::kProblemAgreed + 1];
  backend::agreed_problem(problem, agreed);
  agreed[backend::kProblemAgreed] = {
      backend::exchange_digest(source, source_layout, target, target_layout, elem_bytes),
      "ranks passed different meshes, layouts or element sizes"};
  if (Status st = backend::agree(world, std::move(local), "Exchange::create", agreed, backend::kProblemAgreed + 1);
      !st.ok())
    return st;

  if (Status st = mpi_status(MPI_Comm_dup(world, &ex.comm_), "Exchange::create"); !st.ok())
    return st;
  MPI_Comm_set_errhandler(ex.comm_, MPI_ERRORS_RETURN);
  MPI_Datatype element = MPI_DATATYPE_NULL;
  if (Status st = mpi_status(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &element),
                             "Exchange::create");
      !st.ok())
    return st;
  // Receives index the destination array, sends the source array.
  Status built;
  for (const backend::Transfer& t : peers.receives) {
    ex.receives_.push_back({t.rank, box_elements(t.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.target_box_, t.region, element, &ex.types_.back(), "Exchange::create");
  }
  for (const backend::Transfer& t : peers.sends) {
    ex.sends_.push_back({t.rank, box_elements(t.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.source_box_, t.region, element, &ex.types_.back(), "Exchange::create");
  }
  MPI_Type_free(&element);
  // Collective over the world: every rank splits, whatever its datatypes.
  std::vector<SingleCopy::Receive> host_receives;
  for (std::size_t i = 0; i < peers.receives.size(); ++i)
    host_receives.push_back({peers.receives[i].rank, peers.receives[i].region, peers.holder_boxes[i]});
  if (Status host = ex.single_copy_.bind(ex.comm_, host_receives, "Exchange::create"); built.ok())
    built = std::move(host);
  // A datatype MPI refused on one rank must not leave the others with an
  // exchange that would wait for it.
  if (Status st = backend::agree(ex.comm_, std::move(built), "Exchange::create"); !st.ok()) return st;
  ex.requests_.assign(ex.types_.size() + 1, MPI_REQUEST_NULL);
  *out = std::move(ex);
  return {};
}

Status Exchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  constexpr const char* what = "Exchange::run";
  if (Status st = start_as(what, src, src_bytes, dst, dst_bytes); !st.ok()) return st;
  bool arrived = false;
  return split_.advance(requests_, true, &arrived, what);
}

Status Exchange::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  return start_as("Exchange::start", src, src_bytes, dst, dst_bytes);
}

Status Exchange::test(bool* done) {
  if (done == nullptr) return {Errc::invalid_argument, "Exchange::test: done is null"};
  bool arrived = false;
  const Status st = split_.advance(requests_, false, &arrived, "Exchange::test");
  *done = st.ok() && !split_.in_flight();
  return st;
}

Status Exchange::wait() {
  bool arrived = false;
  return split_.advance(requests_, true, &arrived, "Exchange::wait");
}

Status Exchange::start_as(const char* what, const void* src, std::size_t src_bytes, void* dst,
                          std::size_t dst_bytes) {
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": exchange is empty (not created or moved from)"};
  Status local = split_.check_start();
  if (local.ok()) local = local::check_buffer(src, src_bytes, source_bytes(), "source");
  if (local.ok()) local = local::check_buffer(dst, dst_bytes, target_bytes(), "destination");
  if (local.ok()) local = local::check_disjoint(src, source_bytes(), "source", dst, target_bytes(), "destination");
  if (Status st = backend::agree(comm_, prefixed(what, std::move(local)), what); !st.ok()) return st;

  if (Status st = single_copy_.gather(src, source_bytes(), what); !st.ok()) return st;

  // Receives are posted first so that every send finds its receive posted.
  // A receive read in place and a send to a rank that reads it in place
  // (the same decision, taken on both sides) are not posted.
  const std::size_t nrecv = receives_.size();
  for (std::size_t i = 0; i < nrecv; ++i)
    if (!single_copy_.reads(i))
      if (Status st = mpi_status(MPI_Irecv(dst, 1, types_[i], receives_[i].rank, kExchangeTag, comm_,
                                           &requests_[i]),
                                 what);
          !st.ok())
        return st;
  for (std::size_t i = 0; i < sends_.size(); ++i)
    if (!single_copy_.read_by(sends_[i].rank))
      if (Status st = mpi_status(MPI_Isend(src, 1, types_[nrecv + i], sends_[i].rank, kExchangeTag,
                                           comm_, &requests_[nrecv + i]),
                                 what);
          !st.ok())
        return st;
  auto* out = static_cast<unsigned char*>(dst);
  direct_elements_ = 0;
  for (std::size_t i = 0; i < nrecv; ++i)
    if (single_copy_.reads(i)) direct_elements_ += single_copy_.copy(i, out, target_box_, elem_bytes_);
  copy_region(static_cast<const unsigned char*>(src), source_box_, out, target_box_, kept_, elem_bytes_);
  if (Status st = single_copy_.release(&requests_.back(), what); !st.ok()) return st;
  split_.started(src, source_bytes());
  return {};
}

}  // namespace redist
