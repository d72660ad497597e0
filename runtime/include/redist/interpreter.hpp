// redist runtime: the plan interpreter.  Executes any plan given as data
// (a PlanProgram: the steps with their groups, layouts, buffers and
// permutation tables) with the MPI backend's collectives and reductions,
// the same calls a header from `redist gen` makes as straight-line code.
// A plan for pending axes (Lowersums.v) is reductions, then collectives,
// then add_pending steps.  The C ABI (redist/redist.h) fills a PlanProgram
// from the verified planner; the numbers in it are the planner's lowering
// (codegen/abi/lowering.ml), never computed here.
//
//     redist::PlanInterpreter exec;
//     if (auto st = redist::PlanInterpreter::bind(&program, MPI_COMM_WORLD, &exec); !st.ok()) ...
//     // hot path: no allocation
//     st = exec.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
//
// Single copy on a host: when every rank of a host passes a src, dst and
// workspace that lie in buffers of redist::shared_alloc (redist/shared.hpp;
// the C ABI's redist_alloc) mapped by all the host's ranks, run() gathers
// once, over the host, where each one's three arrays lie, and every
// all_gather and all_to_all step whose group lies on the host, and every
// all_permute when the whole mesh does, is done by each member reading its
// peers' pieces straight out of their arrays (the same pieces as the
// messages, one copy each); the host's ranks pass a barrier before the
// collectives, between two steps and after the last, so that nobody
// writes an array a peer still reads, or reads one not yet written.  The
// reductions (reduce_scatter, all_reduce) stay on MPI: their ordered
// combination reads every member's contribution anyway.  Arrays from
// anywhere else, and groups across hosts, take the MPI path.
//
// No split phase yet: run() blocks until dst is complete.  The C ABI's
// redist_exec_start runs a plan by the collectives whole (its test and wait
// then return at once); nonblocking collectives (MPI_Iallgather,
// MPI_Ialltoall, ...) driven step by step are future work.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/mpi_c.hpp"

#include "redist/mpi.hpp"
#include "redist/redist.hpp"
#include "redist/reduce.hpp"
#include "redist/staged.hpp"

namespace redist {

enum class PlanOp {
  dyn_slice = 0, all_gather = 1, all_to_all = 2, all_permute = 3,  // the collectives
  reduce_scatter = 4, all_reduce = 5,                              // PlanProgram::reductions
  add_pending = 6                                                  // PlanProgram::additions
};

// Where a step reads or writes: the caller's src or dst, or a region of
// the workspace, which is laid out as
//   [red0 | red1 | reductions' scratch | ping | pong | collectives' scratch]
// with each part PlanProgram's *_bytes long (the first three are 0 without
// reductions).  A collective's `src` is the array the reductions leave
// (PlanProgram::collectives_source).
enum class PlanBuffer { src = 0, dst = 1, ping = 2, pong = 3, red0 = 4, red1 = 5 };

struct PlanStep {
  PlanOp op;
  Group group;             // all_permute: unused; add_pending: the new pending axis's group
  Layout layout;           // the local layout before the step
  int dim_a;               // dyn_slice, all_gather, reduce_scatter: the dimension; all_to_all: s
  int dim_b;               // all_to_all: t
  PlanBuffer input;
  PlanBuffer output;
  std::vector<int> recv_from;  // all_permute: one entry per device
};

struct PlanProgram {
  ProblemDigest problem;  // agreed by bind() when it creates the mesh
  std::vector<int> mesh_sizes;
  Layout src_layout;
  Layout tgt_layout;
  std::size_t ping_bytes = 0;
  std::size_t pong_bytes = 0;
  std::size_t scratch_bytes = 0;
  std::vector<Group> groups;  // prepared once by bind(): the collectives' and the reductions'
  std::vector<PlanStep> steps;  // the collectives; none: dst is a copy of the collectives' source

  // Pending sums (all empty or 0 for a plan without them).
  Dtype dtype = Dtype::u8;               // the element type the reductions combine
  Op op = Op::sum;                       // the pending axes' operation (the reductions combine by step_op(op))
  std::size_t red0_bytes = 0;
  std::size_t red1_bytes = 0;
  std::size_t red_scratch_bytes = 0;
  std::vector<PlanStep> reductions;      // before the collectives: src, red0 or red1 to red0 or red1
  PlanBuffer collectives_source = PlanBuffer::src;  // the last reduction's output
  std::vector<PlanStep> additions;       // after the collectives, in place on dst
  // avg: the one division of dst at the end (every reduction adds, step_op): the
  // product of the reductions' group sizes, from the extracted avg_divisor.
  std::size_t avg_divisor = 1;

