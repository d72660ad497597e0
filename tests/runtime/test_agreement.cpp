// Agreement: one rank passing an argument that differs from the other ranks'
// (a table, a layout, a group, dims, a group list) gets an error on every
// rank, never a hang or a wrong result (issue 12).  Each case below hung or
// returned a wrong result on some rank before the arguments were agreed;
// run.sh's timeout turns a hang into a failure.
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using redist::Errc;

// Every rank checks its own status: with agreement all get the same error.
void check_everywhere(const redist::Status& st, const std::string& text) {
  CHECK_MESSAGE(st.code() == Errc::invalid_argument, st.message());
  CHECK_MESSAGE(st.message().find(text) != std::string::npos, st.message());
}

bool untouched(const std::vector<unsigned char>& buf) {
  for (unsigned char c : buf)
    if (c != test::kPoison) return false;
  return true;
}

// The largest divisor of n below n (1 for a prime): a second valid group
// size besides n itself.
int proper_divisor(int n) {
  for (int q = n / 2; q > 1; --q)
    if (n % q == 0) return q;
  return 1;
}

// After a refused call the ranks are still in step: a correct all_gather
// over the whole mesh returns every rank's data.
void check_still_in_step(redist::Mesh& mesh) {
  const int n = mesh.size();
  const redist::Layout l{1, {3}, 4};
  auto src = test::source(mesh.rank(), {3}, 4, 41);
  auto dst = test::poisoned(12 * n);
  const redist::Status st =
      redist::all_gather(mesh, {1, n}, l, 0, src.data(), 12, dst.data(), 12 * n, nullptr, 0);
  REQUIRE_MESSAGE(st.ok(), st.message());
  test::Tally t;
  t.expect(dst, {3 * std::size_t(n)}, 4, 41,
           [](const test::Index& i, int* r, std::size_t* e) {
             *r = int(i[0] / 3);
             *e = i[0] % 3;
           },
           "all_gather after a refused call");
  t.finish();
}

TEST_CASE("all_permute with a valid table that differs on one rank fails on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  if (n == 1) return;
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = (r + 1) % n;
  if (mesh.rank() == n - 1)
    for (int r = 0; r < n; ++r) table[r] = r;  // the identity: valid, but not the others'
  const redist::Layout l{1, {4}, 2};
  auto src = test::source(mesh.rank(), {4}, 2, 11);
  auto dst = test::poisoned(8);
  check_everywhere(redist::all_permute(mesh, table.data(), n, l, src.data(), 8, dst.data(), 8),
                   "all_permute: ranks passed different tables");
  CHECK(untouched(dst));
  check_still_in_step(mesh);
}

TEST_CASE("all_permute with a layout that differs on one rank fails on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  if (n == 1) return;
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = (r + 1) % n;
  // Rank 0 expects twice what its source sends: it would receive half.
  const redist::Layout l{1, {mesh.rank() == 0 ? std::size_t{24} : std::size_t{12}}, 2};
  auto src = test::source(mesh.rank(), {24}, 2, 12);
  auto dst = test::poisoned(48);
  check_everywhere(redist::all_permute(mesh, table.data(), n, l, src.data(), 48, dst.data(), 48),
                   "all_permute: members passed different layouts");
  CHECK(untouched(dst));
  check_still_in_step(mesh);
}

TEST_CASE("all_gather with a layout, dim or group that differs on one rank fails on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  if (n == 1) return;
  const bool odd_one = mesh.rank() == 0;
  const redist::Layout l{2, {2, 4}, 2};
  const std::size_t b = redist::bytes(l);
  auto src = test::source(mesh.rank(), {4, 4}, 2, 13);
  auto dst = test::poisoned(4 * b * n);
  auto scratch = test::poisoned(4 * b * n);
  auto gather = [&](redist::Group g, const redist::Layout& layout, int dim) {
    return redist::all_gather(mesh, g, layout, dim, src.data(), 2 * b, dst.data(), 4 * b * n,
                              scratch.data(), 4 * b * n);
  };
  const redist::Group all{1, n};
  check_everywhere(gather(all, odd_one ? redist::Layout{2, {4, 4}, 2} : l, 0),
                   "all_gather: members passed different layouts");
  check_everywhere(gather(all, l, odd_one ? 1 : 0), "all_gather: members passed different dims");
  for (redist::Group other : {redist::Group{1, 1}, redist::Group{1, proper_divisor(n)}})
    check_everywhere(gather(odd_one ? other : all, l, 0), "all_gather: members passed different groups");
  CHECK(untouched(dst));
  CHECK(untouched(scratch));
  check_still_in_step(mesh);
}

