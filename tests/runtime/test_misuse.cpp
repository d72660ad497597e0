// Misuse: each error is reported as a Status with the right code and a
// message naming the problem, the destination is left untouched, and no
// rank hangs.  Also the Mesh's rank <-> coordinate maps and move semantics.
#include <algorithm>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using redist::Errc;

bool untouched(const std::vector<unsigned char>& buf) {
  for (unsigned char c : buf)
    if (c != test::kPoison) return false;
  return true;
}

TEST_CASE("Mesh::create rejects a communicator of the wrong size and bad axes") {
  const int n = test::world_size();
  redist::Mesh mesh;
  const int wrong[] = {n + 1};
  CHECK_ERROR(redist::Mesh::create(MPI_COMM_WORLD, wrong, 1, &mesh), Errc::mesh_mismatch,
              "communicator has " + std::to_string(n) + " ranks but the mesh has " +
                  std::to_string(n + 1) + " devices");
  CHECK(mesh.size() == 0);
  const int zero[] = {n, 0};
  CHECK_ERROR(redist::Mesh::create(MPI_COMM_WORLD, zero, 2, &mesh), Errc::invalid_argument,
              "size 0 of axis 1 is below 1");
  const int ok[] = {n};
  CHECK_ERROR(redist::Mesh::create(MPI_COMM_WORLD, ok, 0, &mesh), Errc::invalid_argument,
              "axis count 0");
  CHECK_ERROR(redist::Mesh::create(MPI_COMM_NULL, ok, 1, &mesh), Errc::invalid_argument,
              "MPI_COMM_NULL");
}

TEST_CASE("Mesh maps ranks to row-major coordinates and moves without copying") {
  const int n = test::world_size();
  // {n/q, q} with q the largest proper factor pattern: exercises two axes.
  const int q = n % 2 == 0 ? 2 : 1;
  const int axes[] = {n / q, q};
  redist::Mesh mesh;
  REQUIRE(redist::Mesh::create(MPI_COMM_WORLD, axes, 2, &mesh).ok());
  const int me = test::world_rank();
  CHECK(mesh.rank() == me);
  CHECK(mesh.size() == n);
  CHECK(mesh.axis_stride(0) == q);
  CHECK(mesh.axis_stride(1) == 1);
  CHECK(mesh.coord(0) == me / q);
  CHECK(mesh.coord(1) == me % q);
  const int coords[] = {mesh.coord(0), mesh.coord(1)};
  CHECK(mesh.rank_of(coords) == me);
  const int outside[] = {n / q, 0};
  CHECK(mesh.rank_of(outside) == -1);

  const redist::Group g{1, q};
  REQUIRE(mesh.prepare(&g, 1).ok());
  MPI_Comm before = MPI_COMM_NULL;
  REQUIRE(mesh.group_comm(g, &before).ok());
  redist::Mesh moved(std::move(mesh));
  CHECK(mesh.size() == 0);
  MPI_Comm after = MPI_COMM_NULL;
  REQUIRE(moved.group_comm(g, &after).ok());
  CHECK(after == before);
  if (q > 1) {
    int k = -1;
    MPI_Comm_rank(after, &k);
    CHECK(k == moved.coord(1));
  }
  const redist::Layout l{1, {2}, 4};
  std::vector<unsigned char> src(8), dst(8);
  CHECK_ERROR(redist::all_gather(mesh, g, l, 0, src.data(), 8, dst.data(), 8, nullptr, 0),
              Errc::invalid_argument, "mesh is empty");
}

TEST_CASE("invalid and unprepared groups are rejected on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Layout l{1, {2}, 4};
  std::vector<unsigned char> src(8), dst = test::poisoned(8 * (n + 1));
  CHECK_ERROR(redist::all_gather(mesh, {1, n + 1}, l, 0, src.data(), 8, dst.data(), dst.size(), nullptr, 0),
              Errc::invalid_argument, "is not a group of a mesh of " + std::to_string(n) + " devices");
  CHECK_ERROR(redist::dyn_slice(mesh, {0, 1}, l, 0, src.data(), 8, dst.data(), dst.size()),
              Errc::invalid_argument, "(stride 0, size 1)");
  CHECK(untouched(dst));
  if (n > 1) {
    redist::Mesh fresh;
    const int axes[] = {n};
    REQUIRE(redist::Mesh::create(MPI_COMM_WORLD, axes, 1, &fresh).ok());
    CHECK_ERROR(redist::all_gather(fresh, {1, n}, l, 0, src.data(), 8, dst.data(), dst.size(), nullptr, 0),
                Errc::mesh_mismatch, "was not prepared");
    const redist::Group bad{n, 2};
    CHECK_ERROR(fresh.prepare(&bad, 1), Errc::invalid_argument, "Mesh::prepare");
    // Lists of different lengths would split different groups: all refuse.
    const redist::Group two[] = {{1, n}, {1, 1}};
    const std::size_t count = test::world_rank() == 0 ? 2 : 1;
    CHECK_ERROR(fresh.prepare(two, count), Errc::invalid_argument, "different lengths");
  }
}

