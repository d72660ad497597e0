// The example of codegen/README.md, "Using a generated redistribution in an
// application": reshard.hpp comes from
//   redist gen --strategy collectives --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]'
//     --to '[8{y}32, 128{x}256]' --dtype f32 --name reshard -o reshard.hpp
// Each rank fills its source block, redistributes, and checks one element.
#include <cstdio>
#include <vector>

#include "reshard.hpp"

// Generated code lives in namespace redist_gen::NAME.
namespace reshard = redist_gen::reshard;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  {
    redist::Mesh mesh;  // destroyed before MPI_Finalize
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (redist::Status made = reshard::create_mesh(MPI_COMM_WORLD, &mesh); !made.ok()) {
      std::fprintf(stderr, "create_mesh: %s\n", made.message().c_str());
    } else {
      // This rank's block of the global 32 x 256 array, element (i, j) = 1000 * i + j.
      std::size_t off[reshard::kRank] = {}, ext[reshard::kRank] = {};
      reshard::src_box(rank, off, ext);
      std::vector<float> src(reshard::kSrcElems), dst(reshard::kTgtElems);
      for (std::size_t i = 0; i < ext[0]; ++i)
        for (std::size_t j = 0; j < ext[1]; ++j) src[i * ext[1] + j] = float(1000 * (off[0] + i) + off[1] + j);
      // One workspace, allocated once, reused by every call of run().
      std::vector<unsigned char> workspace(reshard::kWorkspaceBytes);
      redist::Status st = reshard::run(mesh, src.data(), reshard::kSrcBytes, dst.data(), reshard::kTgtBytes,
                                       workspace.data(), workspace.size());
      if (!st.ok()) {
        std::fprintf(stderr, "run: %s\n", st.message().c_str());
      } else {
        reshard::tgt_box(rank, off, ext);  // the block this rank now holds
        const float want = float(1000 * (off[0] + ext[0] - 1) + off[1] + ext[1] - 1);
        status = dst.back() == want ? 0 : 1;
        std::printf("rank %d holds [%zu, %zu) x [%zu, %zu), last element %g: %s\n", rank, off[0], off[0] + ext[0],
                    off[1], off[1] + ext[1], double(dst.back()), status == 0 ? "ok" : "WRONG");
      }
    }
  }
  MPI_Finalize();
  return status;
}
