// What the generated translation units of the pending-sum end-to-end suite
// list: each problem's generated header (codegen/emit_sums.ml) seen through
// its constants and entry points, with a description for the log.
#pragma once
#include <cstddef>

#include "redist/mpi_reduce.hpp"

struct sums_entry {
  const char* name;
  const char* description;  // mesh, source -> target, dtype
  int devices;
  int rank;
  const std::size_t* global_shape;
  std::size_t elem_bytes;
  std::size_t src_bytes, tgt_bytes, workspace_bytes;
  const redist::Group* src_pending;
  int src_pending_count;
  const redist::Group* tgt_pending;
  int tgt_pending_count;
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
  bool (*src_box)(int, std::size_t*, std::size_t*);
  bool (*tgt_box)(int, std::size_t*, std::size_t*);
};

struct sums_table {
  const sums_entry* entries;
  int count;
};

#define SUMS_ENTRY(ns, text)                                                                    \
  sums_entry {                                                                                  \
    #ns, text, redist_gen::ns::kDevices, redist_gen::ns::kRank, redist_gen::ns::kGlobalShape,   \
        redist_gen::ns::kElemBytes, redist_gen::ns::kSrcBytes, redist_gen::ns::kTgtBytes,       \
        redist_gen::ns::kWorkspaceBytes, redist_gen::ns::kSrcPending,                            \
        redist_gen::ns::kSrcPendingCount, redist_gen::ns::kTgtPending,                           \
        redist_gen::ns::kTgtPendingCount, redist_gen::ns::create_mesh, redist_gen::ns::run,      \
        redist_gen::ns::src_box, redist_gen::ns::tgt_box                                         \
  }
