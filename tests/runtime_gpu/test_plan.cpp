// Host-only checks of the copy plans behind the device kernels: a plan
// replayed word by word on the host, exactly as the kernel indexes, must
// reproduce the CPU reference kernels of local.hpp; and the word width must
// be the widest the run, strides and alignment allow.
#include <cstring>
#include <string>
#include <vector>

#include "nccl/copy_plan.hpp"
#include "check.hpp"
#include "redist/local.hpp"
#include "shapes.hpp"

namespace gputest {

namespace {

using redist::cuda::detail::CopyPlan;

void replay(const CopyPlan& p, const unsigned char* src, unsigned char* dst) {
  for (std::size_t i = 0; i < p.words; ++i)
    std::memcpy(dst + i * p.width, src + redist::cuda::detail::source_word(p, i) * p.width, p.width);
}

// A 16-byte aligned region of `bytes` inside `storage`, shifted by `shift`.
unsigned char* aligned(std::vector<unsigned char>& storage, std::size_t bytes, std::size_t shift) {
  storage.assign(bytes + shift + 16, kPoison);
  auto addr = reinterpret_cast<std::uintptr_t>(storage.data());
  return storage.data() + ((16 - addr % 16) % 16) + shift;
}

// Replays `plan` from src and compares with `want`; the bytes after the
// result must stay poisoned.
void compare(const CopyPlan& plan, const unsigned char* src, const std::vector<unsigned char>& want,
             std::size_t shift, Tally& t, const std::string& what) {
  std::vector<unsigned char> storage;
  unsigned char* dst = aligned(storage, want.size() + kCanary, shift);
  // The plan was made for another destination address; only its alignment
  // matters, and the shift keeps it.
  replay(plan, src, dst);
  t.expect(std::memcmp(dst, want.data(), want.size()) == 0, what + ": wrong bytes");
  for (std::size_t i = 0; i < kCanary; ++i)
    if (dst[want.size() + i] != kPoison) return t.fail(what + ": wrote past the result");
}

void replay_matches_reference(Tally& t) {
  for (const redist::Layout& l : test_layouts()) {
    const std::size_t total = redist::bytes(l);
    for (std::size_t shift : {std::size_t{0}, l.elem_bytes}) {
      std::vector<unsigned char> src_storage, dst_storage;
      unsigned char* src = aligned(src_storage, total, shift);
      const std::vector<unsigned char> values = labelled(0, total, 1);
      std::memcpy(src, values.data(), total);
      unsigned char* dst_addr = aligned(dst_storage, total, shift);
      for (int d = 0; d < l.ndim; ++d) {
        for (std::size_t parts : divisors(l.extent[d])) {
          const std::string what = describe(l) + " dim " + std::to_string(d) + " parts " +
                                   std::to_string(parts) + " shift " + std::to_string(shift);
          std::vector<unsigned char> want(total);
          t.expect(redist::local::pack_chunks(l, d, parts, src, total, want.data(), total).ok(),
                   what + ": reference pack failed");
          compare(redist::cuda::detail::plan_pack(l, d, parts, src, dst_addr), src, want, shift, t,
                  "pack " + what);
          for (std::size_t index = 0; index < parts; ++index) {
            std::vector<unsigned char> part(total / parts);
            t.expect(redist::local::slice(l, d, parts, index, src, total, part.data(), part.size())
                         .ok(),
                     what + ": reference slice failed");
            compare(redist::cuda::detail::plan_slice(l, d, parts, index, src, dst_addr), src, part,
                    shift, t, "slice " + what + " index " + std::to_string(index));
          }
        }
        // concat: `l` is the block; the source holds 1..3 blocks.
        for (std::size_t parts = 1; parts <= 3; ++parts) {
          std::vector<unsigned char> blocks_storage;
          unsigned char* blocks = aligned(blocks_storage, total * parts, shift);
          const std::vector<unsigned char> block_values = labelled(1, total * parts, 2);
          std::memcpy(blocks, block_values.data(), total * parts);
          std::vector<unsigned char> want(total * parts);
          const std::string what = "concat " + describe(l) + " dim " + std::to_string(d) +
                                   " parts " + std::to_string(parts) + " shift " +
                                   std::to_string(shift);
          t.expect(redist::local::concat_blocks(l, d, parts, blocks, total * parts, want.data(),
                                                want.size())
                       .ok(),
                   what + ": reference concat failed");
          compare(redist::cuda::detail::plan_concat(l, d, parts, blocks, dst_addr), blocks, want,
                  shift, t, what);
        }
      }
    }
  }
}

// Widths worked out by hand: the widest of 16/8/4/2/1 dividing the run,
// both strides, the source offset and both addresses.
void widths_are_the_widest_allowed(Tally& t) {
  alignas(16) static unsigned char src[4096];
  alignas(16) static unsigned char dst[4096];
  using redist::cuda::detail::plan_concat;
  using redist::cuda::detail::plan_pack;
  using redist::cuda::detail::plan_slice;
  auto expect_width = [&](const CopyPlan& p, std::size_t width, const std::string& what) {
    t.expect(p.width == width, what + ": width " + std::to_string(p.width) + ", expected " +
                                   std::to_string(width));
  };
  // [4 x 8] of 4-byte elements cut along dim 1 in 2: 16-byte runs.
  const redist::Layout a = layout_of({4, 8}, 4);
  expect_width(plan_pack(a, 1, 2, src, dst), 16, "pack [4x8]*4B dim 1 / 2");
  expect_width(plan_pack(a, 1, 2, src, dst + 4), 4, "same, destination 4 bytes off");
  expect_width(plan_pack(a, 1, 2, src + 8, dst), 8, "same, source 8 bytes off");
  // 12-byte runs.
  expect_width(plan_pack(layout_of({4, 6}, 4), 1, 2, src, dst), 4, "pack [4x6]*4B dim 1 / 2");
  // 2-byte runs.
  expect_width(plan_pack(layout_of({5, 3}, 2), 1, 3, src, dst), 2, "pack [5x3]*2B dim 1 / 3");
  // 24-byte runs of 8-byte elements.
  expect_width(plan_concat(layout_of({2, 3}, 8), 1, 4, src, dst), 8, "concat [2x3]*8B dim 1 x 4");
  // Slices of 4 bytes at offsets 4 and 12 within 16-byte rows.
  expect_width(plan_slice(layout_of({8, 16}, 1), 1, 4, 1, src, dst), 4, "slice [8x16]*1B 1/4");
  expect_width(plan_slice(layout_of({8, 16}, 1), 1, 4, 3, src, dst), 4, "slice [8x16]*1B 3/4");
  // 16-byte slices at offset 16 within 32-byte rows.
  expect_width(plan_slice(layout_of({8, 32}, 1), 1, 2, 1, src, dst), 16, "slice [8x32]*1B 1/2");
  // Odd runs of bytes.
  expect_width(plan_pack(layout_of({3, 6}, 1), 1, 2, src, dst), 1, "pack [3x6]*1B dim 1 / 2");
}

// Chunks that are contiguous in the source become one run (a memcpy).
void contiguous_chunks_are_one_run(Tally& t) {
  alignas(16) static unsigned char src[4096];
  alignas(16) static unsigned char dst[4096];
  using redist::cuda::detail::contiguous;
  const redist::Layout l = layout_of({4, 6, 2}, 4);
  t.expect(contiguous(redist::cuda::detail::plan_pack(l, 0, 2, src, dst)), "pack along dim 0");
  t.expect(contiguous(redist::cuda::detail::plan_concat(l, 0, 3, src, dst)), "concat along dim 0");
  t.expect(contiguous(redist::cuda::detail::plan_slice(l, 0, 4, 3, src, dst)), "slice along dim 0");
  t.expect(contiguous(redist::cuda::detail::plan_pack(l, 1, 1, src, dst)), "pack into one part");
  t.expect(!contiguous(redist::cuda::detail::plan_pack(l, 1, 2, src, dst)), "pack along dim 1");
  t.expect(!contiguous(redist::cuda::detail::plan_concat(l, 2, 2, src, dst)), "concat along dim 2");
  t.expect(!contiguous(redist::cuda::detail::plan_slice(l, 1, 3, 1, src, dst)), "slice along dim 1");
}

// 32-bit indexing exactly while destination and source words stay below 2^31.
void index_width_switches_at_2_31(Tally& t) {
  using redist::cuda::detail::fits_32bit_index;
  const std::size_t limit = std::size_t{1} << 31;
  // One run per row: {width, words, run, inner, stride_a, stride_b, offset}.
  t.expect(fits_32bit_index({1, limit - 1, 1, 1, 1, 0, 0}), "2^31-1 dense words");
  t.expect(!fits_32bit_index({1, limit, 1, 1, 1, 0, 0}), "2^31 dense words");
  // Few destination words, but the last source word is far away.
  t.expect(fits_32bit_index({16, 4, 1, 1, (limit - 1) / 3, 0, 0}), "last source word just below 2^31");
  t.expect(!fits_32bit_index({16, 4, 1, 1, limit / 3 + 1, 0, 0}), "last source word past 2^31");
  t.expect(!fits_32bit_index({4, 2, 1, 2, 0, 1, limit - 1}), "offset past 2^31");
}

}  // namespace

void add_plan_cases(std::vector<Case>& cases) {
  cases.push_back({"plan replay matches local.hpp (pack, slice, concat)", Needs::anything,
                   replay_matches_reference});
  cases.push_back({"plan word width is the widest allowed", Needs::anything,
                   widths_are_the_widest_allowed});
  cases.push_back({"contiguous chunks become one copy", Needs::anything,
                   contiguous_chunks_are_one_run});
  cases.push_back({"kernel index type switches to 64 bits at 2^31", Needs::anything,
                   index_width_switches_at_2_31});
}

}  // namespace gputest
