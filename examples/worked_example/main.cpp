// The worked example of the model (docs/model.md), written the
// way generated code uses the runtime: on mesh {x:a, y:b} a 1-D array of
// a*b int64 elements goes from [b{x}N] to [a{y}N] by
//   dyn_slice(0, y) -> [1{x,y}N];  all_permute -> [1{y,x}N];  all_gather(0) -> [a{y}N]
// with one workspace of 2 * peak + scratch bytes.  a = 2 on an even number
// of ranks, else 1.  Exits 0 iff every rank ends with its target box.
#include <redist/mpi.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int fail(const char* step, const redist::Status& st) {
  std::fprintf(stderr, "worked_example: %s: %s\n", step, st.message().c_str());
  return 1;
}

int run() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int a = n % 2 == 0 ? 2 : 1, b = n / a;
  const int axes[] = {a, b};
  redist::Mesh mesh;
  if (auto st = redist::Mesh::create(MPI_COMM_WORLD, axes, 2, &mesh); !st.ok()) return fail("mesh", st);
  const redist::Group over_y{1, b}, over_x{b, a};
  if (auto st = mesh.prepare(&over_x, 1); !st.ok()) return fail("prepare", st);

  const redist::Layout l0{1, {std::size_t(b)}, 8};
  const redist::Layout l1 = redist::dyn_slice_out(l0, 0, b);
  const redist::Layout l2 = redist::all_gather_out(l1, 0, a);
  const std::size_t peak = std::max(redist::bytes(l0), redist::bytes(l2));
  const std::size_t scratch = redist::all_gather_scratch_bytes(l1, 0, a);
  std::vector<unsigned char> workspace(2 * peak + scratch);
  unsigned char* const A = workspace.data();
  unsigned char* const B = A + peak;
  unsigned char* const S = B + peak;

  // [b{x}N]: device (x, y) holds elements x*b .. x*b + b-1.
  const int x = mesh.coord(0), y = mesh.coord(1);
  for (int i = 0; i < b; ++i) {
    const std::int64_t v = std::int64_t(x) * b + i;
    std::memcpy(A + 8 * i, &v, 8);
  }
  // Device (x, y) wants element y*a + x, which [1{x,y}N] puts on rank y*a + x.
  std::vector<int> recv_from(n);
  for (int r = 0; r < n; ++r) recv_from[r] = (r % b) * a + r / b;

  if (auto st = redist::dyn_slice(mesh, over_y, l0, 0, A, peak, B, peak); !st.ok()) return fail("dyn_slice", st);
  if (auto st = redist::all_permute(mesh, recv_from.data(), n, l1, B, peak, A, peak); !st.ok())
    return fail("all_permute", st);
  if (auto st = redist::all_gather(mesh, over_x, l1, 0, A, peak, B, peak, S, scratch); !st.ok())
    return fail("all_gather", st);

  // [a{y}N]: device (x, y) holds elements y*a .. y*a + a-1.
  int bad = 0;
  for (int i = 0; i < a; ++i) {
    std::int64_t v;
    std::memcpy(&v, B + 8 * i, 8);
    if (v != std::int64_t(y) * a + i) ++bad;
  }
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mesh.rank() == 0)
    std::printf("worked_example on {x:%d, y:%d}: %s\n", a, b, total == 0 ? "ok" : "WRONG");
  return total == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = run();  // the Mesh is destroyed before MPI_Finalize
  MPI_Finalize();
  return rc;
}