TEST_CASE("short buffers are reported and nothing is written") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Group all{1, n};
  const redist::Layout l{2, {3, 2 * std::size_t(n)}, 4};  // 24n bytes
  const std::size_t b = redist::bytes(l);
  auto src = test::source(mesh.rank(), {3, std::size_t(2 * n)}, 4, 7);
  auto dst = test::poisoned(b * n);
  const std::size_t scratch_need = redist::all_gather_min_scratch_bytes(l, 1, n);
  auto scratch = test::poisoned(scratch_need);

  CHECK_ERROR(redist::all_gather(mesh, all, l, 1, src.data(), b - 1, dst.data(), b * n, scratch.data(), scratch_need),
              Errc::buffer_too_small, "source has " + std::to_string(b - 1) + " bytes, needs " + std::to_string(b));
  CHECK_ERROR(redist::all_gather(mesh, all, l, 1, src.data(), b, dst.data(), b * n - 1, scratch.data(), scratch_need),
              Errc::buffer_too_small, "destination has");
  if (scratch_need > 0)
    CHECK_ERROR(redist::all_gather(mesh, all, l, 1, src.data(), b, dst.data(), b * n, scratch.data(), scratch_need - 1),
                Errc::buffer_too_small, "scratch has");
  const redist::Layout tall{2, {3 * std::size_t(n), 2}, 4};
  const std::size_t a2a_need = redist::all_to_all_min_scratch_bytes(tall, 1, 0, n);
  if (a2a_need > 0)
    CHECK_ERROR(redist::all_to_all(mesh, all, tall, 1, 0, src.data(), b, dst.data(), b, scratch.data(), a2a_need - 1),
                Errc::buffer_too_small, "scratch has " + std::to_string(a2a_need - 1) + " bytes, needs " + std::to_string(a2a_need));
  CHECK_ERROR(redist::dyn_slice(mesh, all, l, 1, src.data(), b, dst.data(), b / n - 1),
              Errc::buffer_too_small, "destination has");
  const std::vector<int> id = [&] { std::vector<int> v(n); for (int r = 0; r < n; ++r) v[r] = r; return v; }();
  CHECK_ERROR(redist::all_permute(mesh, id.data(), id.size(), l, src.data(), b, dst.data(), b - 4),
              Errc::buffer_too_small, "all_permute: destination has");
  CHECK(untouched(dst));
  CHECK(untouched(scratch));
}

TEST_CASE("an error on one rank is reported on all ranks of the group, no hang") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Group all{1, n};
  const redist::Layout l{1, {4}, 2};
  auto src = test::source(mesh.rank(), {4}, 2, 9);
  auto dst = test::poisoned(8 * n);
  // Only rank 0 passes a short destination.
  const std::size_t dst_bytes = mesh.rank() == 0 ? 8 * n - 2 : 8 * n;
  const redist::Status st = redist::all_gather(mesh, all, l, 0, src.data(), 8, dst.data(), dst_bytes, nullptr, 0);
  if (mesh.rank() == 0)
    CHECK_ERROR(st, Errc::buffer_too_small, "destination has");
  else
    CHECK_ERROR(st, Errc::remote_error, "another rank reported an error");
  CHECK(untouched(dst));

  std::vector<int> table(n, 0);
  if (mesh.rank() == n - 1) table[0] = n;  // one rank's table is out of range
  const redist::Status sp = redist::all_permute(mesh, table.data(), table.size(), l, src.data(), 8, dst.data(), 8);
  if (mesh.rank() == n - 1)
    CHECK_ERROR(sp, Errc::invalid_argument, "receives from rank " + std::to_string(n) + ", which is not in the mesh");
  else if (n > 1)
    CHECK_ERROR(sp, Errc::remote_error, "all_permute");
  CHECK(untouched(dst));
}

TEST_CASE("all_to_all members that would mix in-place and staged sends all refuse") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Group all{1, n};
  const redist::Layout l{2, {3, 2 * std::size_t(n)}, 4};  // chunks along dim 1 need packing
  const std::size_t b = redist::bytes(l);
  const std::size_t fast = redist::all_to_all_scratch_bytes(l, 0, 1, n);
  REQUIRE(fast == (n > 1 ? b : 0));
  REQUIRE(redist::all_to_all_min_scratch_bytes(l, 0, 1, n) == 0);
  std::vector<unsigned char> src(b, 1), scratch(b);
  auto dst = test::poisoned(b);
  const std::size_t given = mesh.rank() == 0 ? 0 : fast;
  const redist::Status st =
      redist::all_to_all(mesh, all, l, 0, 1, src.data(), b, dst.data(), b, scratch.data(), given);
  if (n > 1) {
    CHECK_ERROR(st, Errc::invalid_argument,
                "all_to_all: members passed scratch sizes that select different paths");
    CHECK(untouched(dst));
  } else {
    CHECK_MESSAGE(st.ok(), st.message());  // a group of one only copies
    CHECK(std::equal(src.begin(), src.end(), dst.begin()));
  }
}

