// reduce_scatter and all_reduce of the NCCL backend (redist/nccl_reduce.hpp)
// over every group of the world: integer types against the exact sum of
// every member's source (each rank computes them all), f32 and bf16 within
// the stated tolerance of the exact sum, and the 16-bit integers refused.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"
#include "redist/nccl_reduce.hpp"

namespace gputest {

namespace {

using redist::Dtype;
using redist::Group;
using redist::Layout;

std::vector<Group> every_group(int n) {
  std::vector<Group> gs;
  for (int stride = 1; stride <= n; ++stride)
    for (int size = 1; stride * size <= n; ++size)
      if (n % (stride * size) == 0) gs.push_back({stride, size});
  return gs;
}

bool is_float(Dtype t) { return t == Dtype::f32 || t == Dtype::bf16; }

double as_double(Dtype t, const unsigned char* p) {
  if (t == Dtype::f32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  unsigned short bits;
  std::memcpy(&bits, p, 2);
  return redist::local::bf16_to_f32(bits);
}

// Rank r's source: bytes labelled for integers, values in [-2, 2) for floats.
std::vector<unsigned char> source_of(Dtype t, int r, std::size_t n, unsigned salt) {
  const std::size_t w = redist::dtype_bytes(t);
  std::vector<unsigned char> v = labelled(r, n * w, salt);
  if (!is_float(t)) return v;
  for (std::size_t e = 0; e < n; ++e) {
    const float x = (static_cast<float>(v[e * w]) - 128.0f) / 64.0f + static_cast<float>(v[e * w + 1]) / 65536.0f;
    if (t == Dtype::f32) std::memcpy(&v[e * w], &x, 4);
    else {
      const unsigned short bits = redist::local::f32_to_bf16(x);
      std::memcpy(&v[e * w], &bits, 2);
    }
  }
  return v;
}

// Checks element e of `got` against the sum over members at element `from`.
bool sum_matches(Dtype t, const std::vector<std::vector<unsigned char>>& members, std::size_t from,
                 const unsigned char* got, std::size_t group_size) {
  const std::size_t w = redist::dtype_bytes(t);
  if (!is_float(t)) {
    std::uint64_t sum = 0;
    for (const auto& m : members) {
      std::uint64_t v = 0;
      std::memcpy(&v, &m[from * w], w);
      sum += v;
    }
    std::uint64_t g = 0;
    std::memcpy(&g, got, w);
    const std::uint64_t mask = w >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * w)) - 1;
    return (g & mask) == (sum & mask);
  }
  // Tolerance: NCCL adds in its own order (bf16 possibly rounding at each
  // of the group_size - 1 additions): group_size * 2^-8 (bf16) or 2^-20
  // (f32) of the sum of magnitudes.
  double exact = 0, magnitude = 0;
  for (const auto& m : members) {
    exact += as_double(t, &m[from * w]);
    magnitude += std::fabs(as_double(t, &m[from * w]));
  }
  const double tol = static_cast<double>(group_size) * std::ldexp(1.0, t == Dtype::bf16 ? -8 : -20) * magnitude;
  return std::fabs(as_double(t, got) - exact) <= tol;
}

void reductions(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  const int n = world_size();
  const int axes[] = {n};
  if (stream.get() == nullptr) return;
  if (redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes, 1, stream.get(), &mesh); !st.ok())
    return t.fail(st.message());
  const std::vector<Group> groups = every_group(n);
  if (redist::Status st = mesh.prepare(groups.data(), groups.size()); !st.ok()) return t.fail(st.message());
  const int me = mesh.rank();
  unsigned salt = 0;
  for (Group g : groups) {
    const auto size = static_cast<std::size_t>(g.size);
    const auto index = static_cast<std::size_t>(mesh.index_in(g));
    for (Dtype dtype : {Dtype::i8, Dtype::u32, Dtype::i64, Dtype::f32, Dtype::bf16}) {
      for (const std::vector<std::size_t>& base : {std::vector<std::size_t>{3}, {2, 3}, {2, 1, 3}}) {
        for (int d = 0; d < static_cast<int>(base.size()); ++d) {
          std::vector<std::size_t> shape = base;
          shape[d] *= size;
          const Layout l = layout_of(shape, redist::dtype_bytes(dtype));
          const std::size_t elems = redist::num_elements(l), total = redist::bytes(l);
          ++salt;
          std::vector<std::vector<unsigned char>> members;
          for (std::size_t k = 0; k < size; ++k)
            members.push_back(source_of(dtype, redist::group_member(me, g, static_cast<int>(k)), elems, salt));
          const std::string at = std::string(redist::dtype_name(dtype)) + " " + describe(l) + " dim " +
                                 std::to_string(d) + " group (" + std::to_string(g.stride) + ", " +
                                 std::to_string(g.size) + ")";
          for (bool scatter : {true, false}) {
            const std::size_t out = scatter ? total / size : total;
            const std::size_t sb = scatter ? redist::reduce_scatter_scratch_bytes(l, d, size) : 0;
            DeviceBuffer src(total, t), dst(out + kCanary, t), scratch(sb + kCanary, t);
            if (!src || !dst || !scratch || !upload(src.get(), members[index], t) ||
                !poison(dst.get(), dst.bytes(), t))
              return;
            const redist::Status st =
                scatter ? redist::nccl::reduce_scatter(mesh, g, dtype, redist::Op::sum, l, d, src.get(), total, dst.get(), out,
                                                       scratch.get(), sb)
                        : redist::nccl::all_reduce(mesh, g, dtype, redist::Op::sum, l, src.get(), total, dst.get(), out,
                                                   scratch.get(), sb);
            const std::string what = (scatter ? "reduce_scatter " : "all_reduce ") + at;
            if (!st.ok()) return t.fail(what + ": " + st.message());
            if (redist::Status s = mesh.synchronize(); !s.ok()) return t.fail(what + ": " + s.message());
            const std::vector<unsigned char> got = download(dst.get(), out + kCanary, t);
            const Layout o = scatter ? redist::reduce_scatter_out(l, d, size) : l;
            const std::size_t inner = redist::inner_bytes(o, d) / l.elem_bytes;  // elements per step along d
            for (std::size_t e = 0; e < out / l.elem_bytes; ++e) {
              // Element e of the result: along d it sits at chunk `index` of the source.
              std::size_t from = e;
              if (scatter) {
                const std::size_t outer = e / (o.extent[d] * inner), along = e / inner % o.extent[d];
                from = (outer * l.extent[d] + index * o.extent[d] + along) * inner + e % inner;
              }
              if (!sum_matches(dtype, members, from, &got[e * l.elem_bytes], size))
                return t.fail(what + ": element " + std::to_string(e) + " is not the group's sum");
            }
            for (std::size_t i = out; i < got.size(); ++i)
              if (got[i] != kPoison) return t.fail(what + ": wrote past its result");
          }
        }
      }
    }
  }
}

