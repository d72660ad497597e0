#include "internal/backend_common.hpp"

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <string>
#include <vector>

#include "redist/local.hpp"

namespace redist::backend {

namespace {

std::string str(long long v) { return std::to_string(v); }

}  // namespace

Status mpi_status(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return {};
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return {Errc::backend_error, std::string(what) + ": " + std::string(text, len)};
}

Status check_empty(const MeshGeometry& mesh, const char* what) {
  if (mesh.size() == 0)
    return {Errc::invalid_argument, std::string(what) + ": mesh is empty (not created or moved from)"};
  return {};
}

Status check_mesh_args(int comm_size, const int* axis_sizes, int naxes, const void* out,
                       Agreed* agreed) {
  Status local;
  if (out == nullptr) local = {Errc::invalid_argument, "Mesh::create: output mesh is null"};
  int devices = 0;
  if (local.ok()) local = MeshGeometry::check_axes(axis_sizes, naxes, &devices);
  if (local.ok() && comm_size != devices)
    local = {Errc::mesh_mismatch, "Mesh::create: communicator has " + str(comm_size) +
                                      " ranks but the mesh has " + str(devices) + " devices"};
  *agreed = {local.ok() ? ints_key(axis_sizes, static_cast<std::size_t>(naxes)) : 0,
             "ranks passed different axis sizes"};
  return local;
}

Status open_mesh(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                 const void* out, MPI_Comm* dup, int* rank) {
  if (comm == MPI_COMM_NULL)
    return {Errc::invalid_argument, "Mesh::create: communicator is MPI_COMM_NULL"};
  int comm_size = 0;
  if (Status st = mpi_status(MPI_Comm_size(comm, &comm_size), "Mesh::create"); !st.ok()) return st;
  Agreed agreed[kProblemAgreed + 1];
  agreed_problem(problem, agreed);
  Status local = check_mesh_args(comm_size, axis_sizes, naxes, out, &agreed[kProblemAgreed]);
  // Agreed on `comm` itself, before MPI_Comm_dup, which would wait forever
  // for a rank refused here; ranks with different axis sizes would build
  // different meshes, ranks with different problems run different steps.
  if (Status st = agree(comm, std::move(local), "Mesh::create", agreed, kProblemAgreed + 1); !st.ok())
    return st;
  if (Status st = mpi_status(MPI_Comm_dup(comm, dup), "Mesh::create"); !st.ok()) return st;
  MPI_Comm_set_errhandler(*dup, MPI_ERRORS_RETURN);
  MPI_Comm_rank(*dup, rank);
  return {};
}

namespace {

// Two ints exactly, in one word.
std::uint64_t pair_key(int a, int b) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b);
}

}  // namespace

Agreed agreed_group(Group g) {
  return {pair_key(g.stride, g.size), "members passed different groups"};
}

Agreed agreed_layout(const Layout& layout) {
  std::uint64_t h = combine_key(combine_key(0, static_cast<std::uint64_t>(layout.ndim)), layout.elem_bytes);
  for (int d = 0; d < layout.ndim && d < kMaxRank; ++d) h = combine_key(h, layout.extent[d]);
  return {h, "members passed different layouts"};
}

void agreed_problem(const ProblemDigest& problem, Agreed out[kProblemAgreed]) {
  out[0] = {problem.meshes, "ranks passed different problems: the meshes or their world ranks differ"};
  out[1] = {problem.layouts, "ranks passed different problems: the source or target layouts differ"};
  out[2] = {problem.element, "ranks passed different problems: the element types differ"};
  out[3] = {problem.plan, "ranks passed different plans (other steps, or another version of redist)"};
}

Agreed agreed_dims(int s, int t) {
  return {pair_key(s, t), "members passed different dims"};
}

namespace {

// ": ranks 1, 3 differ from rank 0" (the first few ranks, then a count),
// from an allgather of every rank's value over comm; empty if that fails.
// Only on the error path: it allocates one word per rank.
std::string differing_ranks(MPI_Comm comm, std::uint64_t value) {
  int size = 0;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || size < 1) return "";
  std::vector<std::uint64_t> values(static_cast<std::size_t>(size));
  if (MPI_Allgather(&value, 1, MPI_UINT64_T, values.data(), 1, MPI_UINT64_T, comm) != MPI_SUCCESS) return "";
  constexpr int kNamed = 8;
  std::string ranks;
  int differ = 0;
  for (int r = 1; r < size; ++r) {
    if (values[static_cast<std::size_t>(r)] == values[0]) continue;
    if (differ < kNamed) ranks += (differ == 0 ? "" : ", ") + str(r);
    ++differ;
  }
  if (differ > kNamed) ranks += " and " + str(differ - kNamed) + " more";
  return std::string(differ == 1 ? ": rank " : ": ranks ") + ranks + " differ" + (differ == 1 ? "s" : "") +
         " from rank 0";
}

}  // namespace

