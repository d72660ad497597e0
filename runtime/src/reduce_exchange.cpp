#include "redist/reduce_exchange.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/mpi_regions.hpp"
#include "internal/reducing_peers.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;
using backend::copy_region;
using backend::subarray;

namespace {

// Pieces between one pair of ranks follow each other in piece order on both
// sides, and MPI keeps the order of messages of one tag between a pair.
constexpr int kReducingTag = 0x7ed3;

}  // namespace

ReducingExchange::ReducingExchange(ReducingExchange&& other) noexcept { *this = std::move(other); }

ReducingExchange& ReducingExchange::operator=(ReducingExchange&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    dtype_ = other.dtype_;
    op_ = other.op_;
    elem_bytes_ = other.elem_bytes_;
    group_size_ = other.group_size_;
    designated_ = other.designated_;
    source_box_ = other.source_box_;
    target_box_ = other.target_box_;
    kept_ = std::move(other.kept_);
    receives_ = std::move(other.receives_);
    sends_ = std::move(other.sends_);
    receive_slot_ = std::move(other.receive_slot_);
    types_ = std::move(other.types_);
    requests_ = std::move(other.requests_);
    split_ = std::exchange(other.split_, {});
    single_copy_ = std::move(other.single_copy_);
    direct_elements_ = other.direct_elements_;
    dst_ = other.dst_;
    staging_ = other.staging_;
    other.types_.clear();
  }
  return *this;
}

ReducingExchange::~ReducingExchange() { release(); }

void ReducingExchange::release() noexcept { release_message_handles(split_, requests_, types_, comm_); }

Status ReducingExchange::create(MPI_Comm world, const PlacedMesh& source,
                                const BlockLayout& source_layout, const int* source_pending,
                                int source_pending_count, const PlacedMesh& target,
                                const BlockLayout& target_layout, const int* target_pending,
                                int target_pending_count, Dtype dtype, Op op, ReducingExchange* out) {
  constexpr const char* what = "ReducingExchange::create";
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": output is null"};
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  int world_size = 0, me = 0;
  MPI_Comm_size(world, &world_size);
  MPI_Comm_rank(world, &me);
  const std::size_t elem_bytes = dtype_bytes(dtype);
  Status local = backend::validate_exchange(world_size, source, source_layout, target, target_layout, elem_bytes);
  if (local.ok())
    local = backend::check_pending(source, source_layout, source_pending, source_pending_count, "source");
  if (local.ok())
    local = backend::check_pending(target, target_layout, target_pending, target_pending_count, "target");
  if (local.ok()) local = backend::check_reducing_op(dtype, op, target_pending_count);
  local = prefixed(what, std::move(local));
  ReducingExchange ex;
  backend::ReducingPeers peers;
  std::uint64_t digest = 0;
  if (local.ok()) {
    peers = backend::reducing_peers(me, world_size, source, source_layout, source_pending, source_pending_count,
                                    target, target_layout, target_pending, target_pending_count);
    ex.dtype_ = dtype;
    ex.op_ = op;
    ex.elem_bytes_ = elem_bytes;
    ex.group_size_ = peers.group_size;
    ex.designated_ = peers.designated;
    ex.source_box_ = peers.source_box;
    ex.target_box_ = peers.target_box;
    for (const backend::Contribution& k : peers.kept) ex.kept_.push_back({k.member, k.region});
    digest = backend::reducing_digest(source, source_layout, source_pending, source_pending_count, target,
                                      target_layout, target_pending, target_pending_count, dtype) * 8 +
             static_cast<std::uint64_t>(op);
  }
  const backend::Agreed agreed[] = {
      {digest, "ranks passed different meshes, layouts, pending axes, element types or operations"}};
  if (Status st = backend::agree(world, std::move(local), what, agreed, 1); !st.ok()) return st;

  if (Status st = mpi_status(MPI_Comm_dup(world, &ex.comm_), what); !st.ok()) return st;
  MPI_Comm_set_errhandler(ex.comm_, MPI_ERRORS_RETURN);
  MPI_Datatype element = MPI_DATATYPE_NULL;
  if (Status st = mpi_status(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &element), what);
      !st.ok())
    return st;
  // Receives index a staging array shaped like the target box, sends the
  // source array.
  Status built;
  for (const backend::Contribution& m : peers.receives) {
    ex.receives_.push_back({m.rank, box_elements(m.region)});
    ex.receive_slot_.push_back(m.member);
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.target_box_, m.region, element, &ex.types_.back(), what);
  }
  for (const backend::Transfer& m : peers.sends) {
    ex.sends_.push_back({m.rank, box_elements(m.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.source_box_, m.region, element, &ex.types_.back(), what);
  }
  MPI_Type_free(&element);
  // Collective over the world: every rank splits, whatever its datatypes.
  std::vector<SingleCopy::Receive> host_receives;
  for (std::size_t i = 0; i < peers.receives.size(); ++i)
    host_receives.push_back({peers.receives[i].rank, peers.receives[i].region, peers.holder_boxes[i]});
  if (Status host = ex.single_copy_.bind(ex.comm_, host_receives, what); built.ok()) built = std::move(host);
  if (Status st = backend::agree(ex.comm_, std::move(built), what); !st.ok()) return st;
  ex.requests_.assign(ex.types_.size() + 1, MPI_REQUEST_NULL);
  *out = std::move(ex);
  return {};
}

Status ReducingExchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                             void* workspace, std::size_t workspace_bytes) {
  constexpr const char* what = "ReducingExchange::run";
  if (Status st = start_as(what, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes); !st.ok()) return st;
  return complete(true, what);
}

