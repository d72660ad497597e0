// The device kernels against the CPU reference of local.hpp, on poisoned
// device buffers, for array ranks 1..5 and 8, every dim, every part count,
// every element size, and pointers at 16-byte alignment and shifted by one
// element (which forces narrower words).
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"
#include "redist/local.hpp"
#include "shapes.hpp"

namespace gputest {

namespace {

// Runs one kernel on device copies of `src` and compares with `want`.
template <typename Kernel>
void run_and_compare(const std::vector<unsigned char>& src, const std::vector<unsigned char>& want,
                     std::size_t shift, Kernel kernel, Tally& t, const std::string& what) {
  DeviceBuffer in(src.size() + shift, t), out(want.size() + shift + kCanary, t);
  Stream stream(t);
  if (!in || !out || stream.get() == nullptr) return;
  unsigned char* d_src = in.get() + shift;
  unsigned char* d_dst = out.get() + shift;
  if (!upload(d_src, src, t) || !poison(d_dst, want.size() + kCanary, t)) return;
  if (redist::Status st = kernel(d_src, d_dst, stream.get()); !st.ok())
    return t.fail(what + ": " + st.message());
  if (!cuda_ok(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize", t)) return;
  expect_bytes(download(d_dst, want.size() + kCanary, t), want, t, what);
}

void kernels_match_local(Tally& t) {
  unsigned salt = 0;
  for (const redist::Layout& l : test_layouts()) {
    const std::size_t total = redist::bytes(l);
    for (std::size_t shift : {std::size_t{0}, l.elem_bytes}) {
      for (int d = 0; d < l.ndim; ++d) {
        const std::string at = describe(l) + " dim " + std::to_string(d) + " shift " +
                               std::to_string(shift);
        const std::vector<unsigned char> src = labelled(0, total, ++salt);
        for (std::size_t parts : divisors(l.extent[d])) {
          std::vector<unsigned char> want(total);
          (void)redist::local::pack_chunks(l, d, parts, src.data(), total, want.data(), total);
          run_and_compare(src, want, shift,
                          [&](const unsigned char* s, unsigned char* o, cudaStream_t st) {
                            return redist::cuda::pack_chunks(l, d, parts, s, total, o, total, st);
                          },
                          t, "pack " + at + " parts " + std::to_string(parts));
          for (std::size_t index = 0; index < parts; ++index) {
            std::vector<unsigned char> part(total / parts);
            (void)redist::local::slice(l, d, parts, index, src.data(), total, part.data(),
                                       part.size());
            run_and_compare(src, part, shift,
                            [&](const unsigned char* s, unsigned char* o, cudaStream_t st) {
                              return redist::cuda::slice(l, d, parts, index, s, total, o,
                                                         part.size(), st);
                            },
                            t, "slice " + at + " " + std::to_string(index) + "/" +
                                   std::to_string(parts));
          }
        }
        for (std::size_t parts = 1; parts <= 3; ++parts) {
          const std::vector<unsigned char> blocks = labelled(1, total * parts, ++salt);
          std::vector<unsigned char> want(total * parts);
          (void)redist::local::concat_blocks(l, d, parts, blocks.data(), blocks.size(), want.data(),
                                             want.size());
          run_and_compare(blocks, want, shift,
                          [&](const unsigned char* s, unsigned char* o, cudaStream_t st) {
                            return redist::cuda::concat_blocks(l, d, parts, s, blocks.size(), o,
                                                               want.size(), st);
                          },
                          t, "concat " + at + " parts " + std::to_string(parts));
        }
      }
    }
  }
}

// Arrays large enough that threads loop (more words than the grid has
// threads) and, for the second, that indices need 64 bits.
void large_arrays(Tally& t) {
  const std::size_t rows[] = {(std::size_t{1} << 28) + 3, (std::size_t{1} << 30) + 1};
  for (std::size_t n : rows) {
    const redist::Layout l = layout_of({n, 2}, 1);
    const std::size_t total = redist::bytes(l);
    std::vector<unsigned char> src(total);
    for (std::size_t i = 0; i < total; ++i) src[i] = static_cast<unsigned char>(i * 131 + (i >> 9));
    std::vector<unsigned char> want(total);
    (void)redist::local::pack_chunks(l, 1, 2, src.data(), total, want.data(), total);
    run_and_compare(src, want, 0,
                    [&](const unsigned char* s, unsigned char* o, cudaStream_t st) {
                      return redist::cuda::pack_chunks(l, 1, 2, s, total, o, total, st);
                    },
                    t, "pack " + describe(l) + " dim 1 parts 2");
  }
}

}  // namespace

void add_kernel_cases(std::vector<Case>& cases) {
  cases.push_back({"device kernels match local.hpp", Needs::gpu, kernels_match_local});
  cases.push_back({"device kernels on arrays of about 2^29 and 2^31 bytes", Needs::gpu, large_arrays});
}

}  // namespace gputest