Status agree(AgreeOver over, Status local, const char* what, const Agreed* agreed,
             std::size_t count) {
  // One MIN-reduction gives the smallest verdict and, for each agreed value
  // v, both the smallest v and the largest (as the smallest ~v).  Every call
  // reduces all kMaxAgreed slots (0 past `count`), so ranks that reached
  // different agreements (another entry, another kind of plan) meet in one
  // allreduce of one shape and see a difference, instead of waiting.
  std::uint64_t words[kMaxAgreedWords], lo[kMaxAgreedWords];
  words[0] = local.ok() ? 1 : 0;
  // A rank with an error sends MIN's neutral element for the values, which
  // may be meaningless on it.
  constexpr std::uint64_t kNeutral = ~std::uint64_t{0};
  auto value = [&](std::size_t i) { return i < count ? agreed[i].value : 0; };
  for (std::size_t i = 0; i < kMaxAgreed; ++i) {
    words[1 + 2 * i] = local.ok() ? value(i) : kNeutral;
    words[2 + 2 * i] = local.ok() ? ~value(i) : kNeutral;
  }
  const std::size_t n = kMaxAgreedWords;
  if (over.reduce_min != nullptr) {
    if (Status st = over.reduce_min(over.context, words, n); !st.ok()) return prefixed(what, st);
    std::copy(words, words + n, lo);
  } else if (Status st = mpi_status(MPI_Allreduce(words, lo, static_cast<int>(n), MPI_UINT64_T,
                                                  MPI_MIN, over.comm),
                                    what);
             !st.ok()) {
    return st;
  }
  if (!local.ok()) return local;
  if (lo[0] == 0)
    return {Errc::remote_error, std::string(what) + ": another rank reported an error"};
  for (std::size_t i = 0; i < kMaxAgreed; ++i)
    if (lo[1 + 2 * i] != ~lo[2 + 2 * i]) {
      std::string message =
          std::string(what) + ": " +
          (i < count ? agreed[i].differ : "ranks reached different calls (plans of different kinds or versions)");
      if (over.comm != MPI_COMM_NULL) message += differing_ranks(over.comm, value(i));
      return {Errc::invalid_argument, std::move(message)};
    }
  return {};
}

Status agree_group_list(const MeshGeometry& mesh, AgreeOver comm, const Group* groups,
                        std::size_t count) {
  Status local;
  if (count > 0 && groups == nullptr)
    local = {Errc::invalid_argument, "Mesh::prepare: group list is null"};
  for (std::size_t i = 0; local.ok() && i < count; ++i)
    local = prefixed("Mesh::prepare", mesh.check_group(groups[i]));
  // Every rank must split the same groups in the same order.
  std::uint64_t list = 0;
  for (std::size_t i = 0; local.ok() && i < count; ++i)
    list = combine_key(list, agreed_group(groups[i]).value);
  const Agreed agreed[] = {{count, "ranks passed group lists of different lengths"},
                           {list, "ranks passed different group lists"}};
  return agree(comm, std::move(local), "Mesh::prepare", agreed, 2);
}

