// What the generated translation units of the pending-sum end-to-end suite
// list: each problem's generated header (codegen/emit_sums.ml), by the
// collectives (a redist::Mesh, run()) or by the reducing exchange (a
// redist::ReducingExchange), seen through its constants and entry points.
#pragma once
#include <cstddef>

#include "redist/mpi_reduce.hpp"
#include "redist/reduce_exchange.hpp"

struct sums_entry {
  const char* name;
  const char* description;  // meshes, source -> target, dtype
  int world;                // world ranks taking part
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes;
  const int* src_pending;
  int src_pending_count;
  const int* tgt_pending;
  int tgt_pending_count;
  redist::PlacedMesh (*source_mesh)();
  redist::PlacedMesh (*target_mesh)();
  // By the collectives (create_mesh non-null):
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
  std::size_t src_bytes, tgt_bytes, workspace_bytes;
  bool (*src_box)(int, std::size_t*, std::size_t*);
  bool (*tgt_box)(int, std::size_t*, std::size_t*);
  // By the reducing exchange (create_exchange non-null):
  redist::Status (*create_exchange)(MPI_Comm, redist::ReducingExchange*);
  std::size_t max_workspace_bytes;
};

struct sums_table {
  const sums_entry* entries;
  int count;
};

#define SUMS_COMMON(ns, text, world)                                                              \
  #ns, text, world, redist_gen::ns::kRank, redist_gen::ns::kGlobalShape, redist_gen::ns::kElemBytes, \
      redist_gen::ns::kSrcPending, redist_gen::ns::kSrcPendingCount, redist_gen::ns::kTgtPending,  \
      redist_gen::ns::kTgtPendingCount, redist_gen::ns::source_mesh, redist_gen::ns::target_mesh

#define SUMS_COLLECTIVES(ns, text)                                                                 \
  sums_entry {                                                                                     \
    SUMS_COMMON(ns, text, redist_gen::ns::kDevices), redist_gen::ns::create_mesh, redist_gen::ns::run, \
        redist_gen::ns::kSrcBytes, redist_gen::ns::kTgtBytes, redist_gen::ns::kWorkspaceBytes,     \
        redist_gen::ns::src_box, redist_gen::ns::tgt_box, nullptr, 0                               \
  }

#define SUMS_EXCHANGE(ns, text)                                                                    \
  sums_entry {                                                                                     \
    SUMS_COMMON(ns, text, redist_gen::ns::kWorldSize), nullptr, nullptr, 0, 0, 0, nullptr, nullptr, \
        redist_gen::ns::create_exchange, redist_gen::ns::kMaxWorkspaceBytes                        \
  }
