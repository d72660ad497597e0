// Creates a one-axis NCCL mesh over MPI_COMM_WORLD and reports the status:
// "ok", or the backend's error where no GPU is present.  Built against an
// installed prefix, it checks that redist_nccl links with its dependencies.
#include <redist/nccl.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    redist::nccl::Mesh mesh;
    const redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, &size, 1, nullptr, &mesh);
    std::printf("nccl_app: %s\n", st.ok() ? "ok" : st.message().c_str());
  }
  MPI_Finalize();
  return 0;
}
