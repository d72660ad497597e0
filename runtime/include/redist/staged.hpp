// redist runtime: the one executor of a staged plan (a hybrid), over MPI.
//
// A hybrid lowers to the core's `Staged n first second` (lower_splan,
// proofs/lower/Lower.v): the first part moves the source array into an
// intermediate layout, whose box lives in the workspace's first n bytes
// (mid_bytes), and the second part moves it from there into the
// destination; each part's own workspace follows the intermediate.  The
// numbers are the extracted lowering's (mid_bytes, and workspace_bytes =
// program_workspace_bytes), never computed here.  A generated hybrid
// header (`redist gen`) and the C ABI (redist/redist.h) both run it:
//
//     std::unique_ptr<redist::StagedPart> first = ..., second = ...;   // the parts, unbound
//     redist::Staged plan;
//     if (auto st = redist::Staged::create(world, "my_plan::create", mid_bytes, workspace_bytes,
//                                          std::move(first), std::move(second), &plan); !st.ok()) ...
//     // hot path: no allocation
//     st = plan.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, "my_plan::run");
//
// Collective over the world communicator: every rank calls create() and
// run().  The ranks agree (one allreduce over the world) on the verdict
// of each part's binding, on the workspace check before the first part,
// and on each part's verdict before going on, so that an error on one
// rank is an error on every rank (remote_error on the others), none left
// waiting.
#pragma once

#include <cstddef>
#include <memory>

#include "redist/exchange.hpp"
#include "redist/mpi.hpp"
#include "redist/mpi_c.hpp"
#include "redist/placed.hpp"
#include "redist/redist.hpp"

namespace redist {

// An MPI communicator owned by one object: freed when the object is
// destroyed (which must happen before MPI_Finalize).  Move-only.
class Communicator {
 public:
  Communicator() = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  ~Communicator();

  // Collective over comm: *out owns a duplicate of it.
  static Status duplicate(MPI_Comm comm, const char* what, Communicator* out);
  // Collective over world: *out owns the communicator of the world's ranks
  // 0 .. ranks - 1 (rank k in it is world rank k); MPI_COMM_NULL on the others.
  static Status first_ranks(MPI_Comm world, int ranks, const char* what, Communicator* out);

  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// One part of a staged plan as Staged binds and runs it.  The runtime's
// kinds: a part by the collectives (MeshPart below for a generated
// header's; InterpreterPart in interpreter.hpp for a PlanProgram), by the
// direct exchange (ExchangePart), and a staged plan itself (Staged).
class StagedPart {
 public:
  virtual ~StagedPart() = default;

  // Collective over world: makes what the part needs to run (its
  // communicators, its messages).  `what` names the caller in messages.
  virtual Status bind(MPI_Comm world, const char* what) = 0;
  // This rank's array before and after the part, in bytes (0 where the
  // rank holds no box of it).  After bind().
  virtual std::size_t source_bytes() const = 0;
  virtual std::size_t target_bytes() const = 0;
  // Collective over the world: starts moving src into dst, with the
  // workspace; a part without a split phase runs whole.  No allocation.
  virtual Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
                       std::size_t workspace_bytes, const char* what) = 0;
  // Local: completes what start() left in flight (block), or says whether
  // it has completed (*done).  Nothing is left in flight by default.
  virtual Status advance(bool block, bool* done);
  // The bytes the last start() copied straight out of other ranks' shared
  // source arrays (single copy, exchange.hpp); none by default.
  virtual std::size_t direct_bytes() const { return 0; }

  // start(), then advance() until done.
  Status run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
             std::size_t workspace_bytes, const char* what);

 protected:
  // Move-only (a part owns communicators).
  StagedPart() = default;
  StagedPart(StagedPart&&) noexcept = default;
  StagedPart& operator=(StagedPart&&) noexcept = default;
};

// A part by the collectives: bound and run on the world's ranks 0 ..
// devices - 1 (its mesh at world rank 0, mesh rank k = world rank k), the
// ranks agreeing over the world on the verdict of its binding; the other
// ranks hold no box of it and skip it.
class CollectivesPart : public StagedPart {
 public:
  Status bind(MPI_Comm world, const char* what) final;
  std::size_t source_bytes() const final { return member_ ? source_bytes_ : 0; }
  std::size_t target_bytes() const final { return member_ ? target_bytes_ : 0; }
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
               std::size_t workspace_bytes, const char* what) final;

 protected:
  // source_bytes, target_bytes: a member's arrays.
  CollectivesPart(int devices, std::size_t source_bytes, std::size_t target_bytes)
      : devices_(devices), source_bytes_(source_bytes), target_bytes_(target_bytes) {}
  // Collective over the part's ranks: binds the part to their communicator.
  virtual Status bind_mesh(MPI_Comm mesh) = 0;
  // Runs the part on a member.
  virtual Status run_on_mesh(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                             void* workspace, std::size_t workspace_bytes) = 0;

 private:
  int devices_;
  std::size_t source_bytes_, target_bytes_;
  bool member_ = false;
};

