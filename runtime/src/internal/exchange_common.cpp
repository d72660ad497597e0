#include "internal/exchange_common.hpp"

#include <climits>
#include <cstring>
#include <string>

namespace redist::exchange_internal {

using backend::mpi_status;
using backend::prefixed;

namespace {

std::string str(long long v) { return std::to_string(v); }

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

}  // namespace

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

// A committed datatype for `region` inside the dense local array of `array`.
Status subarray(const Box& array, const Box& region, MPI_Datatype element, MPI_Datatype* out,
                const char* what) {
  int sizes[kMaxRank], subsizes[kMaxRank], starts[kMaxRank];
  for (int d = 0; d < array.ndim; ++d) {
    sizes[d] = static_cast<int>(array.hi[d] - array.lo[d]);
    subsizes[d] = static_cast<int>(region.hi[d] - region.lo[d]);
    starts[d] = static_cast<int>(region.lo[d] - array.lo[d]);
  }
  if (Status st = mpi_status(MPI_Type_create_subarray(array.ndim, sizes, subsizes, starts,
                                                      MPI_ORDER_C, element, out),
                             what);
      !st.ok())
    return st;
  return mpi_status(MPI_Type_commit(out), what);
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

}  // namespace redist::exchange_internal
