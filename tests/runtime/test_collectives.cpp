// Each collective against naive element-by-element index math, for array
// ranks 1..4 and 8, every dim (pair), every element size and every
// rank-space group (stride, size) of the world (mesh axes and sub-axes).
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"

namespace {

using test::Index;

const std::size_t kElemSizes[] = {1, 2, 4, 8, 16};

std::vector<Index> shapes_of_rank(int r) {
  switch (r) {
    case 1: return {{3}, {1}};
    case 2: return {{2, 3}, {1, 2}};
    case 3: return {{2, 1, 3}, {1, 3, 2}};
    case 4: return {{2, 3, 1, 2}, {1, 1, 2, 3}};
    default: return {{1, 2, 1, 2, 1, 1, 2, 1}};
  }
}

// Salt of the next call, equal on all ranks because they loop alike.
unsigned next_salt() {
  static unsigned salt = 0;
  return ++salt;
}

std::string group_text(redist::Group g) {
  return "group (stride " + std::to_string(g.stride) + ", size " + std::to_string(g.size) + ")";
}

// `fast`: give the out-of-place path's scratch, else the in-place minimum.
void check_all_gather(const Index& ext, int d, std::size_t elem, redist::Group g, bool fast,
                      test::Tally& t) {
  redist::Mesh& mesh = test::flat_mesh();
  const int me = mesh.rank();
  const unsigned salt = next_salt();
  const redist::Layout in = test::layout_of(ext, elem);
  Index out_ext = ext;
  out_ext[d] *= g.size;
  auto src = test::source(me, ext, elem, salt);
  auto dst = test::poisoned(test::count(out_ext) * elem);
  const std::size_t scratch_bytes = fast ? redist::all_gather_scratch_bytes(in, d, g.size)
                                         : redist::all_gather_min_scratch_bytes(in, d, g.size);
  auto scratch = test::poisoned(scratch_bytes);
  const std::string what = "all_gather dim " + std::to_string(d) + " " + test::describe(ext, elem) +
                           " " + group_text(g) + (fast ? " fast" : " in place");
  const redist::Status st = redist::all_gather(mesh, g, in, d, src.data(), src.size() - test::kCanary,
                                               dst.data(), dst.size() - test::kCanary, scratch.data(),
                                               scratch_bytes);
  if (!st.ok()) return t.fail(what + ": " + st.message());
  t.expect(dst, out_ext, elem, salt,
           [&](const Index& idx, int* rank, std::size_t* e) {
             Index s = idx;
             s[d] = idx[d] % ext[d];
             *rank = test::member(me, g.stride, g.size, static_cast<int>(idx[d] / ext[d]));
             *e = test::ravel(s, ext);
           },
           what);
  t.canary(scratch, scratch_bytes, what + " scratch");
}

void check_all_to_all(const Index& ext, int s, int tdim, std::size_t elem, redist::Group g,
                      bool fast, test::Tally& t) {
  redist::Mesh& mesh = test::flat_mesh();
  const int me = mesh.rank();
  const int coord = (me / g.stride) % g.size;
  const unsigned salt = next_salt();
  Index in_ext = ext;
  in_ext[tdim] *= g.size;
  const redist::Layout in = test::layout_of(in_ext, elem);
  Index out_ext = in_ext;
  out_ext[s] *= g.size;
  out_ext[tdim] /= g.size;
  auto src = test::source(me, in_ext, elem, salt);
  auto dst = test::poisoned(test::count(out_ext) * elem);
  const std::size_t scratch_bytes = fast ? redist::all_to_all_scratch_bytes(in, s, tdim, g.size)
                                         : redist::all_to_all_min_scratch_bytes(in, s, tdim, g.size);
  auto scratch = test::poisoned(scratch_bytes);
  const std::string what = "all_to_all " + std::to_string(s) + "<-" + std::to_string(tdim) + " " +
                           test::describe(in_ext, elem) + " " + group_text(g) +
                           (fast ? " fast" : " in place");
  const redist::Status st =
      redist::all_to_all(mesh, g, in, s, tdim, src.data(), src.size() - test::kCanary, dst.data(),
                         dst.size() - test::kCanary, scratch.data(), scratch_bytes);
  if (!st.ok()) return t.fail(what + ": " + st.message());
  t.expect(dst, out_ext, elem, salt,
           [&](const Index& idx, int* rank, std::size_t* e) {
             Index x = idx;
             x[s] = idx[s] % in_ext[s];
             x[tdim] = coord * out_ext[tdim] + idx[tdim];
             *rank = test::member(me, g.stride, g.size, static_cast<int>(idx[s] / in_ext[s]));
             *e = test::ravel(x, in_ext);
           },
           what);
  t.canary(scratch, scratch_bytes, what + " scratch");
}

void check_dyn_slice(const Index& ext, int d, std::size_t elem, redist::Group g, test::Tally& t) {
  redist::Mesh& mesh = test::flat_mesh();
  const int me = mesh.rank();
  const int coord = (me / g.stride) % g.size;
  const unsigned salt = next_salt();
  Index in_ext = ext;
  in_ext[d] *= g.size;
  auto src = test::source(me, in_ext, elem, salt);
  auto dst = test::poisoned(test::count(ext) * elem);
  const std::string what = "dyn_slice dim " + std::to_string(d) + " " +
                           test::describe(in_ext, elem) + " " + group_text(g);
  const redist::Status st =
      redist::dyn_slice(mesh, g, test::layout_of(in_ext, elem), d, src.data(),
                        src.size() - test::kCanary, dst.data(), dst.size() - test::kCanary);
  if (!st.ok()) return t.fail(what + ": " + st.message());
  t.expect(dst, ext, elem, salt,
           [&](const Index& idx, int* rank, std::size_t* e) {
             Index x = idx;
             x[d] = coord * ext[d] + idx[d];
             *rank = me;
             *e = test::ravel(x, in_ext);
           },
           what);
}

// Deterministic tables, equal on all ranks: identity, a rotation, a
// reversal, pseudo-random maps (not necessarily bijective), all-from-one.
std::vector<std::vector<int>> permute_tables(int n) {
  std::vector<std::vector<int>> tables;
  std::vector<int> id(n), rot(n), rev(n), one(n, n - 1);
  for (int r = 0; r < n; ++r) {
    id[r] = r;
    rot[r] = (r + 1) % n;
    rev[r] = n - 1 - r;
  }
  tables = {id, rot, rev, one};
  unsigned x = 12345;
  for (int k = 0; k < 4; ++k) {
    std::vector<int> t(n);
    for (int r = 0; r < n; ++r) {
      x = x * 1103515245u + 12345u;
      t[r] = static_cast<int>((x >> 16) % n);
    }
    tables.push_back(t);
  }
  return tables;
}

void check_all_permute(const Index& ext, std::size_t elem, const std::vector<int>& table,
                       test::Tally& t) {
  redist::Mesh& mesh = test::flat_mesh();
  const int me = mesh.rank();
  const unsigned salt = next_salt();
  auto src = test::source(me, ext, elem, salt);
  auto dst = test::poisoned(test::count(ext) * elem);
  std::string what = "all_permute " + test::describe(ext, elem) + " table";
  for (int r : table) what += " " + std::to_string(r);
  const redist::Status st =
      redist::all_permute(mesh, table.data(), table.size(), test::layout_of(ext, elem), src.data(),
                          src.size() - test::kCanary, dst.data(), dst.size() - test::kCanary);
  if (!st.ok()) return t.fail(what + ": " + st.message());
  t.expect(dst, ext, elem, salt,
           [&](const Index& idx, int* rank, std::size_t* e) {
             *rank = table[me];
             *e = test::ravel(idx, ext);
           },
           what);
}

// Rank-8 arrays have 56 dim pairs: cycle the element sizes over them
// instead of trying all five per pair, to keep the suite fast.
bool elem_selected(int array_rank, std::size_t elem_index, std::size_t case_index) {
  return array_rank < 8 || elem_index == case_index % 5;
}

// Calls body(ext, s, t, elem, g) for every shape of the array rank, dim
// pair of `dims`, selected element size and group of the world.
template <class Body>
void each_case(int array_rank, const std::vector<std::pair<int, int>>& dims, Body body) {
  std::size_t case_index = 0;
  for (const Index& ext : shapes_of_rank(array_rank))
    for (const auto& [s, d] : dims) {
      for (std::size_t ei = 0; ei < 5; ++ei)
        if (elem_selected(array_rank, ei, case_index))
          for (redist::Group g : test::all_groups(test::world_size()))
            body(ext, s, d, kElemSizes[ei], g);
      ++case_index;
    }
}

// Every dim, as the pair (d, d).
std::vector<std::pair<int, int>> single_dims(int array_rank) {
  std::vector<std::pair<int, int>> dims;
  for (int d = 0; d < array_rank; ++d) dims.emplace_back(d, d);
  return dims;
}

std::vector<std::pair<int, int>> distinct_dim_pairs(int array_rank) {
  std::vector<std::pair<int, int>> dims;
  for (int s = 0; s < array_rank; ++s)
    for (int d = 0; d < array_rank; ++d)
      if (s != d) dims.emplace_back(s, d);
  return dims;
}

void gather_cases(int array_rank) {
  test::Tally t;
  each_case(array_rank, single_dims(array_rank),
            [&](const Index& ext, int d, int, std::size_t elem, redist::Group g) {
              for (bool fast : {false, true}) check_all_gather(ext, d, elem, g, fast, t);
            });
  t.finish();
}

void all_to_all_cases(int array_rank) {
  test::Tally t;
  each_case(array_rank, distinct_dim_pairs(array_rank),
            [&](const Index& ext, int s, int d, std::size_t elem, redist::Group g) {
              for (bool fast : {false, true}) check_all_to_all(ext, s, d, elem, g, fast, t);
            });
  t.finish();
}

void slice_cases(int array_rank) {
  test::Tally t;
  each_case(array_rank, single_dims(array_rank),
            [&](const Index& ext, int d, int, std::size_t elem, redist::Group g) {
              check_dyn_slice(ext, d, elem, g, t);
            });
  t.finish();
}

void permute_cases(int array_rank) {
  test::Tally t;
  for (const Index& ext : shapes_of_rank(array_rank))
    for (std::size_t elem : kElemSizes)
      for (const std::vector<int>& table : permute_tables(test::world_size()))
        check_all_permute(ext, elem, table, t);
  t.finish();
}

}  // namespace

// One test case per collective and array rank.
#define PER_ARRAY_RANK(title, fn)                              \
  TEST_CASE(title ", array rank 1") { fn(1); }                 \
  TEST_CASE(title ", array rank 2") { fn(2); }                 \
  TEST_CASE(title ", array rank 3") { fn(3); }                 \
  TEST_CASE(title ", array rank 4") { fn(4); }                 \
  TEST_CASE(title ", array rank 8") { fn(8); }

PER_ARRAY_RANK("all_gather matches the reference on every dim", gather_cases)
PER_ARRAY_RANK("all_to_all matches the reference on every dim pair", all_to_all_cases)
PER_ARRAY_RANK("dyn_slice keeps the chunk of the group coordinate", slice_cases)
PER_ARRAY_RANK("all_permute copies the array of recv_from[rank]", permute_cases)
