// The pending-sum end-to-end driver: runs, on an MPI world of N ranks, every
// generated problem of N world ranks (tables.hpp, from gen_sums.ml), by the
// collectives or by the reducing exchange.  Each rank's source is its contribution: the global array
// g(i) is a hash of the index, every member of a source pending group but
// the one with coordinates 0 holds a hash of (rank, i), and that one holds
// g(i) minus the others' (integers wrap), so every group sums to g.  After
// run(), the members of each target pending group (one member when the
// target has none) gather their destinations, and every element of every
// rank's target box must sum to g, exactly.  Guard bytes after the
// destination and the exact workspace must survive.  Rank 0 prints one line
// per problem.
#include "redist/mpi_c.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sums.hpp"
#include "tables.hpp"

namespace {

constexpr std::size_t kGuard = 64;
constexpr unsigned char kPoison = 0xA5;

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 31;
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

std::uint64_t global_value(std::uint64_t index) { return mix(index * 2 + 1); }
std::uint64_t share(int rank, std::uint64_t index) { return mix((std::uint64_t(rank) + 1) << 40 ^ index); }

// One side's pending groups: the devices of a placed mesh that differ only
// on the pending axes.
struct Side {
  redist::PlacedMesh mesh;
  const int* pending;
  int count;

  int position_of(int world_rank) const {
    for (int p = 0; p < mesh.size(); ++p)
      if (mesh.ranks[p] == world_rank) return p;
    return -1;
  }
  bool is_pending(int axis) const {
    for (int i = 0; i < count; ++i)
      if (pending[i] == axis) return true;
    return false;
  }
  // World ranks of the members of `position`'s group, its own included.
  std::vector<int> members(int position) const {
    std::vector<int> out;
    for (int q = 0; q < mesh.size(); ++q) {
      bool same = true;
      for (int a = 0; a < mesh.naxes; ++a)
        same = same && (is_pending(a) || redist::mesh_coord(mesh, q, a) == redist::mesh_coord(mesh, position, a));
      if (same) out.push_back(mesh.ranks[q]);
    }
    return out;
  }
  // The world rank of the member of `position`'s group with coordinates 0.
  int first_member(int position) const {
    int q = position, stride = 1;
    for (int a = mesh.naxes - 1; a >= 0; --a) {
      if (is_pending(a)) q -= redist::mesh_coord(mesh, position, a) * stride;
      stride *= mesh.axis_size[a];
    }
    return mesh.ranks[q];
  }
};

// Global row-major index of local element l of box.
std::uint64_t global_index(const sums_entry& e, const redist::Box& box, std::size_t l) {
  std::size_t idx[8];
  for (int d = e.rank - 1; d >= 0; --d) {
    const std::size_t extent = box.hi[d] - box.lo[d];
    idx[d] = box.lo[d] + l % extent;
    l /= extent;
  }
  std::uint64_t lin = 0;
  for (int d = 0; d < e.rank; ++d) lin = lin * e.global_shape[d] + idx[d];
  return lin;
}

std::uint64_t truncated(std::uint64_t v, std::size_t bytes) {
  return bytes >= 8 ? v : v & ((std::uint64_t{1} << (8 * bytes)) - 1);
}

std::uint64_t load(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}

bool intact(const std::vector<unsigned char>& buf, std::size_t used) {
  for (std::size_t i = used; i < buf.size(); ++i)
    if (buf[i] != kPoison) return false;
  return true;
}

redist::Box box_of(const sums_entry& e, bool (*box)(int, std::size_t*, std::size_t*), int rank) {
  redist::Box b{e.rank, {}, {}};
  std::size_t extent[8];
  if (box(rank, b.lo, extent))
    for (int d = 0; d < e.rank; ++d) b.hi[d] = b.lo[d] + extent[d];
  return b;
}

// This rank's source contribution: every element the group's share.
std::vector<unsigned char> contribution(const sums_entry& e, const Side& source, const redist::Box& box, int me,
                                        std::size_t bytes) {
  std::vector<unsigned char> src(bytes + kGuard, kPoison);
  const int position = source.position_of(me);
  if (position < 0) return src;
  const std::vector<int> group = source.members(position);
  const bool holds_rest = source.first_member(position) == me;
  const std::size_t w = e.elem_bytes;
  for (std::size_t l = 0; l < bytes / w; ++l) {
    const std::uint64_t i = global_index(e, box, l);
    std::uint64_t v = share(me, i);
    if (holds_rest) {
      v = global_value(i);
      for (int m : group)
        if (m != me) v -= share(m, i);
    }
    std::memcpy(&src[l * w], &v, w);
  }
  return src;
}

// The members of each target group gather their destinations; every
// element of the box must add up to the global array.
long wrong_sums(const sums_entry& e, const Side& target, const redist::Box& box, int me,
                const std::vector<unsigned char>& dst, std::size_t bytes) {
  const int position = target.position_of(me);
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, position < 0 ? MPI_UNDEFINED : target.first_member(position), me, &group);
  if (position < 0) return 0;
  int n = 0;
  MPI_Comm_size(group, &n);
  std::vector<unsigned char> all(bytes * static_cast<std::size_t>(n) + 1);
  MPI_Allgather(dst.data(), static_cast<int>(bytes), MPI_BYTE, all.data(), static_cast<int>(bytes), MPI_BYTE, group);
  MPI_Comm_free(&group);
  const std::size_t w = e.elem_bytes;
  long wrong = 0;
  for (std::size_t l = 0; l < bytes / w; ++l) {
    std::uint64_t sum = 0;
    for (int k = 0; k < n; ++k) sum += load(&all[k * bytes + l * w], w);
    if (truncated(sum, w) != truncated(global_value(global_index(e, box, l)), w)) ++wrong;
  }
  return wrong;
}

