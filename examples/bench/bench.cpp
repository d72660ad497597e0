// Times each collective of the runtime against the bare MPI call it wraps
// on contiguous data, to show the cost of packing/unpacking and of the
// argument agreement, and of the in-place (minimum scratch) paths.  Local array: {64, 64, 256} floats (4 MiB) per rank,
// group = all ranks.  Prints the median of 15 runs, in milliseconds.
// The direct exchange (redist/exchange.hpp) runs the same data movement as
// all_gather dim 2 and all_to_all 1<-2, described as layouts of the global
// array; it always agrees on its arguments (both columns alike).
#include <redist/exchange.hpp>
#include <redist/mpi.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

double median_ms(MPI_Comm comm, const std::function<redist::Status()>& step) {
  std::vector<double> t;
  for (int i = 0; i < 17; ++i) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    const redist::Status st = step();
    double dt = MPI_Wtime() - t0;
    if (!st.ok()) {
      std::fprintf(stderr, "bench: %s\n", st.message().c_str());
      MPI_Abort(comm, 1);
    }
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (i >= 2) t.push_back(dt * 1e3);  // the first two runs warm up
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    int n = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const int axes[] = {n};
    redist::Mesh mesh;
    if (!redist::Mesh::create(MPI_COMM_WORLD, axes, 1, &mesh).ok()) MPI_Abort(MPI_COMM_WORLD, 1);
    const redist::Group g{1, n};
    if (!mesh.prepare(&g, 1).ok()) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm gc;
    if (!mesh.group_comm(g, &gc).ok()) gc = MPI_COMM_SELF;

    const redist::Layout l{3, {64, 64, 256}, 4};
    const std::size_t b = redist::bytes(l);
    std::vector<unsigned char> src(b, 1), dst(b * n), scratch(b * n);
    std::vector<int> rotate(n);
    for (int r = 0; r < n; ++r) rotate[r] = (r + 1) % n;
    const int me = mesh.rank();
    auto ok = [] { return redist::Status(); };

    // The global array [64, 64, 256n]: dim 2 over the world ({x}) ->
    // replicated is all_gather dim 2; [64, 64n, 256] with dim 1 over the
    // world -> dim 2 over the world is all_to_all 1<-2.
    const redist::PlacedMesh world = redist::PlacedMesh::contiguous(axes, 1, 0);
    auto layout = [](std::size_t d0, std::size_t d1, std::size_t d2, int sharded_dim) {
      redist::BlockLayout bl;
      bl.ndim = 3;
      bl.extent[0] = d0, bl.extent[1] = d1, bl.extent[2] = d2;
      if (sharded_dim >= 0) bl.sharding[sharded_dim] = redist::DimSharding{1, {0}};
      return bl;
    };
    const std::size_t wide = 256 * std::size_t(n), tall = 64 * std::size_t(n);
    redist::Exchange gather, transpose;
    if (!redist::Exchange::create(MPI_COMM_WORLD, world, layout(64, 64, wide, 2), world,
                                  layout(64, 64, wide, -1), 4, &gather).ok() ||
        !redist::Exchange::create(MPI_COMM_WORLD, world, layout(64, tall, 256, 1), world,
                                  layout(64, tall, 256, 2), 4, &transpose).ok())
      MPI_Abort(MPI_COMM_WORLD, 1);

    struct Row { const char* name; std::function<redist::Status()> f; };
    const std::vector<Row> rows = {
      {"MPI_Allgather (bare)", [&] { MPI_Allgather(src.data(), int(b), MPI_BYTE, dst.data(), int(b), MPI_BYTE, gc); return ok(); }},
      {"all_gather dim 0 (no scratch)", [&] { return redist::all_gather(mesh, g, l, 0, src.data(), b, dst.data(), dst.size(), scratch.data(), scratch.size()); }},
      {"all_gather dim 2 (unpack)", [&] { return redist::all_gather(mesh, g, l, 2, src.data(), b, dst.data(), dst.size(), scratch.data(), scratch.size()); }},
      {"all_gather dim 2 (in place)", [&] { return redist::all_gather(mesh, g, l, 2, src.data(), b, dst.data(), dst.size(), scratch.data(), redist::all_gather_min_scratch_bytes(l, 2, n)); }},
      {"MPI_Alltoall (bare)", [&] { MPI_Alltoall(src.data(), int(b / n), MPI_BYTE, dst.data(), int(b / n), MPI_BYTE, gc); return ok(); }},
      {"all_to_all 2<-0 (unpack)", [&] { return redist::all_to_all(mesh, g, l, 2, 0, src.data(), b, dst.data(), b, scratch.data(), b); }},
      {"all_to_all 0<-2 (pack)", [&] { return redist::all_to_all(mesh, g, l, 0, 2, src.data(), b, dst.data(), b, scratch.data(), b); }},
      {"all_to_all 1<-2 (pack+unpack)", [&] { return redist::all_to_all(mesh, g, l, 1, 2, src.data(), b, dst.data(), b, scratch.data(), b); }},
      {"exchange = all_gather dim 2", [&] { return gather.run(src.data(), b, dst.data(), dst.size()); }},
      {"exchange = all_to_all 1<-2", [&] { return transpose.run(src.data(), b, dst.data(), b); }},
      {"all_to_all 1<-2 (in place)", [&] { return redist::all_to_all(mesh, g, l, 1, 2, src.data(), b, dst.data(), b, scratch.data(), redist::all_to_all_min_scratch_bytes(l, 1, 2, n)); }},
      {"MPI_Sendrecv ring (bare)", [&] { MPI_Sendrecv(src.data(), int(b), MPI_BYTE, (me + n - 1) % n, 0, dst.data(), int(b), MPI_BYTE, (me + 1) % n, 0, mesh.comm(), MPI_STATUS_IGNORE); return ok(); }},
      {"all_permute ring", [&] { return redist::all_permute(mesh, rotate.data(), n, l, src.data(), b, dst.data(), b); }},
      {"dyn_slice dim 2", [&] { return redist::dyn_slice(mesh, g, l, 2, src.data(), b, dst.data(), b); }},
    };
    if (me == 0) std::printf("%d ranks, local array 4 MiB; median ms (agreement on / off)\n", n);
    for (const Row& row : rows) {
      mesh.set_agreement(true);
      const double on = median_ms(mesh.comm(), row.f);
      mesh.set_agreement(false);
      const double off = median_ms(mesh.comm(), row.f);
      if (me == 0) std::printf("  %-32s %8.3f %8.3f\n", row.name, on, off);
    }
  }
  MPI_Finalize();
}