TEST_CASE("all_to_all with a layout, dims or group that differs on one rank fails on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  if (n == 1) return;
  const bool odd_one = mesh.rank() == 0;
  const std::size_t N = static_cast<std::size_t>(n);
  const redist::Layout l{2, {N, 2 * N}, 4};
  const std::size_t b = redist::bytes(l);
  auto src = test::source(mesh.rank(), {2 * N, 2 * N}, 4, 14);
  auto dst = test::poisoned(2 * b);
  auto scratch = test::poisoned(2 * b);
  auto exchange = [&](redist::Group g, const redist::Layout& layout, int s, int t) {
    return redist::all_to_all(mesh, g, layout, s, t, src.data(), 2 * b, dst.data(), 2 * b,
                              scratch.data(), 2 * b);
  };
  const redist::Group all{1, n};
  check_everywhere(exchange(all, odd_one ? redist::Layout{2, {2 * N, 2 * N}, 4} : l, 0, 1),
                   "all_to_all: members passed different layouts");
  check_everywhere(exchange(all, odd_one ? redist::Layout{2, {N, 2 * N}, 2} : l, 0, 1),
                   "all_to_all: members passed different layouts");
  check_everywhere(exchange(all, l, odd_one ? 1 : 0, odd_one ? 0 : 1),
                   "all_to_all: members passed different dims");
  for (redist::Group other : {redist::Group{1, 1}, redist::Group{1, proper_divisor(n)}})
    check_everywhere(exchange(odd_one ? other : all, l, 0, 1),
                     "all_to_all: members passed different groups");
  CHECK(untouched(dst));
  CHECK(untouched(scratch));
  check_still_in_step(mesh);
}

TEST_CASE("an unprepared or invalid group on one rank fails on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  if (n == 1) return;
  const redist::Layout l{1, {2}, 4};
  auto src = test::source(mesh.rank(), {2}, 4, 15);
  auto dst = test::poisoned(8 * (n + 1));
  const redist::Group g = mesh.rank() == 0 ? redist::Group{1, n + 1} : redist::Group{1, n};
  const redist::Status st =
      redist::all_gather(mesh, g, l, 0, src.data(), 8, dst.data(), 8 * (n + 1), nullptr, 0);
  if (mesh.rank() == 0) {
    CHECK_MESSAGE(st.code() == Errc::invalid_argument, st.message());
  } else {
    CHECK_MESSAGE(st.code() == Errc::remote_error, st.message());
  }
  CHECK(untouched(dst));
  check_still_in_step(mesh);
}

TEST_CASE("Mesh::create with axis sizes that differ on one rank fails on every rank") {
  const int n = test::world_size();
  if (n == 1) return;
  const bool odd_one = test::world_rank() == 0;
  redist::Mesh mesh;
  // The same number of devices, another shape: rank 0 would build another mesh.
  const int q = proper_divisor(n);
  const int flat[] = {n}, two_axes[] = {n / q, q};  // {n, 1} when n is prime
  check_everywhere(redist::Mesh::create(MPI_COMM_WORLD, odd_one ? two_axes : flat, odd_one ? 2 : 1, &mesh),
                   "Mesh::create: ranks passed different axis sizes");
  CHECK(mesh.size() == 0);
  // Another number of devices on rank 0 only: the others must not wait for it.
  const int more[] = {n + 1};
  const redist::Status st = redist::Mesh::create(MPI_COMM_WORLD, odd_one ? more : flat, 1, &mesh);
  CHECK_MESSAGE(st.code() == (odd_one ? Errc::mesh_mismatch : Errc::remote_error), st.message());
  CHECK(mesh.size() == 0);
  REQUIRE(redist::Mesh::create(MPI_COMM_WORLD, flat, 1, &mesh).ok());
  const redist::Group whole{1, n};
  REQUIRE(mesh.prepare(&whole, 1).ok());
  check_still_in_step(mesh);
}

TEST_CASE("Mesh::prepare with group lists that differ on one rank fails on every rank") {
  const int n = test::world_size();
  if (n == 1) return;
  redist::Mesh mesh;
  const int axes[] = {n};
  REQUIRE(redist::Mesh::create(MPI_COMM_WORLD, axes, 1, &mesh).ok());
  const bool odd_one = mesh.rank() == 0;
  // The same groups in another order: each rank would split a different one first.
  std::vector<redist::Group> groups = test::all_groups(n);
  std::vector<redist::Group> reversed(groups.rbegin(), groups.rend());
  const std::vector<redist::Group>& mine = odd_one ? reversed : groups;
  check_everywhere(mesh.prepare(mine.data(), mine.size()),
                   "Mesh::prepare: ranks passed different group lists");
  // One rank names the whole mesh, the others a group of one (never split).
  const redist::Group whole{1, n}, single{1, 1};
  check_everywhere(mesh.prepare(odd_one ? &whole : &single, 1),
                   "Mesh::prepare: ranks passed different group lists");
  // Nothing was split: the whole mesh is still unprepared on every rank.
  MPI_Comm comm = MPI_COMM_NULL;
  CHECK(mesh.group_comm(whole, &comm).code() == Errc::mesh_mismatch);
  REQUIRE(mesh.prepare(&whole, 1).ok());
  check_still_in_step(mesh);
}

}  // namespace
