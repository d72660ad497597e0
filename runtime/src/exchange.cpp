#include "redist/exchange.hpp"

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;

namespace {

// The exchange owns its communicator and sends at most one message per pair
// of ranks, so one tag suffices.
constexpr int kExchangeTag = 0x7ed2;

std::string str(long long v) { return std::to_string(v); }

// One side of the exchange: a layout on its placed mesh, with the mesh
// position of every world rank (-1 outside) and the block every position
// holds, numbered (mixed radix of the block indices over the block counts)
// so that the peer search compares integers.
class Side {
 public:
  Side(const PlacedMesh& mesh, const BlockLayout& layout, int world_size)
      : mesh_(mesh), layout_(layout), position_of_(static_cast<std::size_t>(world_size), -1) {
    for (int p = 0; p < mesh.size(); ++p) {
      position_of_[static_cast<std::size_t>(mesh.ranks[p])] = p;
      std::size_t index[kMaxRank];
      for (int d = 0; d < layout.ndim; ++d) index[d] = block_index(layout, mesh, p, d);
      block_of_.push_back(block_number(index));
    }
  }
  const PlacedMesh& mesh() const { return mesh_; }
  int position_of(int world_rank) const { return position_of_[static_cast<std::size_t>(world_rank)]; }
  std::size_t block_of(int position) const { return block_of_[static_cast<std::size_t>(position)]; }
  // Whether world rank r's box on this side is block `block`; for a
  // non-empty region of that block, whether r's box contains the region.
  bool rank_has_block(int r, std::size_t block) const {
    const int p = position_of(r);
    return p >= 0 && block_of(p) == block;
  }
  Box box_of_rank(int r) const {
    const int p = position_of(r);
    return p < 0 ? Box{layout_.ndim, {}, {}} : block_box(layout_, mesh_, p);
  }
  Box block_box_at(const std::size_t* index) const { return block_at(layout_, mesh_, index); }
  std::size_t block_size(int d) const { return redist::block_size(layout_, mesh_, d); }
  std::size_t block_number(const std::size_t* index) const {
    std::size_t n = 0;
    for (int d = 0; d < layout_.ndim; ++d) n = n * block_count(layout_, mesh_, d) + index[d];
    return n;
  }
  std::size_t blocks() const {
    std::size_t n = 1;
    for (int d = 0; d < layout_.ndim; ++d) n *= block_count(layout_, mesh_, d);
    return n;
  }

