#include "redist/interpreter.hpp"

#include <cstring>

#include "redist/mpi_reduce.hpp"

namespace redist {

int PlanProgram::devices() const {
  int n = 1;
  for (int s : mesh_sizes) n *= s;
  return n;
}

std::size_t PlanProgram::avg_divisor() const {
  std::size_t n = 1;
  for (const PlanStep& s : reductions) n *= static_cast<std::size_t>(s.group.size);
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
  out->program_ = program;
  out->mesh_ = std::move(mesh);
  return Status();
}

Status PlanInterpreter::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                            void* workspace, std::size_t workspace_bytes) const {
  if (program_ == nullptr) return Status(Errc::invalid_argument, "PlanInterpreter::run: not bound to a program");
  const PlanProgram& p = *program_;
  if (Status st = check_run(mesh_, "PlanInterpreter::run", p.problem, p.devices(), src, src_bytes, bytes(p.src_layout), dst,
                            dst_bytes, bytes(p.tgt_layout), workspace, workspace_bytes, p.workspace_bytes());
      !st.ok())
    return st;
  unsigned char* ws = static_cast<unsigned char*>(workspace);
  unsigned char* collectives_ws = ws + p.collectives_offset();
  // The workspace's regions (interpreter.hpp); src is never written: the caller's source is const.
  auto out_region = [&](PlanBuffer b, void** ptr, std::size_t* len) {
    switch (b) {
      case PlanBuffer::src: *ptr = nullptr; *len = 0; break;
      case PlanBuffer::dst: *ptr = dst; *len = dst_bytes; break;
      case PlanBuffer::ping: *ptr = collectives_ws; *len = p.ping_bytes; break;
      case PlanBuffer::pong: *ptr = collectives_ws + p.ping_bytes; *len = p.pong_bytes; break;
      case PlanBuffer::red0: *ptr = ws; *len = p.red0_bytes; break;
      case PlanBuffer::red1: *ptr = ws + p.red0_bytes; *len = p.red1_bytes; break;
    }
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
  void* scratch = collectives_ws + p.ping_bytes + p.pong_bytes;
  // The collectives read the reductions' result as their source.
  auto run_step = [&](const PlanStep& s, PlanBuffer input) {
    const void* in = nullptr;
    void* out = nullptr;
    std::size_t in_bytes = 0, out_bytes = 0;
    in_region(input, &in, &in_bytes);
    out_region(s.output, &out, &out_bytes);
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
  for (const PlanStep& s : p.steps)
    if (Status st = run_step(s, s.input == PlanBuffer::src ? p.collectives_source : s.input); !st.ok()) return st;
  for (const PlanStep& s : p.additions)
    if (Status st = run_step(s, s.input); !st.ok()) return st;
  if (p.op == Op::avg) local::divide(p.dtype, dst, num_elements(p.tgt_layout), p.avg_divisor());
  return Status();
}

}  // namespace redist
