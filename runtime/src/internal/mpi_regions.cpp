#include "internal/mpi_regions.hpp"

#include <climits>
#include <cstring>
#include <string>

#include "internal/backend_common.hpp"

namespace redist::backend {

// Subarray datatypes take int extents.
Status check_int_extents(const Box& box, const char* what) {
  for (int d = 0; d < box.ndim; ++d)
    if (box.hi[d] - box.lo[d] > static_cast<std::size_t>(INT_MAX))
      return {Errc::too_large, std::string(what) + " local extent of dim " + std::to_string(d) +
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

}  // namespace redist::backend
