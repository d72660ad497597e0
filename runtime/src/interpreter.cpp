#include "redist/interpreter.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/mpi_regions.hpp"
#include "internal/shared_windows.hpp"
#include "redist/mpi_reduce.hpp"

namespace redist {

// ---- HostArrays -----------------------------------------------------------------

struct HostArrays::Published {
  backend::SharedSpan spans[kArrays];
  std::uint64_t mapped;  // 1: every array the plan reads lies in a buffer all the host maps
};

HostArrays::HostArrays() = default;

HostArrays::HostArrays(HostArrays&& other) noexcept { *this = std::move(other); }

HostArrays& HostArrays::operator=(HostArrays&& other) noexcept {
  if (this != &other) {
    free_handles();
    host_ = std::exchange(other.host_, MPI_COMM_NULL);
    host_size_ = std::exchange(other.host_size_, 0);
    active_ = std::exchange(other.active_, false);
    host_rank_of_ = std::exchange(other.host_rank_of_, {});
    published_ = std::exchange(other.published_, {});
    addresses_ = std::exchange(other.addresses_, {});
  }
  return *this;
}

HostArrays::~HostArrays() { free_handles(); }

void HostArrays::free_handles() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handle died with MPI.
  if (!finalized && host_ != MPI_COMM_NULL) MPI_Comm_free(&host_);
  host_ = MPI_COMM_NULL;
}