Status ReducingExchange::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                               void* workspace, std::size_t workspace_bytes) {
  return start_as("ReducingExchange::start", src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
}

Status ReducingExchange::test(bool* done) {
  constexpr const char* what = "ReducingExchange::test";
  if (done == nullptr) return {Errc::invalid_argument, std::string(what) + ": done is null"};
  const Status st = complete(false, what);
  *done = st.ok() && !split_.in_flight();
  return st;
}

Status ReducingExchange::wait() { return complete(true, "ReducingExchange::wait"); }

Status ReducingExchange::start_as(const char* what, const void* src, std::size_t src_bytes, void* dst,
                                  std::size_t dst_bytes, void* workspace, std::size_t workspace_bytes) {
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": exchange is empty (not created or moved from)"};
  Status local = split_.check_start();
  if (local.ok())
    local = backend::check_buffers(src, src_bytes, source_bytes(), dst, dst_bytes, target_bytes(), workspace,
                                   workspace_bytes, this->workspace_bytes());
  if (Status st = backend::agree(comm_, prefixed(what, std::move(local)), what); !st.ok()) return st;

  if (Status st = single_copy_.gather(src, source_bytes(), what); !st.ok()) return st;

  // As Exchange's: a receive read in place and a send to a rank that reads
  // it in place are not posted.
  auto* staging = static_cast<unsigned char*>(workspace);
  const std::size_t box_bytes = target_bytes();
  const std::size_t nrecv = receives_.size();
  for (std::size_t i = 0; i < nrecv; ++i)
    if (!single_copy_.reads(i))
      if (Status st = mpi_status(MPI_Irecv(staging + static_cast<std::size_t>(receive_slot_[i]) * box_bytes, 1,
                                           types_[i], receives_[i].rank, kReducingTag, comm_, &requests_[i]),
                                 what);
          !st.ok())
        return st;
  for (std::size_t i = 0; i < sends_.size(); ++i)
    if (!single_copy_.read_by(sends_[i].rank))
      if (Status st = mpi_status(MPI_Isend(src, 1, types_[nrecv + i], sends_[i].rank, kReducingTag, comm_,
                                           &requests_[nrecv + i]),
                                 what);
          !st.ok())
        return st;
  direct_elements_ = 0;
  for (std::size_t i = 0; i < nrecv; ++i)
    if (single_copy_.reads(i))
      direct_elements_ += single_copy_.copy(i, staging + static_cast<std::size_t>(receive_slot_[i]) * box_bytes,
                                            target_box_, elem_bytes_);
  for (const Kept& k : kept_)
    copy_region(static_cast<const unsigned char*>(src), source_box_,
                staging + static_cast<std::size_t>(k.member) * box_bytes, target_box_, k.region,
                elem_bytes_);
  if (Status st = single_copy_.release(&requests_.back(), what); !st.ok()) return st;
  dst_ = dst;
  staging_ = staging;
  split_.started(src, source_bytes());
  return {};
}

Status ReducingExchange::complete(bool block, const char* what) {
  bool arrived = false;
  if (Status st = split_.advance(requests_, block, &arrived, what); !st.ok() || !arrived) return st;
  const std::size_t box_bytes = target_bytes();
  if (designated_) local::reduce_blocks(dtype_, op_, staging_, box_elements(target_box_), static_cast<std::size_t>(group_size_), dst_);
  else if (box_bytes > 0) local::fill_identity(dtype_, op_, dst_, box_elements(target_box_));
  return {};
}

}  // namespace redist