  int devices() const;
  std::size_t collectives_offset() const { return red0_bytes + red1_bytes + red_scratch_bytes; }
  std::size_t workspace_bytes() const { return collectives_offset() + ping_bytes + pong_bytes + scratch_bytes; }
};

namespace backend {
struct SharedSpan;  // internal/shared_windows.hpp
}

// Where the arrays of a run lie on this rank's host, for single copy
// (above): bound once to a mesh, gathered at every run.  Move-only.
class HostArrays {
 public:
  // The arrays a step reads: the caller's src and dst, and the workspace.
  enum Array { source = 0, target = 1, workspace = 2, kArrays = 3 };

  HostArrays();
  HostArrays(const HostArrays&) = delete;
  HostArrays& operator=(const HostArrays&) = delete;
  HostArrays(HostArrays&& other) noexcept;
  HostArrays& operator=(HostArrays&& other) noexcept;
  ~HostArrays();

  // Collective over the mesh: its ranks on this host (none when the host
  // has no other).
  Status bind(const Mesh& mesh, const char* what);
  // Collective over the host: where each host rank's arrays lie (`needs`:
  // their bytes in the plan; an array of 0 bytes is never read).  After
  // it, active() says, alike on every rank of the host, whether they all
  // lie in shared buffers mapped by every rank of the host.
  Status gather(const void* const arrays[kArrays], const std::size_t needs[kArrays], const char* what);
  bool active() const { return active_; }
  // Mesh rank `rank` is on this host (only meaningful while active()).
  bool on_host(int rank) const { return host_rank_of_[static_cast<std::size_t>(rank)] >= 0; }
  // Whether the whole mesh is on this host.
  bool whole_mesh() const { return host_size_ == static_cast<int>(host_rank_of_.size()); }
  // Array `array` of mesh rank `rank` (on_host) in this process.
  const unsigned char* array_of(int rank, Array array) const;
  // The host's barrier, the arrays' stores ordered around it (MPI_Win_sync).
  Status barrier(const char* what) const;

 private:
  void free_handles() noexcept;
  void sync_windows() const;

  MPI_Comm host_ = MPI_COMM_NULL;
  int host_size_ = 0;
  bool active_ = false;
  std::vector<int> host_rank_of_;  // per mesh rank: its rank on this host, -1 elsewhere
  // Per host rank, kArrays each: where its arrays lie (and whether every
  // one the plan reads lies in a buffer all the host maps, in the flag
  // after them), and their addresses here.
  struct Published;
  std::vector<Published> published_;
  std::vector<const unsigned char*> addresses_;
};

// A program bound to a communicator: owns the Mesh (the communicator's
// duplicate and the program's group communicators).  The program must
// outlive it.  Move-only.
class PlanInterpreter {
 public:
  PlanInterpreter() = default;

  // Collective over comm (which must have program->devices() ranks):
  // creates the mesh (the ranks agreeing on program->problem) and prepares
  // the program's groups.
  static Status bind(const PlanProgram* program, MPI_Comm comm, PlanInterpreter* out);

  // Moves this rank's source box (src, program.src_layout) to its target box
  // (dst, program.tgt_layout); workspace: at least program.workspace_bytes().
  // Collective over the mesh.  No allocation; buffer checks are agreed
  // between the ranks (check_run), as in a generated run().
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
             std::size_t workspace_bytes);

  const Mesh& mesh() const { return mesh_; }
  // The bytes the last run() read straight out of other ranks' arrays
  // (single copy, above); the rest of what it moved went by MPI.
  std::size_t direct_bytes() const { return direct_bytes_; }

 private:
  // A collective step by single copy, when its group lies on the host.
  bool direct(const PlanStep& step) const;
  void run_direct(const PlanStep& step, PlanBuffer input, const void* in, void* out);

  const PlanProgram* program_ = nullptr;
  Mesh mesh_;
  HostArrays host_;
  std::size_t direct_bytes_ = 0;
};

// A program as a part of a staged plan (redist/staged.hpp, the C ABI's
// hybrids): bound and run on the world's ranks 0 .. program->devices() - 1.
// The program must outlive it.
class InterpreterPart final : public CollectivesPart {
 public:
  explicit InterpreterPart(const PlanProgram* program)
      : CollectivesPart(program->devices(), bytes(program->src_layout), bytes(program->tgt_layout)),
        program_(program) {}

 private:
  Status bind_mesh(MPI_Comm mesh) override { return PlanInterpreter::bind(program_, mesh, &interpreter_); }
  Status run_on_mesh(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
                     std::size_t workspace_bytes) override {
    return interpreter_.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
  }
  std::size_t direct_bytes() const override { return interpreter_.direct_bytes(); }

  const PlanProgram* program_;
  PlanInterpreter interpreter_;
};

}  // namespace redist
