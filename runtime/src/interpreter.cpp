#include "redist/interpreter.hpp"

#include <cstring>

namespace redist {

int PlanProgram::devices() const {
  int n = 1;
  for (int s : mesh_sizes) n *= s;
  return n;
}

Status PlanInterpreter::bind(const PlanProgram* program, MPI_Comm comm, PlanInterpreter* out) {
  if (program == nullptr || out == nullptr)
    return Status(Errc::invalid_argument, "PlanInterpreter::bind: null program or out");
  Mesh mesh;
  if (Status st = Mesh::create(comm, program->mesh_sizes.data(), static_cast<int>(program->mesh_sizes.size()), &mesh);
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
  if (Status st = check_run(mesh_, "PlanInterpreter::run", p.devices(), src, src_bytes, bytes(p.src_layout), dst,
                            dst_bytes, bytes(p.tgt_layout), workspace, workspace_bytes, p.workspace_bytes());
      !st.ok())
    return st;
  unsigned char* ws = static_cast<unsigned char*>(workspace);
  if (p.steps.empty()) {
    std::memcpy(dst, src, bytes(p.src_layout));
    return Status();
  }
  // The step's reads come from `in`; const only for src.
  auto in_region = [&](PlanBuffer b, const void** ptr, std::size_t* len) {
    switch (b) {
      case PlanBuffer::src: *ptr = src; *len = src_bytes; break;
      case PlanBuffer::dst: *ptr = dst; *len = dst_bytes; break;
      case PlanBuffer::ping: *ptr = ws; *len = p.ping_bytes; break;
      case PlanBuffer::pong: *ptr = ws + p.ping_bytes; *len = p.pong_bytes; break;
    }
  };
  auto out_region = [&](PlanBuffer b, void** ptr, std::size_t* len) {
    switch (b) {
      case PlanBuffer::src: *ptr = nullptr; *len = 0; break;  // never written: the caller's source is const
      case PlanBuffer::dst: *ptr = dst; *len = dst_bytes; break;
      case PlanBuffer::ping: *ptr = ws; *len = p.ping_bytes; break;
      case PlanBuffer::pong: *ptr = ws + p.ping_bytes; *len = p.pong_bytes; break;
    }
  };
  void* scratch = ws + p.ping_bytes + p.pong_bytes;
  for (const PlanStep& s : p.steps) {
    const void* in = nullptr;
    void* out = nullptr;
    std::size_t in_bytes = 0, out_bytes = 0;
    in_region(s.input, &in, &in_bytes);
    out_region(s.output, &out, &out_bytes);
    Status st;
    switch (s.op) {
      case PlanOp::dyn_slice:
        st = dyn_slice(mesh_, s.group, s.layout, s.dim_a, in, in_bytes, out, out_bytes);
        break;
      case PlanOp::all_gather:
        st = all_gather(mesh_, s.group, s.layout, s.dim_a, in, in_bytes, out, out_bytes, scratch, p.scratch_bytes);
        break;
      case PlanOp::all_to_all:
        st = all_to_all(mesh_, s.group, s.layout, s.dim_a, s.dim_b, in, in_bytes, out, out_bytes, scratch,
                        p.scratch_bytes);
        break;
      case PlanOp::all_permute:
        st = all_permute(mesh_, s.recv_from.data(), s.recv_from.size(), s.layout, in, in_bytes, out, out_bytes);
        break;
    }
    if (!st.ok()) return st;
  }
  return Status();
}

}  // namespace redist