void refused_types(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  const int n = world_size();
  const int axes[] = {n};
  if (stream.get() == nullptr) return;
  if (redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes, 1, stream.get(), &mesh); !st.ok())
    return t.fail(st.message());
  const Group everyone{1, n};
  if (redist::Status st = mesh.prepare(&everyone, 1); !st.ok()) return t.fail(st.message());
  const Layout l = layout_of({static_cast<std::size_t>(2 * n)}, 2);
  DeviceBuffer src(redist::bytes(l), t), dst(redist::bytes(l), t);
  if (!src || !dst) return;
  const redist::Status st = redist::nccl::all_reduce(mesh, everyone, Dtype::i16, redist::Op::sum, l, src.get(), redist::bytes(l),
                                                     dst.get(), redist::bytes(l), nullptr, 0);
  t.expect_code(st, redist::Errc::invalid_argument, "all_reduce of i16");
  t.expect(st.message() == "all_reduce: NCCL has no i16 sum (no 16-bit integer type); use the MPI backend",
           "all_reduce of i16: message: " + st.message());
}

}  // namespace

void add_reduce_cases(std::vector<Case>& cases) {
  cases.push_back({"reduce_scatter and all_reduce over every group (integers exact, f32/bf16 within tolerance)",
                   Needs::gpu, reductions});
  cases.push_back({"reductions refuse the 16-bit integers NCCL cannot sum", Needs::gpu, refused_types});
}

}  // namespace gputest
