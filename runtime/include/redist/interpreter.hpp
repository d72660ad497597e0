// redist runtime: the plan interpreter.  Executes any plan given as data
// (a PlanProgram: the steps with their groups, layouts, buffers and
// permutation tables) with the MPI backend's collectives, the same calls a
// header from `redist gen` makes as straight-line code.  The C ABI
// (redist/redist.h) fills a PlanProgram from the verified planner; the
// numbers in it are the planner's lowering (codegen/capi/lowering.ml), never
// computed here.
//
//     redist::PlanInterpreter exec;
//     if (auto st = redist::PlanInterpreter::bind(&program, MPI_COMM_WORLD, &exec); !st.ok()) ...
//     // hot path: no allocation
//     st = exec.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
#pragma once

#include <cstddef>
#include <vector>

#include "redist/mpi.hpp"
#include "redist/redist.hpp"

namespace redist {

enum class PlanOp { dyn_slice = 0, all_gather = 1, all_to_all = 2, all_permute = 3 };

// Where a step reads or writes: the caller's src or dst, or the workspace's
// ping region [0, ping_bytes) or pong region [ping_bytes, ping_bytes +
// pong_bytes); the collectives' scratch follows them.
enum class PlanBuffer { src = 0, dst = 1, ping = 2, pong = 3 };

struct PlanStep {
  PlanOp op;
  Group group;             // all_permute: unused
  Layout layout;           // the local layout before the step
  int dim_a;               // dyn_slice, all_gather: the dimension; all_to_all: s
  int dim_b;               // all_to_all: t
  PlanBuffer input;
  PlanBuffer output;
  std::vector<int> recv_from;  // all_permute: one entry per device
};

struct PlanProgram {
  std::vector<int> mesh_sizes;
  Layout src_layout;
  Layout tgt_layout;
  std::size_t ping_bytes = 0;
  std::size_t pong_bytes = 0;
  std::size_t scratch_bytes = 0;
  std::vector<Group> groups;  // prepared once by bind()
  std::vector<PlanStep> steps;

  int devices() const;
  std::size_t workspace_bytes() const { return ping_bytes + pong_bytes + scratch_bytes; }
};

// A program bound to a communicator: owns the Mesh (the communicator's
// duplicate and the program's group communicators).  The program must
// outlive it.  Move-only.
class PlanInterpreter {
 public:
  PlanInterpreter() = default;

  // Collective over comm (which must have program->devices() ranks):
  // creates the mesh and prepares the program's groups.
  static Status bind(const PlanProgram* program, MPI_Comm comm, PlanInterpreter* out);

  // Moves this rank's source box (src, program.src_layout) to its target box
  // (dst, program.tgt_layout); workspace: at least program.workspace_bytes().
  // Collective over the mesh.  No allocation; buffer checks are agreed
  // between the ranks (check_run), as in a generated run().
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
             std::size_t workspace_bytes) const;

  const Mesh& mesh() const { return mesh_; }

 private:
  const PlanProgram* program_ = nullptr;
  Mesh mesh_;
};

}  // namespace redist