// One problem on this world: "" when every element checks, else why not.
std::string check(const sums_entry& e, int me) {
  const Side source{e.source_mesh(), e.src_pending, e.src_pending_count};
  const Side target{e.target_mesh(), e.tgt_pending, e.tgt_pending_count};
  redist::Box src_box, tgt_box;
  std::size_t src_bytes, tgt_bytes, ws_bytes;
  redist::Mesh mesh;
  redist::ReducingExchange ex;
  if (e.create_mesh != nullptr) {
    if (redist::Status st = e.create_mesh(MPI_COMM_WORLD, &mesh); !st.ok()) return st.message();
    src_box = box_of(e, e.src_box, me);
    tgt_box = box_of(e, e.tgt_box, me);
    src_bytes = e.src_bytes, tgt_bytes = e.tgt_bytes, ws_bytes = e.workspace_bytes;
  } else {
    if (redist::Status st = e.create_exchange(MPI_COMM_WORLD, &ex); !st.ok()) return st.message();
    src_box = ex.source_box(), tgt_box = ex.target_box();
    src_bytes = ex.source_bytes(), tgt_bytes = ex.target_bytes(), ws_bytes = ex.workspace_bytes();
    if (ws_bytes > e.max_workspace_bytes) return "workspace above the header's kMaxWorkspaceBytes";
  }
  const std::vector<unsigned char> src = contribution(e, source, src_box, me, src_bytes);
  std::vector<unsigned char> dst(tgt_bytes + kGuard, kPoison), ws(ws_bytes + kGuard, kPoison);
  const redist::Status st =
      e.create_mesh != nullptr
          ? e.run(mesh, src.data(), src_bytes, dst.data(), tgt_bytes, ws.data(), ws_bytes)
          : ex.run(src_bytes ? src.data() : nullptr, src_bytes, tgt_bytes ? dst.data() : nullptr, tgt_bytes,
                   ws_bytes ? ws.data() : nullptr, ws_bytes);
  if (!st.ok()) return st.message();
  if (!intact(dst, tgt_bytes) || !intact(ws, ws_bytes)) return "guard bytes changed";
  const long wrong = wrong_sums(e, target, tgt_box, me, dst, tgt_bytes);
  return wrong == 0 ? "" : std::to_string(wrong) + " target elements do not sum to the global array";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int pass = 0, fail = 0;
  for (const sums_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const sums_entry& e = t.entries[i];
      if (e.world != size) continue;
      const std::string why = check(e, me);
      // A failure on any rank fails the problem; rank 0 names the lowest
      // failing rank's reason.
      const int bad_here = why.empty() ? size : me;
      int first_bad = size;
      MPI_Allreduce(&bad_here, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      char text[256] = "";
      if (first_bad < size) {
        if (me == first_bad) std::snprintf(text, sizeof text, "rank %d: %s", me, why.c_str());
        MPI_Bcast(text, sizeof text, MPI_CHAR, first_bad, MPI_COMM_WORLD);
      }
      if (first_bad == size) ++pass; else ++fail;
      if (me == 0) {
        if (first_bad == size) std::printf("ok    %s: %s\n", e.name, e.description);
        else std::printf("FAIL  %s: %s: %s\n", e.name, e.description, text);
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