// A part by the collectives as a generated header has it: its create_mesh
// and run(), and its kDevices, kSrcBytes and kTgtBytes.
class MeshPart final : public CollectivesPart {
 public:
  using CreateMesh = Status (*)(MPI_Comm comm, Mesh* out);
  using Run = Status (*)(const Mesh& mesh, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                         void* workspace, std::size_t workspace_bytes);
  MeshPart(int devices, std::size_t source_bytes, std::size_t target_bytes, CreateMesh create_mesh, Run run)
      : CollectivesPart(devices, source_bytes, target_bytes), create_mesh_(create_mesh), run_(run) {}
  // The same, allocated by the runtime's library: a generated header
  // allocates nothing itself (no operator new inlined into a program that
  // replaces it, as `redist run`'s counting does).
  static std::unique_ptr<StagedPart> make(int devices, std::size_t source_bytes, std::size_t target_bytes,
                                          CreateMesh create_mesh, Run run);

 private:
  Status bind_mesh(MPI_Comm mesh) override { return create_mesh_(mesh, &mesh_); }
  Status run_on_mesh(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
                     std::size_t workspace_bytes) override {
    return run_(mesh_, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
  }

  CreateMesh create_mesh_;
  Run run_;
  Mesh mesh_;
};

// A part by the direct exchange over the whole world: Exchange::create's
// arguments, then the Exchange (split phase: start() posts its messages,
// advance() completes them).  Needs no workspace.
class ExchangePart final : public StagedPart {
 public:
  ExchangePart(PlacedMesh source, BlockLayout source_layout, PlacedMesh target, BlockLayout target_layout,
               std::size_t elem_bytes, ProblemDigest problem = {});
  // The same, allocated by the runtime's library (see MeshPart::make).
  static std::unique_ptr<StagedPart> make(PlacedMesh source, BlockLayout source_layout, PlacedMesh target,
                                          BlockLayout target_layout, std::size_t elem_bytes, ProblemDigest problem);

  Status bind(MPI_Comm world, const char* what) override;
  std::size_t source_bytes() const override { return exchange_.source_bytes(); }
  std::size_t target_bytes() const override { return exchange_.target_bytes(); }
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
               std::size_t workspace_bytes, const char* what) override;
  Status advance(bool block, bool* done) override;
  std::size_t direct_bytes() const override { return exchange_.direct_elements() * elem_bytes_; }

 private:
  PlacedMesh source_, target_;
  BlockLayout source_layout_, target_layout_;
  std::size_t elem_bytes_;
  ProblemDigest problem_;
  Exchange exchange_;
};

// A staged plan: first, then second, through the intermediate in the
// workspace's first mid_bytes.  Owns its parts and a duplicate of the
// world communicator, over which its ranks agree.  A default-constructed
// Staged is empty: start() on it fails.  Move-only.
class Staged final : public StagedPart {
 public:
  Staged() = default;
  // mid_bytes and workspace_bytes: the extracted lowering's Staged n and
  // program_workspace_bytes (at least n + each part's workspace).
  Staged(std::size_t mid_bytes, std::size_t workspace_bytes, std::unique_ptr<StagedPart> first,
         std::unique_ptr<StagedPart> second);
  Staged(Staged&&) noexcept = default;
  Staged& operator=(Staged&&) noexcept = default;

  // Collective over world, once: the plan of the other arguments, bound.
  static Status create(MPI_Comm world, const char* what, std::size_t mid_bytes, std::size_t workspace_bytes,
                       std::unique_ptr<StagedPart> first, std::unique_ptr<StagedPart> second, Staged* out);

  // Duplicates world, then binds first and second over the duplicate.
  Status bind(MPI_Comm world, const char* what) override;
  std::size_t source_bytes() const override { return first_ ? first_->source_bytes() : 0; }
  std::size_t target_bytes() const override { return second_ ? second_->target_bytes() : 0; }
  // Agrees that every rank's workspace has workspace_bytes(), runs the
  // first part whole from src into the intermediate, agrees on its
  // verdict, then starts the second from the intermediate into dst and
  // agrees on that verdict.  A rank that holds no box of an array passes
  // null and 0 for it, to any part.  No allocation.
  Status start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* workspace,
               std::size_t workspace_bytes, const char* what) override;
  // The second part's.
  Status advance(bool block, bool* done) override;
  // Both parts'.
  std::size_t direct_bytes() const override;

  std::size_t mid_bytes() const { return mid_bytes_; }
  std::size_t workspace_bytes() const { return workspace_bytes_; }
  // The duplicate of the world (MPI_COMM_NULL before bind()).
  MPI_Comm comm() const { return world_.get(); }

 private:
  std::size_t mid_bytes_ = 0, workspace_bytes_ = 0;
  std::unique_ptr<StagedPart> first_, second_;
  Communicator world_;
};

}  // namespace redist