 private:
  const PlacedMesh& mesh_;
  const BlockLayout& layout_;
  std::vector<int> position_of_;
  std::vector<std::size_t> block_of_;  // by mesh position
};

using Transfer = ExchangeTransfer;

// The source positions holding `block`, in source-mesh order: how many
// there are and which one is number `k` of them (k < count).
int holder_count(const Side& source, std::size_t block) {
  int count = 0;
  for (int p = 0; p < source.mesh().size(); ++p) count += source.block_of(p) == block ? 1 : 0;
  return count;
}
int nth_holder(const Side& source, std::size_t block, int k) {
  for (int p = 0; p < source.mesh().size(); ++p)
    if (source.block_of(p) == block && k-- == 0) return p;
  return -1;
}

// What world rank `me` receives: its target box cut along the source blocks;
// a piece its own source box has is kept, every other piece comes from the
// holder the spread rule names.
void find_receives(int me, const Side& source, const Side& target, std::vector<Transfer>* receives,
                   Box* kept) {
  const Box box = target.box_of_rank(me);
  const int ndim = box.ndim;
  *kept = Box{ndim, {}, {}};
  const int my_position = target.position_of(me);
  if (box_elements(box) == 0) return;
  const std::size_t mine = target.block_of(my_position);
  std::size_t first[kMaxRank], last[kMaxRank], index[kMaxRank];
  for (int d = 0; d < ndim; ++d) {
    first[d] = box.lo[d] / source.block_size(d);
    last[d] = (box.hi[d] - 1) / source.block_size(d);
    index[d] = first[d];
  }
  for (;;) {
    const Box region = intersect(box, source.block_box_at(index));
    const std::size_t block = source.block_number(index);
    if (source.rank_has_block(me, block)) {
      *kept = region;
    } else {
      // k: my index among the needers of the region, in target-mesh order.
      int k = 0;
      for (int t = 0; t < my_position; ++t)
        if (target.block_of(t) == mine && !source.rank_has_block(target.mesh().ranks[t], block)) ++k;
      const int holder = nth_holder(source, block, k % holder_count(source, block));
      receives->push_back({source.mesh().ranks[holder], region});
    }
    int d = ndim - 1;
    while (d >= 0 && index[d] == last[d]) index[d] = first[d], --d;
    if (d < 0) break;
    ++index[d];
  }
}

// What world rank `me` sends: the inverse of find_receives, in one pass over
// the target mesh, counting the needers of each target block as it goes.
void find_sends(int me, const Side& source, const Side& target, std::vector<Transfer>* sends) {
  const int my_position = source.position_of(me);
  if (my_position < 0) return;
  const Box box = source.box_of_rank(me);
  if (box_elements(box) == 0) return;
  const std::size_t mine = source.block_of(my_position);
  const int holders = holder_count(source, mine);
  int my_turn = 0;  // my index among the holders
  while (nth_holder(source, mine, my_turn) != my_position) ++my_turn;
  std::vector<int> needers_so_far(target.blocks(), 0);
  for (int t = 0; t < target.mesh().size(); ++t) {
    const int r = target.mesh().ranks[t];
    if (source.rank_has_block(r, mine)) continue;
    const Box region = intersect(box, target.box_of_rank(r));
    if (box_elements(region) == 0) continue;
    if (needers_so_far[target.block_of(t)]++ % holders == my_turn) sends->push_back({r, region});
  }
}

Status check_shapes(const BlockLayout& source, const BlockLayout& target) {
  auto shape = [](const BlockLayout& l) {
    std::string s = "[";
    for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + str(static_cast<long long>(l.extent[d]));
    return s + "]";
  };
  bool same = source.ndim == target.ndim;
  for (int d = 0; same && d < source.ndim; ++d) same = source.extent[d] == target.extent[d];
  if (!same)
    return {Errc::invalid_argument, "source shape " + shape(source) +
                                        " differs from target shape " + shape(target)};
  return {};
}

Status validate(int world_size, const PlacedMesh& source, const BlockLayout& source_layout,
                const PlacedMesh& target, const BlockLayout& target_layout,
                std::size_t elem_bytes) {
  if (Status st = validate_placed_mesh(source, world_size); !st.ok())
    return prefixed("source mesh", st);
  if (Status st = validate_placed_mesh(target, world_size); !st.ok())
    return prefixed("target mesh", st);
  if (Status st = validate_block_layout(source_layout, source, elem_bytes); !st.ok())
    return prefixed("source layout", st);
  if (Status st = validate_block_layout(target_layout, target, elem_bytes); !st.ok())
    return prefixed("target layout", st);
  return check_shapes(source_layout, target_layout);
}

// Subarray datatypes take int extents.
Status check_int_extents(const Box& box, const char* what) {
  for (int d = 0; d < box.ndim; ++d)
    if (box.hi[d] - box.lo[d] > static_cast<std::size_t>(INT_MAX))
      return {Errc::too_large, std::string(what) + " local extent of dim " + str(d) +
                                   " exceeds MPI's int count"};
  return {};
}

// A digest of the arguments, so that ranks can compare them with one allreduce.
class Fingerprint {
 public:
  void add(std::uint64_t v) { hash_ = backend::combine_key(hash_, v); }
  void add(const PlacedMesh& m) {
    add(static_cast<std::uint64_t>(m.naxes));
    for (int a = 0; a < m.naxes && a < kMaxRank; ++a) add(static_cast<std::uint64_t>(m.axis_size[a]));
    add(m.ranks.size());
    for (int r : m.ranks) add(static_cast<std::uint64_t>(r));
  }
  void add(const BlockLayout& l) {
    add(static_cast<std::uint64_t>(l.ndim));
    for (int d = 0; d < l.ndim && d < kMaxRank; ++d) {
      add(l.extent[d]);
      add(static_cast<std::uint64_t>(l.sharding[d].count));
      for (int k = 0; k < l.sharding[d].count && k < kMaxRank; ++k)
        add(static_cast<std::uint64_t>(l.sharding[d].axis[k]));
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0;
};

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

void exchange_receives(int world_size, const PlacedMesh& source, const BlockLayout& source_layout,
                       const PlacedMesh& target, const BlockLayout& target_layout, int me,
                       std::vector<ExchangeTransfer>* receives, Box* kept) {
  const Side src(source, source_layout, world_size), tgt(target, target_layout, world_size);
  find_receives(me, src, tgt, receives, kept);
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
  Status local = prefixed("Exchange::create", validate(world_size, source, source_layout, target,
                                                        target_layout, elem_bytes));
  Exchange ex;
  std::vector<Transfer> receives, sends;
  if (local.ok()) {
    const Side src(source, source_layout, world_size), tgt(target, target_layout, world_size);
    ex.elem_bytes_ = elem_bytes;
    ex.source_box_ = src.box_of_rank(me);
    ex.target_box_ = tgt.box_of_rank(me);
    local = check_int_extents(ex.source_box_, "Exchange::create: source");
    if (local.ok()) local = check_int_extents(ex.target_box_, "Exchange::create: target");
    if (local.ok()) {
      find_receives(me, src, tgt, &receives, &ex.kept_);
      find_sends(me, src, tgt, &sends);
    }
  }
  Fingerprint fp;
  fp.add(source);
  fp.add(source_layout);
  fp.add(target);
  fp.add(target_layout);
  fp.add(elem_bytes);
  const backend::Agreed agreed[] = {
      {fp.value(), "ranks passed different meshes, layouts or element sizes"}};
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
  for (const Transfer& t : receives) {
    ex.receives_.push_back({t.rank, box_elements(t.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.target_box_, t.region, element, &ex.types_.back());
  }
  for (const Transfer& t : sends) {
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