TEST_CASE("bad dims, extents, layouts, tables and overlaps are rejected") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Group all{1, n};
  std::vector<unsigned char> buf(4096, 0);
  auto dst = test::poisoned(2048);
  const redist::Layout l{2, {2, 3}, 1};
  CHECK_ERROR(redist::all_gather(mesh, all, l, 2, buf.data(), 6, dst.data(), 2048, buf.data() + 1024, 1024),
              Errc::invalid_argument, "all_gather: dim 2 is out of range for a rank-2 array");
  CHECK_ERROR(redist::all_to_all(mesh, all, l, 1, 1, buf.data(), 6, dst.data(), 2048, buf.data() + 1024, 1024),
              Errc::invalid_argument, "source and target dim are both 1");
  CHECK_ERROR(redist::all_to_all(mesh, all, l, -1, 0, buf.data(), 6, dst.data(), 2048, buf.data() + 1024, 1024),
              Errc::invalid_argument, "all_to_all: source dim -1 is out of range");
  const redist::Layout odd{2, {2, std::size_t(n) * 2 + 1}, 1};
  if (n > 1) {
    CHECK_ERROR(redist::all_to_all(mesh, all, odd, 0, 1, buf.data(), 4096, dst.data(), 2048, buf.data() + 2048, 2048),
                Errc::invalid_argument, "is not divisible by the group size " + std::to_string(n));
    CHECK_ERROR(redist::dyn_slice(mesh, all, odd, 1, buf.data(), 4096, dst.data(), 2048),
                Errc::invalid_argument, "is not divisible by " + std::to_string(n));
  }
  CHECK_ERROR(redist::dyn_slice(mesh, all, redist::Layout{2, {2, 3}, 3}, 0, buf.data(), 64, dst.data(), 64),
              Errc::invalid_argument, "element size 3 bytes");
  CHECK_ERROR(redist::dyn_slice(mesh, all, redist::Layout{0, {}, 1}, 0, buf.data(), 64, dst.data(), 64),
              Errc::invalid_argument, "layout rank 0");
  CHECK_ERROR(redist::dyn_slice(mesh, all, redist::Layout{9, {}, 1}, 0, buf.data(), 64, dst.data(), 64),
              Errc::invalid_argument, "layout rank 9");
  CHECK_ERROR(redist::dyn_slice(mesh, all, redist::Layout{2, {2, 0}, 1}, 0, buf.data(), 64, dst.data(), 64),
              Errc::invalid_argument, "extent of dim 1 is 0");
  std::vector<int> table(n + 1, 0);
  CHECK_ERROR(redist::all_permute(mesh, table.data(), table.size(), l, buf.data(), 6, dst.data(), 6),
              Errc::mesh_mismatch, "table has " + std::to_string(n + 1) + " entries but the mesh has");
  CHECK_ERROR(redist::all_permute(mesh, table.data(), n, l, buf.data(), 6, buf.data() + 3, 6),
              Errc::overlap, "source and destination overlap");
  if (n > 1)
    CHECK_ERROR(redist::all_gather(mesh, all, l, 1, buf.data(), 6, dst.data(), 2048, dst.data() + 6, 1024),
                Errc::overlap, "destination and scratch overlap");
  CHECK(untouched(dst));
}

TEST_CASE("messages over MPI's int count are accepted; arrays too large for the runtime are refused") {
  redist::Mesh& mesh = test::flat_mesh();
  const redist::Group all{1, mesh.size()};
  std::vector<unsigned char> small(64);
  auto dst = test::poisoned(64);
  // A 4 GiB message travels as a derived datatype, so only the buffers
  // given are wrong here.
  const redist::Layout huge{2, {std::size_t{1} << 20, std::size_t{1} << 12}, 1};  // 4 GiB
  CHECK_ERROR(redist::all_gather(mesh, all, huge, 0, small.data(), 64, dst.data(), 64, nullptr, 0),
              Errc::buffer_too_small, "all_gather: source has 64 bytes, needs 4294967296");
  const redist::Layout absurd{3, {std::size_t{1} << 20, std::size_t{1} << 20, std::size_t{1} << 20}, 1};
  CHECK_ERROR(redist::dyn_slice(mesh, all, absurd, 0, small.data(), 64, dst.data(), 64),
              Errc::too_large, "more than 2^40 bytes");
  CHECK(untouched(dst));
}

TEST_CASE("errors name their code") {
  CHECK(std::string(redist::errc_name(Errc::buffer_too_small)) == "buffer_too_small");
  CHECK(std::string(redist::errc_name(Errc::remote_error)) == "remote_error");
  const redist::Status ok;
  CHECK(ok.ok());
  CHECK(ok.message().empty());
}

}  // namespace
