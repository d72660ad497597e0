// Baseline: ScaLAPACK's redistribution routine p?gemr2d (single precision,
// psgemr2d, as the benchmark's arrays are f32) for rank-2 problems.
//
// A layout of a matrix on a placed mesh is block-cyclic with block size =
// the ceil block on a P0 x P1 process grid where each process owns one
// block: ScaLAPACK cuts a dimension the way redist does (ceil blocks, the
// last ones short or empty), so uneven problems are expressed too, and the
// source and target grids may hold different ranks of the world (a move
// between meshes; gemr2d's gcontext spans the world).  ScaLAPACK is
// column-major, so our row-major n0 x n1 local array is the column-major
// local array of the transposed N1 x N0 matrix: grid rows come from
// dimension 1, grid columns from dimension 0.  ScaLAPACK has no
// replication: a replicated source uses one holder per block (the first in
// mesh order), and a replicated target cannot be expressed.
#include <vector>

#include "bench_common.hpp"

extern "C" {
void Cblacs_get(int ictxt, int what, int* val);
void Cblacs_gridinit(int* ictxt, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* ictxt, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int ictxt);
void Cpsgemr2d(int m, int n, float* a, int ia, int ja, int* desca, float* b, int ib, int jb, int* descb,
               int gcontext);
}

namespace bench {

struct Gemr2d {
  int ctxt_all = -1, ctxt_src = -1, ctxt_tgt = -1;
  int desc_src[9] = {}, desc_tgt[9] = {};
  int m = 0, n = 0;
  std::size_t recv_elems = 0;
};

namespace {

struct Grid {
  int nprow = 0, npcol = 0;
  std::vector<int> map;  // map[i + j*nprow] = world rank
  std::vector<int> owner_count;
  int mb = 0, nb = 0;
};

Grid grid_of(const redist::PlacedMesh& mesh, const redist::BlockLayout& layout) {
  Grid g;
  g.mb = static_cast<int>(redist::block_size(layout, mesh, 1));
  g.nb = static_cast<int>(redist::block_size(layout, mesh, 0));
  g.nprow = static_cast<int>(redist::block_count(layout, mesh, 1));
  g.npcol = static_cast<int>(redist::block_count(layout, mesh, 0));
  g.map.assign(static_cast<std::size_t>(g.nprow) * g.npcol, -1);
  g.owner_count.assign(g.map.size(), 0);
  for (int q = 0; q < mesh.size(); ++q) {
    const std::size_t k =
        redist::block_index(layout, mesh, q, 1) + redist::block_index(layout, mesh, q, 0) * g.nprow;
    if (g.map[k] < 0) g.map[k] = mesh.ranks[q];
    ++g.owner_count[k];
  }
  return g;
}

// `local_rows`: this rank's extent along dimension 1 (the column-major
// leading dimension of its local array).
int make_context(Grid& g, int rank, int* desc, int m, int n, std::size_t local_rows) {
  int ctxt = 0;
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridmap(&ctxt, g.map.data(), g.nprow, g.nprow, g.npcol);
  bool member = false;
  for (int r : g.map) member = member || r == rank;
  const int lld = local_rows > 0 ? static_cast<int>(local_rows) : 1;
  const int d[9] = {1, member ? ctxt : -1, m, n, g.mb, g.nb, 0, 0, lld};
  for (int i = 0; i < 9; ++i) desc[i] = d[i];
  return member ? ctxt : -1;
}

}  // namespace

Gemr2d* gemr2d_setup(const Problem& p, int rank, int size, const char** why_not) {
  if (p.ndim != 2) {
    *why_not = "n/a: ScaLAPACK redistributes matrices (rank 2) only";
    return nullptr;
  }
  const redist::PlacedMesh src_mesh = p.geometry.source_mesh(), tgt_mesh = p.geometry.target_mesh();
  Grid src = grid_of(src_mesh, p.geometry.source_layout());
  Grid tgt = grid_of(tgt_mesh, p.geometry.target_layout());
  for (int c : tgt.owner_count)
    if (c != 1) {
      *why_not = "n/a: the target is replicated; ScaLAPACK layouts have one owner per block";
      return nullptr;
    }
  Gemr2d* g = new Gemr2d;
  g->m = static_cast<int>(p.shape[1]);
  g->n = static_cast<int>(p.shape[0]);
  Cblacs_get(0, 0, &g->ctxt_all);
  Cblacs_gridinit(&g->ctxt_all, "R", 1, size);
  const Box mine = tgt_box(p, rank);
  g->ctxt_src = make_context(src, rank, g->desc_src, g->m, g->n, src_box(p, rank).ext[1]);
  g->ctxt_tgt = make_context(tgt, rank, g->desc_tgt, g->m, g->n, mine.ext[1]);
  // Elements of this rank's target box owned (in the source grid) by
  // another rank: what p?gemr2d has to bring in.
  for (int r : src.map) {
    Box part;
    if (r != rank && intersect(mine, src_box(p, r), &part)) g->recv_elems += part.elems();
  }
  return g;
}

void gemr2d_run(Gemr2d* g, const float* src, float* dst) {
  Cpsgemr2d(g->m, g->n, const_cast<float*>(src), 1, 1, g->desc_src, dst, 1, 1, g->desc_tgt, g->ctxt_all);
}

std::size_t gemr2d_recv_elems(const Gemr2d* g) { return g->recv_elems; }

void gemr2d_free(Gemr2d* g) {
  if (g->ctxt_src >= 0) Cblacs_gridexit(g->ctxt_src);
  if (g->ctxt_tgt >= 0) Cblacs_gridexit(g->ctxt_tgt);
  if (g->ctxt_all >= 0) Cblacs_gridexit(g->ctxt_all);
  delete g;
}

}  // namespace bench
