#include "redist/mpi_reduce.hpp"

#include <climits>
#include <cstring>
#include <string>

#include "internal/backend_common.hpp"
#include "redist/local.hpp"

namespace redist {

using namespace backend;

namespace {

// Messages go as MPI_BYTE with an int count.
constexpr std::size_t kMaxMessage = INT_MAX;

// The group checks of both reductions: the group is valid and prepared;
// *comm is then its communicator.
Status group_setup(const Mesh& mesh, Group g, MPI_Comm* comm) {
  *comm = MPI_COMM_NULL;
  if (Status st = mesh.check_group(g); !st.ok()) return st;
  return mesh.group_comm(g, comm);
}

Status alltoall_bytes(const void* send, void* recv, std::size_t block, MPI_Comm comm,
                      const char* what) {
  const int count = static_cast<int>(block);
  return mpi_status(MPI_Alltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE, comm), what);
}

}  // namespace

Status reduce_scatter(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, int dim,
                      const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                      void* scratch, std::size_t scratch_bytes) {
  constexpr const char* what = "reduce_scatter";
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  MPI_Comm comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t total = bytes(layout);
  if (local.ok())
    local = check_reduce_scatter(layout, dim, size, dtype, op, src, src_bytes, dst, dst_bytes, scratch,
                                 scratch_bytes, reduce_scatter_scratch_bytes(layout, dim, size),
                                 kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_dims(dim),
                           agreed_reduction(dtype, op)};
  if (Status st = verdict(std::move(local), what, mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  if (g.size == 1) {
    std::memcpy(dst, src, total);
    return {};
  }
  const std::size_t chunk = total / size;
  // Chunks along dim are contiguous iff nothing precedes dim; otherwise they
  // are packed into scratch and exchanged there (MPI_IN_PLACE, the same
  // choice on every member since it depends on the agreed layout only).
  if (outer_count(layout, dim) > 1) {
    if (Status st = local::pack_chunks(layout, dim, size, src, total, scratch, total); !st.ok())
      return prefixed(what, st);
    if (Status st = alltoall_bytes(MPI_IN_PLACE, scratch, chunk, comm, what); !st.ok()) return st;
  } else if (Status st = alltoall_bytes(src, scratch, chunk, comm, what); !st.ok()) {
    return st;
  }
  local::reduce_blocks(dtype, op, scratch, chunk / layout.elem_bytes, size, dst);
  return {};
}

Status all_reduce(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  constexpr const char* what = "all_reduce";
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  MPI_Comm comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t total = bytes(layout);
  const std::size_t elem = layout.elem_bytes;
  const std::size_t piece = num_elements(layout) / size * elem;
  const std::size_t tail = num_elements(layout) % size * elem;
  if (local.ok())
    local = check_all_reduce(layout, size, dtype, op, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, all_reduce_scratch_bytes(layout, size), kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_reduction(dtype, op)};
  if (Status st = verdict(std::move(local), what, mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  if (g.size == 1) {
    std::memcpy(dst, src, total);
    return {};
  }
  auto* out = static_cast<unsigned char*>(dst);
  const auto* in = static_cast<const unsigned char*>(src);
  if (piece > 0) {
    // Reduce-scatter of the pieces, then an all-gather of the sums in place.
    const std::size_t mine = static_cast<std::size_t>(mesh.index_in(g)) * piece;
    if (Status st = alltoall_bytes(src, scratch, piece, comm, what); !st.ok()) return st;
    local::reduce_blocks(dtype, op, scratch, piece / elem, size, out + mine);
    const int count = static_cast<int>(piece);
    if (Status st = mpi_status(
            MPI_Allgather(MPI_IN_PLACE, count, MPI_BYTE, out, count, MPI_BYTE, comm), what);
        !st.ok())
      return st;
  }
  if (tail > 0) {
    // Every member adds the few tail elements itself.
    const int count = static_cast<int>(tail);
    if (Status st = mpi_status(MPI_Allgather(in + size * piece, count, MPI_BYTE, scratch, count,
                                             MPI_BYTE, comm),
                               what);
        !st.ok())
      return st;
    local::reduce_blocks(dtype, op, scratch, tail / elem, size, out + size * piece);
  }
  return {};
}

}  // namespace redist
