// Creates a one-axis NCCL mesh over MPI_COMM_WORLD and, from its NCCL
// communicator, an exchange that gathers a sharded vector everywhere;
// reports the status: "ok", or the backend's error where no GPU is present.
// Built against an installed prefix, it checks that redist_nccl links with
// its dependencies.
#include <redist/nccl.hpp>
#include <redist/nccl_exchange.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    redist::nccl::Mesh mesh;
    redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, &size, 1, nullptr, &mesh);
    redist::nccl::Exchange ex;
    if (st.ok()) {
      const redist::PlacedMesh world = redist::PlacedMesh::contiguous(&size, 1, 0);
      redist::BlockLayout sharded, replicated;
      sharded.ndim = replicated.ndim = 1;
      sharded.extent[0] = replicated.extent[0] = 10;
      sharded.sharding[0] = {1, {0}};
      st = redist::nccl::Exchange::create(mesh.nccl_comm(), world, sharded, world, replicated, 4,
                                          mesh.stream(), &ex);
    }
    std::printf("nccl_app: %s\n", st.ok() ? "ok" : st.message().c_str());
  }
  MPI_Finalize();
  return 0;
}
