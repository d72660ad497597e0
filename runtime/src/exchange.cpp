#include "redist/exchange.hpp"

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;

namespace {

// The exchange owns its communicator and sends at most one message per pair
// of ranks, so one tag suffices.
constexpr int kExchangeTag = 0x7ed2;

std::string str(long long v) { return std::to_string(v); }

// Subarray datatypes take int extents.
Status check_int_extents(const Box& box, const char* what) {
  for (int d = 0; d < box.ndim; ++d)
    if (box.hi[d] - box.lo[d] > static_cast<std::size_t>(INT_MAX))
      return {Errc::too_large, std::string(what) + " local extent of dim " + str(d) +
                                   " exceeds MPI's int count"};
  return {};
}

// A committed datatype for `region` inside the dense local array of `array`.
Status subarray(const Box& array, const Box& region, MPI_Datatype element, MPI_Datatype* out) {
  int sizes[kMaxRank], subsizes[kMaxRank], starts[kMaxRank];
  for (int d = 0; d < array.ndim; ++d) {
    sizes[d] = static_cast<int>(array.hi[d] - array.lo[d]);
    subsizes[d] = static_cast<int>(region.hi[d] - region.lo[d]);
    starts[d] = static_cast<int>(region.lo[d] - array.lo[d]);
  }
  if (Status st = mpi_status(MPI_Type_create_subarray(array.ndim, sizes, subsizes, starts,
                                                      MPI_ORDER_C, element, out),
                             "Exchange::create");
      !st.ok())
    return st;
  return mpi_status(MPI_Type_commit(out), "Exchange::create");
}

// Copies `region` of the local array of box `from` into the local array of
// box `to` with one memcpy per contiguous run: the region's last dim, joined
// with the dims after it that the region spans whole in both arrays.
void copy_region(const unsigned char* src, const Box& from, unsigned char* dst, const Box& to,
                 const Box& region, std::size_t elem_bytes) {
  const int ndim = region.ndim;
  if (box_elements(region) == 0) return;
  auto whole = [&](int d) {
    return region.lo[d] == from.lo[d] && region.hi[d] == from.hi[d] && region.lo[d] == to.lo[d] &&
           region.hi[d] == to.hi[d];
  };
  int run_dim = ndim - 1;  // the outermost dim of a run
  std::size_t run = elem_bytes;
  while (run_dim > 0 && whole(run_dim)) run *= region.hi[run_dim] - region.lo[run_dim], --run_dim;
  run *= region.hi[run_dim] - region.lo[run_dim];
  std::size_t index[kMaxRank];
  for (int d = 0; d < ndim; ++d) index[d] = region.lo[d];
  auto offset = [&](const Box& box) {
    std::size_t off = 0;
    for (int d = 0; d < ndim; ++d) off = off * (box.hi[d] - box.lo[d]) + (index[d] - box.lo[d]);
    return off * elem_bytes;
  };
  for (;;) {
    std::memcpy(dst + offset(to), src + offset(from), run);
    int d = run_dim - 1;
    while (d >= 0 && index[d] + 1 == region.hi[d]) index[d] = region.lo[d], --d;
    if (d < 0) return;
    ++index[d];
  }
}

}  // namespace

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
  }
  return *this;
}

Exchange::~Exchange() { release(); }

void Exchange::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized) {
    for (MPI_Datatype& t : types_) MPI_Type_free(&t);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  comm_ = MPI_COMM_NULL;
  types_.clear();
}

Status Exchange::create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                        const PlacedMesh& target, const BlockLayout& target_layout,
                        std::size_t elem_bytes, Exchange* out) {
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
    local = check_int_extents(ex.source_box_, "Exchange::create: source");
    if (local.ok()) local = check_int_extents(ex.target_box_, "Exchange::create: target");
  }
  const backend::Agreed agreed[] = {
      {backend::exchange_digest(source, source_layout, target, target_layout, elem_bytes),
       "ranks passed different meshes, layouts or element sizes"}};
  if (Status st = backend::agree(world, std::move(local), "Exchange::create", agreed, 1); !st.ok())
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
    if (built.ok()) built = subarray(ex.target_box_, t.region, element, &ex.types_.back());
  }
  for (const backend::Transfer& t : peers.sends) {
    ex.sends_.push_back({t.rank, box_elements(t.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.source_box_, t.region, element, &ex.types_.back());
  }
  MPI_Type_free(&element);
  // A datatype MPI refused on one rank must not leave the others with an
  // exchange that would wait for it.
  if (Status st = backend::agree(ex.comm_, std::move(built), "Exchange::create"); !st.ok()) return st;
  ex.requests_.assign(ex.types_.size(), MPI_REQUEST_NULL);
  *out = std::move(ex);
  return {};
}

Status Exchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, "Exchange::run: exchange is empty (not created or moved from)"};
  Status local = local::check_buffer(src, src_bytes, source_bytes(), "source");
  if (local.ok()) local = local::check_buffer(dst, dst_bytes, target_bytes(), "destination");
  if (local.ok())
    local = local::check_disjoint(src, source_bytes(), "source", dst, target_bytes(), "destination");
  if (Status st = backend::agree(comm_, prefixed("Exchange::run", std::move(local)), "Exchange::run");
      !st.ok())
    return st;

  // Receives are posted first so that every send finds its receive posted.
  const std::size_t nrecv = receives_.size();
  for (std::size_t i = 0; i < nrecv; ++i)
    if (Status st = mpi_status(MPI_Irecv(dst, 1, types_[i], receives_[i].rank, kExchangeTag, comm_,
                                         &requests_[i]),
                               "Exchange::run");
        !st.ok())
      return st;
  for (std::size_t i = 0; i < sends_.size(); ++i)
    if (Status st = mpi_status(MPI_Isend(src, 1, types_[nrecv + i], sends_[i].rank, kExchangeTag,
                                         comm_, &requests_[nrecv + i]),
                               "Exchange::run");
        !st.ok())
      return st;
  copy_region(static_cast<const unsigned char*>(src), source_box_,
              static_cast<unsigned char*>(dst), target_box_, kept_, elem_bytes_);
  return mpi_status(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                                MPI_STATUSES_IGNORE),
                    "Exchange::run");
}

}  // namespace redist
