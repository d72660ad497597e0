// Several generated redistributions in one program (README.md, "Several
// redistributions in one program"): one mesh from the first header, the
// second header's groups added with prepare, one workspace for both.
//   redist gen --strategy collectives --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[32, 32{y,x}256]' --name to_cols
//   redist gen --strategy collectives --mesh '{x:2, y:4}' --from '[32, 32{y,x}256]' --to '[4{x,y}32, 256]' --name to_rows
// Every element of every rank is checked after each redistribution.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "to_cols.hpp"
#include "to_rows.hpp"

namespace to_cols = redist_gen::to_cols;
namespace to_rows = redist_gen::to_rows;

// Element (i, j) of the global 32 x 256 array.
static float element(std::size_t i, std::size_t j) { return float(1000 * i + j); }

// Counts the elements of a rank's block that differ from the global array.
template <typename Box>
static std::size_t mismatches(Box box, int rank, const std::vector<float>& local) {
  std::size_t off[2] = {}, ext[2] = {}, wrong = 0;
  box(rank, off, ext);
  for (std::size_t i = 0; i < ext[0]; ++i)
    for (std::size_t j = 0; j < ext[1]; ++j) wrong += local[i * ext[1] + j] != element(off[0] + i, off[1] + j);
  return wrong;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  {
    redist::Mesh mesh;  // destroyed before MPI_Finalize
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    redist::Status st = to_cols::create_mesh(MPI_COMM_WORLD, &mesh);
    // prepare is additive: groups already prepared are skipped.
    if (st.ok()) st = mesh.prepare(to_rows::kGroups, to_rows::kGroupCount);
    std::vector<float> a(to_cols::kSrcElems), b(to_cols::kTgtElems), c(to_rows::kTgtElems);
    std::vector<unsigned char> workspace(std::max(to_cols::kWorkspaceBytes, to_rows::kWorkspaceBytes));
    std::size_t off[2] = {}, ext[2] = {};
    to_cols::src_box(rank, off, ext);
    for (std::size_t i = 0; i < ext[0]; ++i)
      for (std::size_t j = 0; j < ext[1]; ++j) a[i * ext[1] + j] = element(off[0] + i, off[1] + j);
    if (st.ok())
      st = to_cols::run(mesh, a.data(), to_cols::kSrcBytes, b.data(), to_cols::kTgtBytes, workspace.data(),
                        workspace.size());
    if (st.ok())
      st = to_rows::run(mesh, b.data(), to_rows::kSrcBytes, c.data(), to_rows::kTgtBytes, workspace.data(),
                        workspace.size());
    if (!st.ok()) {
      std::fprintf(stderr, "rank %d: %s\n", rank, st.message().c_str());
    } else {
      const std::size_t wrong = mismatches(to_cols::tgt_box, rank, b) + mismatches(to_rows::tgt_box, rank, c);
      status = wrong == 0 ? 0 : 1;
      std::printf("rank %d: %zu wrong elements: %s\n", rank, wrong, status == 0 ? "ok" : "WRONG");
    }
  }
  MPI_Finalize();
  return status;
}
