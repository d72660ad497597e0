// The pending-sum end-to-end driver: runs, on an MPI world of N ranks, every
// generated problem whose mesh has N devices (tables.hpp, from
// gen_sums.ml).  Each rank's source is its contribution: the global array
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

// Every rank of r's group over `groups` (all combinations of their
// coordinates), r's own included.
std::vector<int> members(int r, const redist::Group* groups, int count) {
  std::vector<int> out{r};
  for (int g = 0; g < count; ++g) {
    std::vector<int> next;
    for (int m : out)
      for (int k = 0; k < groups[g].size; ++k) next.push_back(redist::group_member(m, groups[g], k));
    out = next;
  }
  return out;
}

bool designated(int r, const redist::Group* groups, int count) {
  for (int g = 0; g < count; ++g)
    if (redist::group_index(r, groups[g]) != 0) return false;
  return true;
}

// Global row-major index of local element l of the box (offset, extent).
std::uint64_t global_index(const sums_entry& e, const std::size_t* offset, const std::size_t* extent,
                           std::size_t l) {
  std::size_t idx[8];
  for (int d = e.rank - 1; d >= 0; --d) {
    idx[d] = offset[d] + l % extent[d];
    l /= extent[d];
  }
  std::uint64_t lin = 0;
  for (int d = 0; d < e.rank; ++d) lin = lin * e.global_shape[d] + idx[d];
  return lin;
}

std::size_t elements(const sums_entry& e, const std::size_t* extent) {
  std::size_t n = 1;
  for (int d = 0; d < e.rank; ++d) n *= extent[d];
  return n;
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

// One problem on this world: "" when every element checks, else why not.
std::string check(const sums_entry& e, int me) {
  redist::Mesh mesh;
  if (redist::Status st = e.create_mesh(MPI_COMM_WORLD, &mesh); !st.ok()) return st.message();
  const std::size_t w = e.elem_bytes;
  std::size_t offset[8], extent[8];
  e.src_box(me, offset, extent);
  std::vector<unsigned char> src(e.src_bytes + kGuard, kPoison);
  const std::vector<int> group = members(me, e.src_pending, e.src_pending_count);
  const bool holds_rest = designated(me, e.src_pending, e.src_pending_count);
  for (std::size_t l = 0; l < elements(e, extent); ++l) {
    const std::uint64_t i = global_index(e, offset, extent, l);
    std::uint64_t v = share(me, i);
    if (holds_rest) {
      v = global_value(i);
      for (int m : group)
        if (m != me) v -= share(m, i);
    }
    std::memcpy(&src[l * w], &v, w);
  }
  std::vector<unsigned char> dst(e.tgt_bytes + kGuard, kPoison), ws(e.workspace_bytes + kGuard, kPoison);
  if (redist::Status st = e.run(mesh, src.data(), e.src_bytes, dst.data(), e.tgt_bytes, ws.data(), e.workspace_bytes);
      !st.ok())
    return st.message();
  if (!intact(dst, e.tgt_bytes) || !intact(ws, e.workspace_bytes)) return "guard bytes changed";

  // The target group's members gather their destinations and add them up.
  MPI_Comm tgt_group;
  int color = me;
  for (int g = 0; g < e.tgt_pending_count; ++g) color = redist::group_member(color, e.tgt_pending[g], 0);
  MPI_Comm_split(MPI_COMM_WORLD, color, me, &tgt_group);
  int n = 0;
  MPI_Comm_size(tgt_group, &n);
  std::vector<unsigned char> all(e.tgt_bytes * static_cast<std::size_t>(n) + 1);
  MPI_Allgather(dst.data(), static_cast<int>(e.tgt_bytes), MPI_BYTE, all.data(), static_cast<int>(e.tgt_bytes),
                MPI_BYTE, tgt_group);
  MPI_Comm_free(&tgt_group);
  e.tgt_box(me, offset, extent);
  long wrong = 0;
  for (std::size_t l = 0; l < elements(e, extent); ++l) {
    std::uint64_t sum = 0;
    for (int k = 0; k < n; ++k) sum += load(&all[k * e.tgt_bytes + l * w], w);
    if (truncated(sum, w) != truncated(global_value(global_index(e, offset, extent, l)), w)) ++wrong;
  }
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
      if (e.devices != size) continue;
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
