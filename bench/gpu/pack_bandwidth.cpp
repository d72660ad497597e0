// Bandwidth of the backend's pack, unpack and slice kernels against a
// device-to-device cudaMemcpy of the same number of bytes, on one GPU.
// Bandwidth counts the bytes copied (each is read once and written once),
// the same way for both columns.
//
// Usage: pack_bandwidth [--mib N] [--reps N]   (defaults: 256 MiB, 20 reps)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "nccl/copy_plan.hpp"
#include "redist/nccl.hpp"

namespace {

struct Options {
  std::size_t mib = 256;
  int reps = 20;
};

bool parse_count(const char* text, long max, long* out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > max) return false;
  *out = v;
  return true;
}

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    long v = 0;
    if ((arg == "--mib" || arg == "--reps") && i + 1 < argc) {
      if (!parse_count(argv[++i], arg == "--mib" ? 16384 : 10000, &v)) {
        std::fprintf(stderr, "pack_bandwidth: %s needs a positive integer, got '%s'\n", arg.c_str(),
                     argv[i]);
        return false;
      }
      if (arg == "--mib") o->mib = static_cast<std::size_t>(v);
      else o->reps = static_cast<int>(v);
    } else {
      std::fprintf(stderr, "pack_bandwidth: unknown argument '%s' (usage: [--mib N] [--reps N])\n",
                   arg.c_str());
      return false;
    }
  }
  return true;
}

bool check(cudaError_t rc, const char* what) {
  if (rc == cudaSuccess) return true;
  std::fprintf(stderr, "pack_bandwidth: %s: %s\n", what, cudaGetErrorString(rc));
  return false;
}

enum class Kind { pack, unpack, slice };

struct Case {
  Kind kind;
  std::size_t inner_elems;  // extent of the last dim
  std::size_t elem;
  std::size_t parts;
};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::pack: return "pack";
    case Kind::unpack: return "unpack";
    case Kind::slice: return "slice";
  }
  return "?";
}

// A 2-D layout [rows x inner] of about `bytes` cut along dim 1.
redist::Layout layout_for(const Case& c, std::size_t bytes) {
  const std::size_t row = c.inner_elems * c.elem;
  redist::Layout l{2, {}, c.elem};
  l.extent[0] = bytes / row == 0 ? 1 : bytes / row;
  l.extent[1] = c.inner_elems;
  return l;
}

// Seconds per call of `enqueue`, averaged over reps after one warm-up.
template <typename F>
bool time_it(cudaStream_t stream, int reps, F enqueue, double* seconds) {
  cudaEvent_t start, stop;
  if (!check(cudaEventCreate(&start), "cudaEventCreate")) return false;
  if (!check(cudaEventCreate(&stop), "cudaEventCreate")) return false;
  bool ok = enqueue() && check(cudaStreamSynchronize(stream), "cudaStreamSynchronize") &&
            check(cudaEventRecord(start, stream), "cudaEventRecord");
  for (int i = 0; ok && i < reps; ++i) ok = enqueue();
  float ms = 0;
  ok = ok && check(cudaEventRecord(stop, stream), "cudaEventRecord") &&
       check(cudaEventSynchronize(stop), "cudaEventSynchronize") &&
       check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  *seconds = ms / 1e3 / reps;
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parse(argc, argv, &opt)) return 2;
  int devices = 0;
  if (const cudaError_t rc = cudaGetDeviceCount(&devices); rc != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: benchmark skipped (%s)\n",
                rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
    return 0;
  }
  cudaDeviceProp prop;
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  std::printf("device: %s, %zu MiB per array, %d reps\n", prop.name, opt.mib, opt.reps);

  const std::size_t bytes = opt.mib << 20;
  void *a = nullptr, *b = nullptr;
  cudaStream_t stream;
  if (!check(cudaMalloc(&a, bytes), "cudaMalloc") || !check(cudaMalloc(&b, bytes), "cudaMalloc") ||
      !check(cudaMemset(a, 1, bytes), "cudaMemset") || !check(cudaStreamCreate(&stream), "cudaStreamCreate"))
    return 1;

  // Runs of 8 KiB down to 3 bytes, every element size.
  const std::vector<Case> cases = {
      {Kind::pack, 16384, 4, 2},  {Kind::pack, 1024, 4, 8},  {Kind::pack, 64, 4, 4},
      {Kind::pack, 32, 16, 4},    {Kind::pack, 32, 8, 8},    {Kind::pack, 12, 2, 4},
      {Kind::pack, 6, 1, 2},      {Kind::unpack, 1024, 4, 8}, {Kind::unpack, 64, 4, 4},
      {Kind::unpack, 12, 2, 4},   {Kind::unpack, 6, 1, 2},   {Kind::slice, 1024, 4, 8},
      {Kind::slice, 64, 8, 4},    {Kind::slice, 6, 1, 2},
  };
  std::printf("%-7s %-22s %5s %9s %6s %12s %12s %6s\n", "kernel", "layout", "parts", "run (B)",
              "word", "kernel GB/s", "memcpy GB/s", "ratio");
  for (const Case& c : cases) {
    const redist::Layout l = layout_for(c, bytes);
    const redist::Layout block = redist::dyn_slice_out(l, 1, c.parts);
    const std::size_t total = redist::bytes(l);
    std::size_t moved = total;
    redist::cuda::detail::CopyPlan plan{};
    auto run = [&]() -> bool {
      redist::Status st;
      switch (c.kind) {
        case Kind::pack: st = redist::cuda::pack_chunks(l, 1, c.parts, a, total, b, total, stream); break;
        case Kind::unpack:
          st = redist::cuda::concat_blocks(block, 1, c.parts, a, total, b, total, stream);
          break;
        case Kind::slice:
          st = redist::cuda::slice(l, 1, c.parts, c.parts - 1, a, total, b, total, stream);
          break;
      }
      if (!st.ok()) std::fprintf(stderr, "pack_bandwidth: %s\n", st.message().c_str());
      return st.ok();
    };
    switch (c.kind) {
      case Kind::pack: plan = redist::cuda::detail::plan_pack(l, 1, c.parts, a, b); break;
      case Kind::unpack: plan = redist::cuda::detail::plan_concat(block, 1, c.parts, a, b); break;
      case Kind::slice:
        plan = redist::cuda::detail::plan_slice(l, 1, c.parts, c.parts - 1, a, b);
        moved = total / c.parts;
        break;
    }
    double kernel_s = 0, copy_s = 0;
    if (!time_it(stream, opt.reps, run, &kernel_s)) return 1;
    auto copy = [&]() {
      return check(cudaMemcpyAsync(b, a, moved, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    };
    if (!time_it(stream, opt.reps, copy, &copy_s)) return 1;
    const double kernel_gbs = moved / kernel_s / 1e9, copy_gbs = moved / copy_s / 1e9;
    const std::string shape = "[" + std::to_string(l.extent[0]) + "x" + std::to_string(l.extent[1]) +
                              "]*" + std::to_string(c.elem) + "B";
    std::printf("%-7s %-22s %5zu %9zu %6zu %12.1f %12.1f %6.2f\n", kind_name(c.kind), shape.c_str(),
                c.parts, plan.run * plan.width, plan.width, kernel_gbs, copy_gbs, kernel_gbs / copy_gbs);
  }
  (void)cudaStreamDestroy(stream);
  (void)cudaFree(a);
  (void)cudaFree(b);
  return 0;
}
