#include "internal/mpi_regions.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "internal/backend_common.hpp"

namespace redist::backend {

namespace {

// MPI counts are ints (Open MPI here has no MPI-4 large counts): a longer
// repetition is built from blocks of kMaxCount.  The small-blocks test build
// sets it to a few elements, so that small arrays take that path.
#ifdef REDIST_MPI_BLOCK_BYTES
constexpr std::size_t kMaxCount = REDIST_MPI_BLOCK_BYTES;
#else
constexpr std::size_t kMaxCount = INT_MAX;
#endif

void free_type(MPI_Datatype* t) {
  if (*t != MPI_DATATYPE_NULL) MPI_Type_free(t);
}

// `count` copies of `inner`, `stride` bytes apart, as one datatype: above
// kMaxCount, whole blocks of kMaxCount copies and a remainder.
Status repeat(std::size_t count, MPI_Aint stride, MPI_Datatype inner, MPI_Datatype* out, const char* what) {
  if (count <= kMaxCount)
    return mpi_status(MPI_Type_create_hvector(static_cast<int>(count), 1, stride, inner, out), what);
  const std::size_t blocks = count / kMaxCount, rest = count % kMaxCount;
  const MPI_Aint block_stride = stride * static_cast<MPI_Aint>(kMaxCount);
  MPI_Datatype block = MPI_DATATYPE_NULL, whole = MPI_DATATYPE_NULL, tail = MPI_DATATYPE_NULL;
  Status st = repeat(kMaxCount, stride, inner, &block, what);
  if (st.ok()) st = repeat(blocks, block_stride, block, &whole, what);
  if (st.ok()) st = repeat(rest, stride, inner, &tail, what);
  if (st.ok()) {
    const int lengths[2] = {1, 1};
    const MPI_Aint displacements[2] = {0, block_stride * static_cast<MPI_Aint>(blocks)};
    const MPI_Datatype types[2] = {whole, tail};
    st = mpi_status(MPI_Type_create_struct(2, lengths, displacements, types, out), what);
  }
  free_type(&block);
  free_type(&whole);
  free_type(&tail);
  return st;
}

}  // namespace

// A committed datatype for `region` inside the dense local array of `array`:
// nested strided repetitions, innermost dimension first, placed at the
// region's corner, so that no extent or offset is limited to an int.
Status subarray(const Box& array, const Box& region, MPI_Datatype element, MPI_Datatype* out,
                const char* what) {
  MPI_Aint lower = 0, element_bytes = 0;
  if (Status st = mpi_status(MPI_Type_get_extent(element, &lower, &element_bytes), what); !st.ok()) return st;
  MPI_Datatype rows = element;
  MPI_Aint stride = element_bytes, corner = 0;
  Status st;
  for (int d = array.ndim; st.ok() && d-- > 0;) {
    MPI_Datatype next = MPI_DATATYPE_NULL;
    st = repeat(region.hi[d] - region.lo[d], stride, rows, &next, what);
    if (rows != element) free_type(&rows);
    rows = next;
    corner += static_cast<MPI_Aint>(region.lo[d] - array.lo[d]) * stride;
    stride *= static_cast<MPI_Aint>(array.hi[d] - array.lo[d]);
  }
  if (st.ok()) {
    const int length = 1;
    st = mpi_status(MPI_Type_create_struct(1, &length, &corner, &rows, out), what);
  }
  if (rows != element) free_type(&rows);
  if (!st.ok()) return st;
  return mpi_status(MPI_Type_commit(out), what);
}

// An hindexed type over the runs, each cut into blocks of at most
// kMaxCount elements (an int each).
Status runs_type(const std::vector<Run>& runs, MPI_Datatype element, MPI_Datatype* out, const char* what) {
  MPI_Aint lower = 0, element_bytes = 0;
  if (Status st = mpi_status(MPI_Type_get_extent(element, &lower, &element_bytes), what); !st.ok()) return st;
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  for (const Run& run : runs)
    for (std::size_t done = 0; done < run.length;) {
      const std::size_t block = std::min(run.length - done, kMaxCount);
      lengths.push_back(static_cast<int>(block));
      displacements.push_back(static_cast<MPI_Aint>(run.offset + done) * element_bytes);
      done += block;
    }
  if (lengths.size() > static_cast<std::size_t>(INT_MAX))
    return {Errc::too_large, std::string(what) + ": a message of more than INT_MAX runs"};
  if (Status st = mpi_status(MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(),
                                                      displacements.data(), element, out),
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
