// What the generated translation units of the exchange end-to-end suite
// list (tests/e2e/gen_exchange.ml): per problem, its exchange header's
// entry points and, for an even problem, its collectives header's.
#pragma once
#include <cstddef>

#include "redist/exchange.hpp"
#include "redist/mpi.hpp"

struct collective_plan {
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
  bool (*src_box)(int, std::size_t*, std::size_t*);
  bool (*tgt_box)(int, std::size_t*, std::size_t*);
  int ndim;
  std::size_t src_bytes, tgt_bytes, workspace_bytes;
};

struct exchange_entry {
  const char* description;  // class: meshes, source -> target, dtype
  int world;                // world ranks the problem runs on
  std::size_t elem_bytes;
  redist::Status (*create)(MPI_Comm, redist::Exchange*);
  redist::Status (*run)(redist::Exchange&, const void*, std::size_t, void*, std::size_t);
  const std::size_t* recv_bound;  // per world rank: the elements it must receive (the lower bound)
  const collective_plan* collectives;  // null: the problem is not even on one mesh
};

struct exchange_table {
  const exchange_entry* entries;
  int count;
};