Status check_run(const MeshGeometry& mesh, AgreeOver comm, bool agreement, const char* what,
                 const ProblemDigest& problem, int devices, const void* src, std::size_t src_bytes, std::size_t src_need,
                 const void* dst, std::size_t dst_bytes, std::size_t dst_need,
                 const void* workspace, std::size_t workspace_bytes, std::size_t workspace_need) {
  using local::check_buffer;
  using local::check_disjoint;
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  Status local;
  if (mesh.size() != devices)
    local = {Errc::mesh_mismatch, "the mesh has " + str(mesh.size()) + " devices, the plan " +
                                      str(devices)};
  if (local.ok()) local = check_buffer(src, src_bytes, src_need, "source");
  if (local.ok()) local = check_buffer(dst, dst_bytes, dst_need, "destination");
  if (local.ok()) local = check_buffer(workspace, workspace_bytes, workspace_need, "workspace");
  if (local.ok()) local = check_disjoint(src, src_need, "source", dst, dst_need, "destination");
  if (local.ok())
    local = check_disjoint(src, src_need, "source", workspace, workspace_need, "workspace");
  if (local.ok())
    local = check_disjoint(dst, dst_need, "destination", workspace, workspace_need, "workspace");
  // Ranks running different plans would wait for each other's steps.
  std::uint64_t plan = combine_key(0, static_cast<std::uint64_t>(devices));
  for (std::size_t need : {src_need, dst_need, workspace_need}) plan = combine_key(plan, need);
  Agreed agreed[kProblemAgreed + 1];
  agreed_problem(problem, agreed);
  agreed[kProblemAgreed] = {plan, "ranks run plans of different sizes"};
  local = prefixed(what, std::move(local));
  return mesh.size() > 1 && agreement ? agree(comm, std::move(local), what, agreed, kProblemAgreed + 1) : local;
}

Status split_group(MPI_Comm comm, int rank, Group g, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  if (Status st = mpi_status(MPI_Comm_split(comm, group_member(rank, g, 0), group_index(rank, g), out),
                             "Mesh::prepare");
      !st.ok())
    return st;
  MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
  return {};
}

Status not_prepared(Group g) {
  return {Errc::mesh_mismatch, "group (stride " + str(g.stride) + ", size " + str(g.size) +
                                   ") was not prepared (call Mesh::prepare first)"};
}

Status check_collective(const MeshGeometry& mesh, Group g, const char* what) {
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  return prefixed(what, mesh.check_group(g));
}

Status check_count(std::size_t bytes, std::size_t max_message) {
  if (bytes > max_message)
    return {Errc::too_large,
            "message of " + std::to_string(bytes) + " bytes exceeds the backend's largest message of " +
                std::to_string(max_message) + " bytes"};
  return {};
}

Status check_buffers(const void* src, std::size_t src_bytes, std::size_t src_need, void* dst,
                     std::size_t dst_bytes, std::size_t dst_need, void* scratch,
                     std::size_t scratch_bytes, std::size_t scratch_need) {
  using local::check_buffer;
  using local::check_disjoint;
  if (Status st = check_buffer(src, src_bytes, src_need, "source"); !st.ok()) return st;
  if (Status st = check_buffer(dst, dst_bytes, dst_need, "destination"); !st.ok()) return st;
  if (Status st = check_buffer(scratch, scratch_bytes, scratch_need, "scratch"); !st.ok())
    return st;
  if (Status st = check_disjoint(src, src_need, "source", dst, dst_need, "destination"); !st.ok())
    return st;
  if (Status st = check_disjoint(src, src_need, "source", scratch, scratch_need, "scratch");
      !st.ok())
    return st;
  return check_disjoint(dst, dst_need, "destination", scratch, scratch_need, "scratch");
}

Status check_all_gather(const Layout& layout, int dim, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch,
                        std::size_t max_message) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, dim, "dim"); !st.ok()) return st;
  const std::size_t in = bytes(layout);
  if (Status st = check_count(in, max_message); !st.ok()) return st;
  return check_buffers(src, src_bytes, in, dst, dst_bytes, in * size, scratch, scratch_bytes,
                       need_scratch);
}

Agreed agreed_reduction(Dtype dtype, Op op) {
  return {(static_cast<std::uint64_t>(dtype) << 8) | static_cast<std::uint64_t>(op),
          "members passed different element types or operations"};
}

namespace {

Status check_element_type(const Layout& layout, Dtype dtype, Op op) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (!op_computes(dtype, op))
    return {Errc::invalid_argument, std::string("element type ") + dtype_name(dtype) + " has no operation " +
                                        (op_name(op)[0] == '?' ? std::to_string(static_cast<int>(op)) : op_name(op))};
  if (layout.elem_bytes != dtype_bytes(dtype))
    return {Errc::invalid_argument, std::string("element type ") + dtype_name(dtype) + " has " +
                                        std::to_string(dtype_bytes(dtype)) +
                                        " bytes but the layout's elements have " +
                                        std::to_string(layout.elem_bytes)};
  return {};
}

}  // namespace

