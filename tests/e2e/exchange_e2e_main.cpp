// The exchange end-to-end driver: on an MPI world of N ranks, runs every
// generated problem whose world has N ranks (tables.hpp).  Each rank fills
// its source box with a function of the global index, runs the exchange
// (created once; no operator new and no malloc from our own code during run()) and checks every element of
// its target box and that it received exactly its proven lower bound; ranks
// outside a mesh pass null buffers for that side.  An
// even problem is also run by its collectives plan, checked the same way,
// so both strategies end with identical arrays.  Rank 0 prints one line per
// problem.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

// The allocation counters of the collective drivers (operator new, and
// malloc from the program's own code).
#define REDIST_VERIFY_MAIN
#include "verify.hpp"

#include "exchange_e2e.hpp"
#include "tables.hpp"

namespace {


// The element at a global index: its row-major linear index, hashed into
// every byte so that a misplaced element differs in some byte.
void element_at(int ndim, const std::size_t* global, std::size_t elem_bytes, unsigned char* out) {
  unsigned long long h = 1469598103934665603ULL;
  for (int d = 0; d < ndim; ++d) h = (h ^ (global[d] + 1)) * 1099511628211ULL;
  for (std::size_t k = 0; k < elem_bytes; ++k) out[k] = static_cast<unsigned char>(h >> (8 * (k % 8)) ^ (k / 8));
}

// Calls f(position, global index) over the box lo + [0, extent), row-major.
template <class F>
void each(int ndim, const std::size_t* lo, const std::size_t* extent, F f) {
  std::size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= extent[d];
  std::size_t local[redist::kMaxRank] = {}, global[redist::kMaxRank] = {};
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < ndim; ++d) global[d] = lo[d] + local[d];
    f(i, global);
    for (int d = ndim - 1; d >= 0; --d) {
      if (++local[d] < extent[d]) break;
      local[d] = 0;
    }
  }
}

void fill(int ndim, const std::size_t* lo, const std::size_t* extent, std::size_t eb, std::vector<unsigned char>& buf) {
  each(ndim, lo, extent, [&](std::size_t i, const std::size_t* g) { element_at(ndim, g, eb, &buf[i * eb]); });
}

long count_wrong(int ndim, const std::size_t* lo, const std::size_t* extent, std::size_t eb,
                 const std::vector<unsigned char>& buf) {
  long wrong = 0;
  unsigned char want[16];
  each(ndim, lo, extent, [&](std::size_t i, const std::size_t* g) {
    element_at(ndim, g, eb, want);
    if (std::memcmp(want, &buf[i * eb], eb) != 0) ++wrong;
  });
  return wrong;
}

void* ptr(std::vector<unsigned char>& v) { return v.empty() ? nullptr : v.data(); }

// "" or what failed on this rank.
std::string check_exchange(const exchange_entry& e, int me) {
  redist::Exchange ex;
  if (redist::Status st = e.create(MPI_COMM_WORLD, &ex); !st.ok()) return "create: " + st.message();
  const redist::Box &sb = ex.source_box(), &tb = ex.target_box();
  std::size_t sext[redist::kMaxRank], text[redist::kMaxRank];
  for (int d = 0; d < sb.ndim; ++d) sext[d] = sb.hi[d] - sb.lo[d];
  for (int d = 0; d < tb.ndim; ++d) text[d] = tb.hi[d] - tb.lo[d];
  std::vector<unsigned char> src(ex.source_bytes()), dst(ex.target_bytes(), 0xA5);
  fill(sb.ndim, sb.lo, sext, e.elem_bytes, src);
  redist_verify::news = 0;
  redist_verify::own_mallocs = 0;
  redist_verify::counting = true;
  redist::Status st = e.run(ex, ptr(src), src.size(), ptr(dst), dst.size());
  redist_verify::counting = false;
  if (!st.ok()) return "run: " + st.message();
  if (redist_verify::news != 0) return "run() called operator new " + std::to_string(redist_verify::news) + " times";
  if (redist_verify::own_mallocs != 0)
    return "run() called malloc from the program's own code " + std::to_string(redist_verify::own_mallocs) + " times";
  long wrong = count_wrong(tb.ndim, tb.lo, text, e.elem_bytes, dst);
  if (wrong != 0) return std::to_string(wrong) + " wrong target elements (exchange)";
  std::size_t received = 0;
  for (const redist::Exchange::Peer& peer : ex.receives()) received += peer.elements;
  if (received != e.recv_bound[me])
    return "received " + std::to_string(received) + " elements, the lower bound is " + std::to_string(e.recv_bound[me]);
  return "";
}

std::string check_collectives(const exchange_entry& e, int me) {
  const collective_plan& c = *e.collectives;
  redist::Mesh mesh;
  if (redist::Status st = c.create_mesh(MPI_COMM_WORLD, &mesh); !st.ok()) return "create_mesh: " + st.message();
  std::size_t lo[redist::kMaxRank], ext[redist::kMaxRank];
  std::vector<unsigned char> src(c.src_bytes), dst(c.tgt_bytes, 0xA5), work(c.workspace_bytes);
  if (!c.src_box(me, lo, ext)) return "src_box refuses this rank";
  fill(c.ndim, lo, ext, e.elem_bytes, src);
  redist::Status st = c.run(mesh, ptr(src), src.size(), ptr(dst), dst.size(), ptr(work), work.size());
  if (!st.ok()) return "collectives run: " + st.message();
  if (!c.tgt_box(me, lo, ext)) return "tgt_box refuses this rank";
  long wrong = count_wrong(c.ndim, lo, ext, e.elem_bytes, dst);
  return wrong == 0 ? "" : std::to_string(wrong) + " wrong target elements (collectives)";
}

}  // namespace


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int pass = 0, fail = 0;
  for (const exchange_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const exchange_entry& e = t.entries[i];
      if (e.world != size) continue;
      std::string why = check_exchange(e, me);
      if (why.empty() && e.collectives) why = check_collectives(e, me);
      // A problem passes when it passes on every rank.
      int bad = why.empty() ? 0 : 1, any = 0;
      MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (bad) std::fprintf(stderr, "rank %d: %s: %s\n", me, e.description, why.c_str());
      if (any) ++fail; else ++pass;
      if (me == 0) {
        if (!any) std::printf("ok    %s\n", e.description);
        else std::printf("FAIL  %s\n", e.description);
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