Status HostArrays::bind(const Mesh& mesh, const char* what) {
  free_handles();
  host_size_ = 0;
  active_ = false;
  host_rank_of_.assign(static_cast<std::size_t>(mesh.size()), -1);
  published_.clear();
  addresses_.clear();
  MPI_Comm host = MPI_COMM_NULL;
  if (Status st = backend::mpi_status(MPI_Comm_split_type(mesh.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
                                      what);
      !st.ok())
    return st;
  MPI_Comm_size(host, &host_size_);
  if (host_size_ == 1) return backend::mpi_status(MPI_Comm_free(&host), what);
  host_ = host;
  MPI_Comm_set_errhandler(host_, MPI_ERRORS_RETURN);
  // Which mesh rank each host rank is.
  std::vector<int> mesh_rank(static_cast<std::size_t>(host_size_));
  const int me = mesh.rank();
  if (Status st = backend::mpi_status(MPI_Allgather(&me, 1, MPI_INT, mesh_rank.data(), 1, MPI_INT, host_), what);
      !st.ok())
    return st;
  for (int h = 0; h < host_size_; ++h) host_rank_of_[static_cast<std::size_t>(mesh_rank[static_cast<std::size_t>(h)])] = h;
  published_.resize(static_cast<std::size_t>(host_size_));
  addresses_.resize(static_cast<std::size_t>(host_size_) * kArrays);
  return {};
}

Status HostArrays::gather(const void* const arrays[kArrays], const std::size_t needs[kArrays], const char* what) {
  active_ = false;
  if (host_ == MPI_COMM_NULL) return {};
  Published mine{};
  bool mapped = true;
  MPI_Group host_group = MPI_GROUP_NULL;
  MPI_Comm_group(host_, &host_group);
  for (int a = 0; a < kArrays; ++a) {
    mine.spans[a] = backend::find_shared(arrays[a], needs[a]);
    backend::publish(mine.spans[a]);
    if (needs[a] == 0) continue;
    for (int h = 0; mapped && h < host_size_; ++h)
      mapped = mine.spans[a].id != 0 && backend::shares_window(mine.spans[a], host_group, h);
  }
  MPI_Group_free(&host_group);
  mine.mapped = mapped ? 1 : 0;
  if (Status st = backend::mpi_status(
          MPI_Allgather(&mine, sizeof mine, MPI_BYTE, published_.data(), sizeof mine, MPI_BYTE, host_), what);
      !st.ok())
    return st;
  active_ = std::all_of(published_.begin(), published_.end(), [](const Published& p) { return p.mapped == 1; });
  if (!active_) return {};
  for (int h = 0; h < host_size_; ++h)
    for (int a = 0; a < kArrays; ++a) {
      const backend::SharedSpan& span = published_[static_cast<std::size_t>(h)].spans[a];
      addresses_[static_cast<std::size_t>(h * kArrays + a)] = span.id == 0 ? nullptr : backend::shared_address(span);
    }
  return {};
}

const unsigned char* HostArrays::array_of(int rank, Array array) const {
  return addresses_[static_cast<std::size_t>(host_rank_of_[static_cast<std::size_t>(rank)] * kArrays + array)];
}

void HostArrays::sync_windows() const {
  for (const Published& p : published_)
    for (const backend::SharedSpan& span : p.spans) backend::publish(span);
}

Status HostArrays::barrier(const char* what) const {
  sync_windows();
  Status st = backend::mpi_status(MPI_Barrier(host_), what);
  sync_windows();
  return st;
}

// ---- PlanProgram ----------------------------------------------------------------

int PlanProgram::devices() const {
  int n = 1;
  for (int s : mesh_sizes) n *= s;
  return n;
}

Status PlanInterpreter::bind(const PlanProgram* program, MPI_Comm comm, PlanInterpreter* out) {
  if (program == nullptr || out == nullptr)
    return Status(Errc::invalid_argument, "PlanInterpreter::bind: null program or out");
  Mesh mesh;
  if (Status st = Mesh::create(comm, program->mesh_sizes.data(), static_cast<int>(program->mesh_sizes.size()),
                               program->problem, &mesh);
      !st.ok())
    return st;
  if (!program->groups.empty()) {
    if (Status st = mesh.prepare(program->groups.data(), program->groups.size()); !st.ok()) return st;
  }
  HostArrays host;
  if (Status st = host.bind(mesh, "PlanInterpreter::bind"); !st.ok()) return st;
  out->program_ = program;
  out->mesh_ = std::move(mesh);
  out->host_ = std::move(host);
  out->direct_bytes_ = 0;
  return Status();
}

namespace {

// Where a workspace region (not src or dst) starts in the workspace
// (interpreter.hpp's layout).
std::size_t workspace_offset(const PlanProgram& p, PlanBuffer b) {
  switch (b) {
    case PlanBuffer::red0: return 0;
    case PlanBuffer::red1: return p.red0_bytes;
    case PlanBuffer::ping: return p.collectives_offset();
    case PlanBuffer::pong: return p.collectives_offset() + p.ping_bytes;
    case PlanBuffer::src:
    case PlanBuffer::dst: break;
  }
  return 0;
}

// A dense local array of `layout` as a box whose corner is `lo` along `dim`.
Box box_at(const Layout& layout, int dim, std::size_t lo) {
  Box box;
  box.ndim = layout.ndim;
  for (int d = 0; d < layout.ndim; ++d) box.hi[d] = layout.extent[d];
  box.lo[dim] = lo;
  box.hi[dim] += lo;
  return box;
}

}  // namespace

bool PlanInterpreter::direct(const PlanStep& step) const {
  if (!host_.active()) return false;
  switch (step.op) {
    case PlanOp::all_gather:
    case PlanOp::all_to_all:
      for (int k = 0; k < step.group.size; ++k)
        if (!host_.on_host(group_member(mesh_.rank(), step.group, k))) return false;
      return true;
    case PlanOp::all_permute:
      return host_.whole_mesh();
    default:
      return false;
  }
}

// The step's messages as copies out of the peers' input arrays, which the
// host's barrier before the step has made complete: every member reads
// what MPI would have delivered to it, into its own output.
void PlanInterpreter::run_direct(const PlanStep& s, PlanBuffer input, const void* in, void* out) {
  const PlanProgram& p = *program_;
  const int me = mesh_.rank();
  auto peer_input = [&](int rank) -> const unsigned char* {
    if (rank == me) return static_cast<const unsigned char*>(in);
    switch (input) {
      case PlanBuffer::src: return host_.array_of(rank, HostArrays::source);
      case PlanBuffer::dst: return host_.array_of(rank, HostArrays::target);
      default: return host_.array_of(rank, HostArrays::workspace) + workspace_offset(p, input);
    }
  };
  auto* into = static_cast<unsigned char*>(out);
  const Layout& l = s.layout;
  const std::size_t size = static_cast<std::size_t>(s.group.size);
  switch (s.op) {
    case PlanOp::all_gather: {
      // dst: the members' arrays, member k's at k * extent along the dimension.
      const Box whole = box_at(all_gather_out(l, s.dim_a, size), s.dim_a, 0);
      for (int k = 0; k < s.group.size; ++k) {
        const int peer = group_member(me, s.group, k);
        const Box piece = box_at(l, s.dim_a, static_cast<std::size_t>(k) * l.extent[s.dim_a]);
        backend::copy_region(peer_input(peer), piece, into, whole, piece, l.elem_bytes);
        if (peer != me) direct_bytes_ += bytes(l);
      }
      return;
    }
    case PlanOp::all_to_all: {
      // In coordinates where member k's array lies at k * extent along s:
      // dst spans every member along s and this member's chunk along t.
      const std::size_t chunk = l.extent[s.dim_b] / size;
      const auto j = static_cast<std::size_t>(mesh_.index_in(s.group));
      Box mine = box_at(all_to_all_out(l, s.dim_a, s.dim_b, size), s.dim_b, j * chunk);
      for (int k = 0; k < s.group.size; ++k) {
        const int peer = group_member(me, s.group, k);
        const Box theirs = box_at(l, s.dim_a, static_cast<std::size_t>(k) * l.extent[s.dim_a]);
        backend::copy_region(peer_input(peer), theirs, into, mine, intersect(theirs, mine), l.elem_bytes);
        if (peer != me) direct_bytes_ += bytes(l) / size;
      }
      return;
    }
    case PlanOp::all_permute: {
      const int from = s.recv_from[static_cast<std::size_t>(me)];
      std::memcpy(into, peer_input(from), bytes(l));
      if (from != me) direct_bytes_ += bytes(l);
      return;
    }
    default:
      return;
  }
}

Status PlanInterpreter::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                            void* workspace, std::size_t workspace_bytes) {
  if (program_ == nullptr) return Status(Errc::invalid_argument, "PlanInterpreter::run: not bound to a program");
  const PlanProgram& p = *program_;
  constexpr const char* kWhat = "PlanInterpreter::run";
  if (Status st = check_run(mesh_, kWhat, p.problem, p.devices(), src, src_bytes, bytes(p.src_layout), dst,
                            dst_bytes, bytes(p.tgt_layout), workspace, workspace_bytes, p.workspace_bytes());
      !st.ok())
    return st;
  direct_bytes_ = 0;
  const void* const arrays[HostArrays::kArrays] = {src, dst, workspace};
  const std::size_t needs[HostArrays::kArrays] = {bytes(p.src_layout), bytes(p.tgt_layout), p.workspace_bytes()};
  if (Status st = host_.gather(arrays, needs, kWhat); !st.ok()) return st;
  unsigned char* ws = static_cast<unsigned char*>(workspace);
  // The workspace's regions (interpreter.hpp); src is never written: the caller's source is const.
  auto out_region = [&](PlanBuffer b, void** ptr, std::size_t* len) {
    switch (b) {
      case PlanBuffer::src: *ptr = nullptr; *len = 0; return;
      case PlanBuffer::dst: *ptr = dst; *len = dst_bytes; return;
      case PlanBuffer::ping: *len = p.ping_bytes; break;
      case PlanBuffer::pong: *len = p.pong_bytes; break;
      case PlanBuffer::red0: *len = p.red0_bytes; break;
      case PlanBuffer::red1: *len = p.red1_bytes; break;
    }
    *ptr = ws + workspace_offset(p, b);
  };
  auto in_region = [&](PlanBuffer b, const void** ptr, std::size_t* len) {
    if (b == PlanBuffer::src) {
      *ptr = src;
      *len = src_bytes;
      return;
    }
    void* writable = nullptr;
    out_region(b, &writable, len);
    *ptr = writable;
  };
  void* red_scratch = ws + p.red0_bytes + p.red1_bytes;
  void* scratch = ws + workspace_offset(p, PlanBuffer::pong) + p.pong_bytes;
  // The collectives read the reductions' result as their source.
  auto run_step = [&](const PlanStep& s, PlanBuffer input) {
    const void* in = nullptr;
    void* out = nullptr;
    std::size_t in_bytes = 0, out_bytes = 0;
    in_region(input, &in, &in_bytes);
    out_region(s.output, &out, &out_bytes);
    if (direct(s)) {
      run_direct(s, input, in, out);
      return Status();
    }
    switch (s.op) {
      case PlanOp::dyn_slice:
        return dyn_slice(mesh_, s.group, s.layout, s.dim_a, in, in_bytes, out, out_bytes);
      case PlanOp::all_gather:
        return all_gather(mesh_, s.group, s.layout, s.dim_a, in, in_bytes, out, out_bytes, scratch, p.scratch_bytes);
      case PlanOp::all_to_all:
        return all_to_all(mesh_, s.group, s.layout, s.dim_a, s.dim_b, in, in_bytes, out, out_bytes, scratch,
                          p.scratch_bytes);
      case PlanOp::all_permute:
        return all_permute(mesh_, s.recv_from.data(), s.recv_from.size(), s.layout, in, in_bytes, out, out_bytes);
      case PlanOp::reduce_scatter:
        return reduce_scatter(mesh_, s.group, p.dtype, step_op(p.op), s.layout, s.dim_a, in, in_bytes, out, out_bytes, red_scratch,
                              p.red_scratch_bytes);
      case PlanOp::all_reduce:
        return all_reduce(mesh_, s.group, p.dtype, step_op(p.op), s.layout, in, in_bytes, out, out_bytes, red_scratch,
                          p.red_scratch_bytes);
      case PlanOp::add_pending:
        // max, min, avg: every member keeps the value; sum, prod: the member with coordinate 0 along the
        // new pending axis keeps it, the others hold the identity.
        if (!every_member_keeps(p.op) && group_index(mesh_.rank(), s.group) != 0)
          local::fill_identity(p.dtype, p.op, dst, num_elements(p.tgt_layout));
        return Status();
    }
    return Status(Errc::invalid_argument, "PlanInterpreter::run: unknown step");
  };
  for (const PlanStep& s : p.reductions)
    if (Status st = run_step(s, s.input); !st.ok()) return st;
  if (p.steps.empty()) {
    const void* in = nullptr;
    std::size_t in_bytes = 0;
    in_region(p.collectives_source, &in, &in_bytes);
    std::memcpy(dst, in, bytes(p.tgt_layout));
  }
  // Single copy: the host's ranks step together (interpreter.hpp).  The
  // gather above already follows every rank's filling of its source.
  const bool host_steps = host_.active() && !p.steps.empty();
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    if (host_steps && (i > 0 || !p.reductions.empty()))
      if (Status st = host_.barrier(kWhat); !st.ok()) return st;
    const PlanStep& s = p.steps[i];
    if (Status st = run_step(s, s.input == PlanBuffer::src ? p.collectives_source : s.input); !st.ok()) return st;
  }
  if (host_steps)
    if (Status st = host_.barrier(kWhat); !st.ok()) return st;
  for (const PlanStep& s : p.additions)
    if (Status st = run_step(s, s.input); !st.ok()) return st;
  if (p.op == Op::avg) local::divide(p.dtype, dst, num_elements(p.tgt_layout), p.avg_divisor);
  return Status();
}

}  // namespace redist