Status check_reduce_scatter(const Layout& layout, int dim, std::size_t size, Dtype dtype, Op op,
                            const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                            void* scratch, std::size_t scratch_bytes, std::size_t need_scratch,
                            std::size_t max_message) {
  if (Status st = check_element_type(layout, dtype, op); !st.ok()) return st;
  if (Status st = local::check_dim(layout, dim, "dim"); !st.ok()) return st;
  if (layout.extent[dim] % size != 0)
    return {Errc::invalid_argument, "extent " + std::to_string(layout.extent[dim]) + " of dim " +
                                        str(dim) + " is not divisible by the group size " +
                                        std::to_string(size)};
  const std::size_t total = bytes(layout);
  if (Status st = check_count(total / size, max_message); !st.ok()) return st;
  return check_buffers(src, src_bytes, total, dst, dst_bytes, total / size, scratch, scratch_bytes,
                       need_scratch);
}

Status check_all_reduce(const Layout& layout, std::size_t size, Dtype dtype, Op op, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch, std::size_t max_message) {
  if (Status st = check_element_type(layout, dtype, op); !st.ok()) return st;
  const std::size_t piece = num_elements(layout) / size * layout.elem_bytes;
  const std::size_t tail = num_elements(layout) % size * layout.elem_bytes;
  if (Status st = check_count(piece > tail ? piece : tail, max_message); !st.ok()) return st;
  const std::size_t total = bytes(layout);
  return check_buffers(src, src_bytes, total, dst, dst_bytes, total, scratch, scratch_bytes,
                       need_scratch);
}

Status check_all_to_all(const Layout& layout, int s, int t, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch,
                        std::size_t max_message) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, s, "source dim"); !st.ok()) return st;
  if (Status st = local::check_dim(layout, t, "target dim"); !st.ok()) return st;
  if (s == t) return {Errc::invalid_argument, "source and target dim are both " + str(s)};
  if (layout.extent[t] % size != 0)
    return {Errc::invalid_argument, "extent " + std::to_string(layout.extent[t]) + " of dim " +
                                        str(t) + " is not divisible by the group size " +
                                        std::to_string(size)};
  const std::size_t total = bytes(layout);
  if (Status st = check_count(total / size, max_message); !st.ok()) return st;
  return check_buffers(src, src_bytes, total, dst, dst_bytes, total, scratch, scratch_bytes,
                       need_scratch);
}

namespace {

// all_permute's checks on this rank, messages without the operation.
Status check_permute_locally(const MeshGeometry& mesh, const int* recv_from,
                             std::size_t table_len, const Layout& layout, const void* src,
                             std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                             std::size_t max_message, std::size_t* total) {
  const int size = mesh.size();
  if (recv_from == nullptr) return {Errc::invalid_argument, "table is null"};
  if (table_len != static_cast<std::size_t>(size))
    return {Errc::mesh_mismatch, "table has " + std::to_string(table_len) +
                                     " entries but the mesh has " + str(size) + " devices"};
  for (int r = 0; r < size; ++r)
    if (recv_from[r] < 0 || recv_from[r] >= size)
      return {Errc::invalid_argument, "rank " + str(r) + " receives from rank " +
                                          str(recv_from[r]) + ", which is not in the mesh"};
  if (Status st = validate_layout(layout); !st.ok()) return st;
  *total = bytes(layout);
  if (Status st = check_count(*total, max_message); !st.ok()) return st;
  if (Status st = local::check_buffer(src, src_bytes, *total, "source"); !st.ok()) return st;
  if (Status st = local::check_buffer(dst, dst_bytes, *total, "destination"); !st.ok()) return st;
  return local::check_disjoint(src, *total, "source", dst, *total, "destination");
}

}  // namespace

Status check_all_permute(const MeshGeometry& mesh, AgreeOver comm, bool agreement,
                         const int* recv_from, std::size_t table_len, const Layout& layout,
                         const void* src, std::size_t src_bytes, void* dst,
                         std::size_t dst_bytes, std::size_t max_message, std::size_t* total) {
  if (Status st = check_empty(mesh, "all_permute"); !st.ok()) return st;
  Status local = check_permute_locally(mesh, recv_from, table_len, layout, src, src_bytes, dst,
                                       dst_bytes, max_message, total);
  // A table that differs on one rank makes ranks wait for messages never
  // sent; a layout that differs, receive fewer bytes than were sent.
  const Agreed agreed[] = {agreed_layout(layout),
                           {local.ok() ? ints_key(recv_from, table_len) : 0,
                            "ranks passed different tables"}};
  return verdict(std::move(local), "all_permute", mesh.size() > 1 && agreement, comm, agreed);
}

}  // namespace redist::backend
