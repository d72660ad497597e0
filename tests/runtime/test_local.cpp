// Local kernels against naive index math, and the scratch formulas.
#include <string>
#include <vector>

#include "redist/local.hpp"
#include "support.hpp"

namespace {

using test::Index;

const std::vector<Index> kShapes = {{6}, {2, 6}, {6, 2}, {1, 4, 3}, {2, 2, 2, 4}, {2, 1, 2, 1, 2, 1, 2, 2}};

TEST_CASE("local::slice keeps chunk `index` along dim") {
  test::Tally t;
  unsigned salt = 0;
  for (const Index& ext : kShapes)
    for (int d = 0; d < static_cast<int>(ext.size()); ++d)
      for (std::size_t parts : {std::size_t{1}, std::size_t{2}})
        for (std::size_t index = 0; index < parts; ++index)
          for (std::size_t elem : {1, 2, 4, 8, 16}) {
            if (ext[d] % parts) continue;
            auto src = test::source(0, ext, elem, ++salt);
            Index out = ext;
            out[d] /= parts;
            auto dst = test::poisoned(test::count(out) * elem);
            const auto st = redist::local::slice(test::layout_of(ext, elem), d, parts, index,
                                                 src.data(), src.size(), dst.data(), dst.size());
            const std::string what = "slice " + test::describe(ext, elem) + " dim " + std::to_string(d);
            if (!st.ok()) { t.fail(what + ": " + st.message()); continue; }
            t.expect(dst, out, elem, salt, [&](const Index& idx, int* rank, std::size_t* e) {
              Index x = idx;
              x[d] = index * out[d] + idx[d];
              *rank = 0;
              *e = test::ravel(x, ext);
            }, what);
          }
  t.finish();
}

TEST_CASE("local::pack_chunks and local::concat_blocks follow the chunk order") {
  test::Tally t;
  unsigned salt = 1000;
  for (const Index& ext : kShapes)
    for (int d = 0; d < static_cast<int>(ext.size()); ++d)
      for (std::size_t parts : {std::size_t{2}, std::size_t{3}})
        for (std::size_t elem : {1, 4, 16}) {
          const std::string what = test::describe(ext, elem) + " dim " + std::to_string(d) +
                                   " parts " + std::to_string(parts);
          if (ext[d] % parts == 0) {
            // packed = [chunk 0]...[chunk parts-1], each dense.
            auto src = test::source(0, ext, elem, ++salt);
            Index chunk = ext;
            chunk[d] /= parts;
            const std::size_t n = test::count(ext) * elem;
            auto packed = test::poisoned(n);
            const auto st = redist::local::pack_chunks(test::layout_of(ext, elem), d, parts,
                                                       src.data(), n, packed.data(), n);
            if (!st.ok()) { t.fail("pack " + what + ": " + st.message()); continue; }
            Index flat = chunk;
            flat.insert(flat.begin(), parts);  // [part][chunk...]
            t.expect(packed, flat, elem, salt, [&](const Index& idx, int* rank, std::size_t* e) {
              Index x(idx.begin() + 1, idx.end());
              x[d] += idx[0] * chunk[d];
              *rank = 0;
              *e = test::ravel(x, ext);
            }, "pack " + what);
          }
          // blocks of shape ext, concatenated along d.
          Index blocks = ext;
          blocks.insert(blocks.begin(), parts);
          auto src = test::source(0, blocks, elem, ++salt);
          Index out = ext;
          out[d] *= parts;
          const std::size_t n = test::count(out) * elem;
          auto dst = test::poisoned(n);
          const auto st = redist::local::concat_blocks(test::layout_of(ext, elem), d, parts,
                                                       src.data(), n, dst.data(), n);
          if (!st.ok()) { t.fail("concat " + what + ": " + st.message()); continue; }
          t.expect(dst, out, elem, salt, [&](const Index& idx, int* rank, std::size_t* e) {
            Index x = idx;
            x[d] = idx[d] % ext[d];
            x.insert(x.begin(), idx[d] / ext[d]);
            *rank = 0;
            *e = test::ravel(x, blocks);
          }, "concat " + what);
        }
  t.finish();
}

TEST_CASE("local::transpose_blocks reorders [rows][cols] blocks to [cols][rows] in place") {
  test::Tally t;
  unsigned salt = 2000;
  for (std::size_t rows : {1, 2, 3, 5, 8})
    for (std::size_t cols : {1, 2, 4, 7, 12})
      for (std::size_t block : {1, 3, 16}) {
        const std::string what = "transpose " + std::to_string(rows) + "x" + std::to_string(cols) +
                                 " blocks of " + std::to_string(block);
        auto buf = test::source(0, {rows, cols, block}, 1, ++salt);
        const std::size_t need = redist::transpose_scratch_bytes(rows, cols, block);
        auto scratch = test::poisoned(need);
        const auto st = redist::local::transpose_blocks(buf.data(), rows * cols * block, rows, cols,
                                                        block, scratch.data(), need);
        if (!st.ok()) { t.fail(what + ": " + st.message()); continue; }
        t.expect(buf, {cols, rows, block}, 1, salt, [&](const Index& idx, int* rank, std::size_t* e) {
          *rank = 0;
          *e = test::ravel({idx[1], idx[0], idx[2]}, {rows, cols, block});
        }, what);
        t.canary(scratch, need, what + " scratch");
      }
  t.finish();
  std::vector<unsigned char> buf(24), scratch(8);
  const auto st = redist::local::transpose_blocks(buf.data(), 24, 2, 3, 4, scratch.data(), 4);
  CHECK(st.code() == redist::Errc::buffer_too_small);
  CHECK(st.message() == "scratch has 4 bytes, needs 5");
}

TEST_CASE("scratch sizes: none where blocks are contiguous, one array otherwise") {
  constexpr redist::Layout l{3, {2, 3, 4}, 8};
  static_assert(redist::bytes(l) == 192);
  static_assert(redist::all_gather_scratch_bytes(l, 0, 4) == 0);
  static_assert(redist::all_gather_scratch_bytes(l, 1, 4) == 4 * 192);
  static_assert(redist::all_gather_scratch_bytes(l, 2, 1) == 0);
  constexpr redist::Layout lead1{3, {1, 3, 4}, 8};
  CHECK(redist::all_gather_scratch_bytes(lead1, 1, 2) == 0);
  CHECK(redist::all_gather_scratch_bytes(lead1, 2, 2) == 2 * 96);
  // all_to_all(s, t): pack iff something precedes t, unpack iff something
  // precedes s in the result.
  constexpr redist::Layout a{2, {4, 6}, 4};
  CHECK(redist::all_to_all_scratch_bytes(a, 1, 0, 2) == 96);
  CHECK(redist::all_to_all_scratch_bytes(a, 0, 1, 2) == 96);
  constexpr redist::Layout b{2, {2, 6}, 4};
  CHECK(redist::all_to_all_scratch_bytes(b, 1, 0, 2) == 0);
  constexpr redist::Layout c{3, {1, 2, 4}, 2};
  CHECK(redist::all_to_all_scratch_bytes(c, 2, 1, 2) == 0);
  CHECK(redist::all_to_all_scratch_bytes(c, 1, 2, 2) == 16);
  CHECK(redist::all_to_all_scratch_bytes(a, 0, 0, 2) == 0);
  // In place: one run of the result plus a bit per block.
  static_assert(redist::all_gather_min_scratch_bytes(l, 0, 4) == 0);
  static_assert(redist::all_gather_min_scratch_bytes(l, 1, 4) == 3 * 4 * 8 + 1);  // 8 blocks
  static_assert(redist::all_gather_min_scratch_bytes(l, 2, 4) == 4 * 8 + 3);      // 24 blocks
  CHECK(redist::all_to_all_min_scratch_bytes(a, 0, 1, 2) == 0);       // pack only: none
  CHECK(redist::all_to_all_min_scratch_bytes(a, 1, 0, 2) == 6 * 4 + 1);  // 2 x 2 blocks of 6
  CHECK(redist::all_to_all_min_scratch_bytes(c, 1, 2, 2) == 0);
  CHECK(redist::transpose_scratch_bytes(1, 9, 4) == 0);
  CHECK(redist::transpose_scratch_bytes(3, 3, 4) == 4 + 2);
  CHECK(redist::dyn_slice_scratch_bytes(a, 0, 2) == 0);
  CHECK(redist::all_permute_scratch_bytes(a) == 0);
}

TEST_CASE("result layouts of the collectives") {
  constexpr redist::Layout l{2, {4, 6}, 2};
  constexpr redist::Layout g = redist::all_gather_out(l, 1, 3);
  static_assert(g.extent[0] == 4 && g.extent[1] == 18 && g.elem_bytes == 2);
  constexpr redist::Layout a = redist::all_to_all_out(l, 0, 1, 3);
  static_assert(a.extent[0] == 12 && a.extent[1] == 2);
  constexpr redist::Layout s = redist::dyn_slice_out(l, 0, 2);
  CHECK(s.extent[0] == 2);
  CHECK(s.extent[1] == 6);
  CHECK(redist::group_index(13, {4, 2}) == 1);
  CHECK(redist::group_member(13, {4, 2}, 0) == 9);
  CHECK(redist::group_member(13, {1, 4}, 3) == 15);
}

}  // namespace
