// The executor of a staged plan (redist/staged.hpp).
#include "redist/staged.hpp"

#include <string>
#include <utility>

#include "internal/backend_common.hpp"

namespace redist {

using backend::agree;
using backend::mpi_status;
using backend::prefixed;

Communicator::Communicator(Communicator&& other) noexcept : comm_(std::exchange(other.comm_, MPI_COMM_NULL)) {}

// The communicator this one owned goes with `other`, which frees it.
Communicator& Communicator::operator=(Communicator&& other) noexcept {
  std::swap(comm_, other.comm_);
  return *this;
}

Communicator::~Communicator() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

Status Communicator::duplicate(MPI_Comm comm, const char* what, Communicator* out) {
  *out = Communicator();
  return mpi_status(MPI_Comm_dup(comm, &out->comm_), what);
}

Status Communicator::first_ranks(MPI_Comm world, int ranks, const char* what, Communicator* out) {
  *out = Communicator();
  int rank = 0;
  if (Status st = mpi_status(MPI_Comm_rank(world, &rank), what); !st.ok()) return st;
  return mpi_status(MPI_Comm_split(world, rank < ranks ? 0 : MPI_UNDEFINED, rank, &out->comm_), what);
}

Status StagedPart::advance(bool, bool* done) {
  *done = true;
  return {};
}

Status StagedPart::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
                       std::size_t workspace_bytes, const char* what) {
  if (Status st = start(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, what); !st.ok()) return st;
  bool done = false;
  return advance(true, &done);
}

Status CollectivesPart::bind(MPI_Comm world, const char* what) {
  Communicator mesh;
  Status st = Communicator::first_ranks(world, devices_, what, &mesh);
  member_ = mesh.get() != MPI_COMM_NULL;
  if (st.ok() && member_) st = bind_mesh(mesh.get());
  return agree(world, std::move(st), what);
}

Status CollectivesPart::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                              void* workspace, std::size_t workspace_bytes, const char*) {
  return member_ ? run_on_mesh(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes) : Status();
}

std::unique_ptr<StagedPart> MeshPart::make(int devices, std::size_t source_bytes, std::size_t target_bytes,
                                           CreateMesh create_mesh, Run run) {
  return std::make_unique<MeshPart>(devices, source_bytes, target_bytes, create_mesh, run);
}

std::unique_ptr<StagedPart> ExchangePart::make(PlacedMesh source, BlockLayout source_layout, PlacedMesh target,
                                               BlockLayout target_layout, std::size_t elem_bytes,
                                               ProblemDigest problem) {
  return std::make_unique<ExchangePart>(std::move(source), source_layout, std::move(target), target_layout, elem_bytes,
                                        problem);
}

ExchangePart::ExchangePart(PlacedMesh source, BlockLayout source_layout, PlacedMesh target, BlockLayout target_layout,
                           std::size_t elem_bytes, ProblemDigest problem)
    : source_(std::move(source)),
      target_(std::move(target)),
      source_layout_(source_layout),
      target_layout_(target_layout),
      elem_bytes_(elem_bytes),
      problem_(problem) {}

Status ExchangePart::bind(MPI_Comm world, const char*) {
  return Exchange::create(world, source_, source_layout_, target_, target_layout_, elem_bytes_, problem_, &exchange_);
}

Status ExchangePart::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void*,
                           std::size_t, const char*) {
  return exchange_.start(src, src_bytes, dst, dst_bytes);
}

Status ExchangePart::advance(bool block, bool* done) {
  *done = block;
  return block ? exchange_.wait() : exchange_.test(done);
}

Staged::Staged(std::size_t mid_bytes, std::size_t workspace_bytes, std::unique_ptr<StagedPart> first,
               std::unique_ptr<StagedPart> second)
    : mid_bytes_(mid_bytes), workspace_bytes_(workspace_bytes), first_(std::move(first)), second_(std::move(second)) {}

Status Staged::create(MPI_Comm world, const char* what, std::size_t mid_bytes, std::size_t workspace_bytes,
                      std::unique_ptr<StagedPart> first, std::unique_ptr<StagedPart> second, Staged* out) {
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": null out"};
  *out = Staged(mid_bytes, workspace_bytes, std::move(first), std::move(second));
  return out->bind(world, what);
}

Status Staged::bind(MPI_Comm world, const char* what) {
  if (world == MPI_COMM_NULL) return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  if (Status st = Communicator::duplicate(world, what, &world_); !st.ok()) return st;
  Status local;
  if (first_ == nullptr || second_ == nullptr) local = Status(Errc::invalid_argument, "a staged plan without two parts");
  else if (workspace_bytes_ < mid_bytes_)
    local = Status(Errc::invalid_argument, "a staged plan's workspace is shorter than its intermediate");
  if (Status st = agree(world_.get(), prefixed(what, std::move(local)), what); !st.ok()) return st;
  if (Status st = first_->bind(world_.get(), what); !st.ok()) return st;
  return second_->bind(world_.get(), what);
}

Status Staged::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
                     std::size_t workspace_bytes, const char* what) {
  if (world_.get() == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": the staged plan is empty (not created or moved from)"};
  const std::size_t have = workspace == nullptr ? 0 : workspace_bytes;
  Status fits;
  if (have < workspace_bytes_)
    fits = Status(Errc::buffer_too_small, "the workspace has " + std::to_string(have) + " bytes, the plan needs " +
                                              std::to_string(workspace_bytes_));
  if (Status st = agree(world_.get(), prefixed(what, std::move(fits)), what); !st.ok()) return st;
  unsigned char* mid = static_cast<unsigned char*>(workspace);
  unsigned char* rest = mid + mid_bytes_;  // null + 0 without a workspace
  const std::size_t rest_bytes = have - mid_bytes_;
  const std::size_t mid_out = first_->target_bytes(), mid_in = second_->source_bytes();
  if (Status st = agree(world_.get(),
                        first_->run(src, src_bytes, mid_out ? mid : nullptr, mid_out, rest, rest_bytes, what), what);
      !st.ok())
    return st;
  return agree(world_.get(), second_->start(mid_in ? mid : nullptr, mid_in, dst, dst_bytes, rest, rest_bytes, what),
               what);
}

Status Staged::advance(bool block, bool* done) {
  if (second_ == nullptr) return {Errc::invalid_argument, "Staged: the staged plan is empty"};
  return second_->advance(block, done);
}

std::size_t Staged::direct_bytes() const {
  return (first_ ? first_->direct_bytes() : 0) + (second_ ? second_->direct_bytes() : 0);
}

}  // namespace redist
