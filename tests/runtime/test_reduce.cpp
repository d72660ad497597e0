// reduce_scatter and all_reduce against reductions computed here, on random
// problems (shape, dim, group of the world, element type, operation) that
// every rank draws alike: every element of every rank's result is compared
// with the reduction over its group of every member's source, which each rank can compute
// because the sources are a function of (rank, element, salt).
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "redist/mpi_reduce.hpp"
#include "support.hpp"

namespace {

using redist::Dtype;
using redist::Op;
using test::Index;

constexpr int kProblems = 150;  // random problems per test case and world size

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 31;
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

// A random value of each scalar part: integers use every bit of their
// width; floats are nonzero with a full mantissa over a few binades, so that
// the order of additions changes the bits of a sum.
double scalar(std::uint64_t h) {
  const double unit = static_cast<double>(h >> 11) / 9007199254740992.0;  // [0, 1)
  const int binade = static_cast<int>(h % 5) - 2;
  return (h & 1 ? -1.0 : 1.0) * std::ldexp(1.0 + unit, binade);
}

bool is_integer(Dtype t) {
  return t == Dtype::i8 || t == Dtype::i16 || t == Dtype::i32 || t == Dtype::i64 ||
         t == Dtype::u8 || t == Dtype::u16 || t == Dtype::u32 || t == Dtype::u64;
}

// Scalar parts of one element: 2 for complex types.
std::size_t parts(Dtype t) { return t == Dtype::c64 || t == Dtype::c128 ? 2 : 1; }

// Stores scalar part p of element e of rank r's source.
void write_part(Dtype t, unsigned char* at, std::uint64_t h) {
  const std::size_t width = redist::dtype_bytes(t) / parts(t);
  if (is_integer(t)) {
    std::memcpy(at, &h, width);  // little-endian: the low bytes
    return;
  }
  const double v = scalar(h);
  if (t == Dtype::f32 || t == Dtype::c64) {
    const auto f = static_cast<float>(v);
    std::memcpy(at, &f, 4);
  } else if (t == Dtype::f64 || t == Dtype::c128) {
    std::memcpy(at, &v, 8);
  } else {
    const float f = static_cast<float>(v);
    const unsigned short bits =
        t == Dtype::f16 ? redist::local::f32_to_f16(f) : redist::local::f32_to_bf16(f);
    std::memcpy(at, &bits, 2);
  }
}

std::vector<unsigned char> source_of(Dtype t, int rank, std::size_t n, unsigned salt) {
  const std::size_t elem = redist::dtype_bytes(t);
  const std::size_t width = elem / parts(t);
  std::vector<unsigned char> v(n * elem + test::kCanary, test::kPoison);
  for (std::size_t e = 0; e < n; ++e)
    for (std::size_t p = 0; p < parts(t); ++p)
      write_part(t, &v[e * elem + p * width],
                 mix((static_cast<std::uint64_t>(rank) << 40) ^ (e * parts(t) + p) ^
                     (std::uint64_t{salt} << 20)));
  return v;
}

double widen(Dtype t, const unsigned char* at) {
  if (t == Dtype::f32 || t == Dtype::c64) {
    float f;
    std::memcpy(&f, at, 4);
    return f;
  }
  if (t == Dtype::f64 || t == Dtype::c128) {
    double d;
    std::memcpy(&d, at, 8);
    return d;
  }
  unsigned short bits;
  std::memcpy(&bits, at, 2);
  return t == Dtype::f16 ? redist::local::f16_to_f32(bits) : redist::local::bf16_to_f32(bits);
}

bool is_signed(Dtype t) { return t == Dtype::i8 || t == Dtype::i16 || t == Dtype::i32 || t == Dtype::i64; }

// An integer part as a signed or unsigned 64-bit value, sign-extended for
// signed types, so that max and min compare as the type does.
std::int64_t signed_value(Dtype t, const unsigned char* at) {
  const std::size_t width = redist::dtype_bytes(t);
  std::uint64_t v = 0;
  std::memcpy(&v, at, width);
  if (width < 8 && is_signed(t) && (v >> (8 * width - 1)) & 1) v |= ~std::uint64_t{0} << (8 * width);
  return static_cast<std::int64_t>(v);
}

// A float part folded by max or min in member order: a NaN wins, else the
// first of equal values stays.
template <class F>
F fold_order(Op op, F acc, F next) {
  if (std::isnan(acc)) return acc;
  if (std::isnan(next)) return next;
  return (op == Op::max ? next > acc : next < acc) ? next : acc;
}

// One scalar part of a float type by sum, prod, max, min or avg.
void expected_part(Dtype t, Op op, const std::vector<const unsigned char*>& members, unsigned char* out) {
  const auto n = members.size();
  auto fold = [&](auto acc, auto next_of) {
    using F = decltype(acc);
    for (std::size_t k = 1; k < n; ++k) {
      const F v = next_of(k);
      acc = op == Op::prod ? acc * v : (op == Op::max || op == Op::min) ? fold_order(op, acc, v) : acc + v;
    }
    return acc;
  };
  // avg: the sum as the type stores it, then one division in the arithmetic type.
  const auto divisor = op == Op::avg ? n : 1;
  if (t == Dtype::f64 || t == Dtype::c128) {
    const double r = fold(widen(t, members[0]), [&](std::size_t k) { return widen(t, members[k]); }) /
                     static_cast<double>(divisor);
    std::memcpy(out, &r, 8);
    return;
  }
  const float r = fold(static_cast<float>(widen(t, members[0])),
                       [&](std::size_t k) { return static_cast<float>(widen(t, members[k])); });
  if (t == Dtype::f32 || t == Dtype::c64) {
    const float q = r / static_cast<float>(divisor);
    std::memcpy(out, &q, 4);
    return;
  }
  auto rounded = [&](float v) { return t == Dtype::f16 ? redist::local::f32_to_f16(v) : redist::local::f32_to_bf16(v); };
  auto widened = [&](unsigned short b) { return t == Dtype::f16 ? redist::local::f16_to_f32(b) : redist::local::bf16_to_f32(b); };
  const unsigned short sum = rounded(r);
  const unsigned short bits = divisor == 1 ? sum : rounded(widened(sum) / static_cast<float>(divisor));
  std::memcpy(out, &bits, 2);
}

// The promised reduction of one element (every part), in ascending member
// order: integers modulo 2^width (max and min signed or not as the type),
// f32 and f64 in their own precision, f16 and bf16 in f32 rounded once,
// avg that sum divided by the member count (f16, bf16: widened again, rounded
// again), complex products as
// (ac-bd) + (ad+bc)i.  Written into `out`.
void expected_element(Dtype t, Op op, const std::vector<const unsigned char*>& members, unsigned char* out) {
  const std::size_t width = redist::dtype_bytes(t) / parts(t);
  if (is_integer(t)) {
    std::uint64_t acc = 0;
    std::memcpy(&acc, members[0], width);
    for (std::size_t k = 1; k < members.size(); ++k) {
      std::uint64_t v = 0;
      std::memcpy(&v, members[k], width);
      if (op == Op::sum) acc += v;
      else if (op == Op::prod) acc *= v;
      else {
        const bool after = is_signed(t) ? signed_value(t, members[k]) > signed_value(t, reinterpret_cast<unsigned char*>(&acc))
                                        : v > acc;
        const bool before = is_signed(t) ? signed_value(t, members[k]) < signed_value(t, reinterpret_cast<unsigned char*>(&acc))
                                         : v < acc;
        if (op == Op::max ? after : before) acc = v;
      }
    }
    std::memcpy(out, &acc, width);
    return;
  }
  if (op == Op::prod && parts(t) == 2) {
    auto part = [&](std::size_t k, std::size_t q) { return widen(t, members[k] + q * width); };
    double re = part(0, 0), im = part(0, 1);
    for (std::size_t k = 1; k < members.size(); ++k) {
      if (t == Dtype::c64) {
        const float a = static_cast<float>(re), b = static_cast<float>(im), c = static_cast<float>(part(k, 0)),
                    d = static_cast<float>(part(k, 1));
        re = a * c - b * d, im = a * d + b * c;
      } else {
        const double a = re, b = im, c = part(k, 0), d = part(k, 1);
        re = a * c - b * d, im = a * d + b * c;
      }
    }
    if (t == Dtype::c64) {
      const float r = static_cast<float>(re), i = static_cast<float>(im);
      std::memcpy(out, &r, 4), std::memcpy(out + 4, &i, 4);
    } else {
      std::memcpy(out, &re, 8), std::memcpy(out + 8, &im, 8);
    }
    return;
  }
  for (std::size_t q = 0; q < parts(t); ++q) {
    std::vector<const unsigned char*> shifted;
    for (const unsigned char* m : members) shifted.push_back(m + q * width);
    expected_part(t, op, shifted, out + q * width);
  }
}

// Stated tolerance of the half-precision types against the exact sum:
// accumulating in f32 and rounding once to 8 (bf16) or 11 (f16) significant
// bits is within 2^-8 (2^-11) of the sum of magnitudes, with room to spare.
double tolerance(Dtype t) { return t == Dtype::bf16 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -11); }

struct Problem {
  Index ext;
  int dim;
  redist::Group group;
  Dtype dtype;
  Op op;
};

unsigned next_salt() {
  static unsigned salt = 0;
  return ++salt;
}

// Every rank draws the same problem: the generator is seeded alike.
Problem draw(std::mt19937& rng, const std::vector<Dtype>& dtypes, Op op, bool scatter) {
  const std::vector<redist::Group> groups = test::all_groups(test::world_size());
  Problem p;
  p.group = groups[rng() % groups.size()];
  std::vector<Dtype> computing;
  for (Dtype t : dtypes)
    if (redist::op_computes(t, op)) computing.push_back(t);
  p.dtype = computing[rng() % computing.size()];
  p.op = op;
  const int ndim = 1 + static_cast<int>(rng() % 4);
  p.dim = static_cast<int>(rng() % static_cast<unsigned>(ndim));
  for (int d = 0; d < ndim; ++d) p.ext.push_back(1 + rng() % 4);
  if (scatter) p.ext[p.dim] *= static_cast<std::size_t>(p.group.size);
  return p;
}

std::string describe(const Problem& p, bool scatter) {
  return std::string(scatter ? "reduce_scatter" : "all_reduce") + " " + redist::op_name(p.op) + " " +
         redist::dtype_name(p.dtype) + " " +
         test::describe(p.ext, redist::dtype_bytes(p.dtype)) +
         (scatter ? " dim " + std::to_string(p.dim) : "") + " group (stride " +
         std::to_string(p.group.stride) + ", size " + std::to_string(p.group.size) + ")";
}

// Runs the problem; dst (with its canary) gets the result.
redist::Status run(const Problem& p, bool scatter, const std::vector<unsigned char>& src,
                   std::vector<unsigned char>* dst) {
  redist::Mesh& mesh = test::flat_mesh();
  const redist::Layout in = test::layout_of(p.ext, redist::dtype_bytes(p.dtype));
  const auto size = static_cast<std::size_t>(p.group.size);
  const std::size_t scratch_bytes = scatter ? redist::reduce_scatter_scratch_bytes(in, p.dim, size)
                                            : redist::all_reduce_scratch_bytes(in, size);
  std::vector<unsigned char> scratch = test::poisoned(scratch_bytes);
  const std::size_t out_bytes = scatter ? redist::bytes(in) / size : redist::bytes(in);
  *dst = test::poisoned(out_bytes);
  const std::size_t src_bytes = src.size() - test::kCanary;
  return scatter ? redist::reduce_scatter(mesh, p.group, p.dtype, p.op, in, p.dim, src.data(), src_bytes,
                                          dst->data(), out_bytes, scratch.data(), scratch_bytes)
                 : redist::all_reduce(mesh, p.group, p.dtype, p.op, in, src.data(), src_bytes,
                                      dst->data(), out_bytes, scratch.data(), scratch_bytes);
}

// Checks every element of this rank's result: bitwise against the promised
// ascending-order reduction, and for sums of the half-precision types also
// against the exact sum within the stated tolerance.
void check(const Problem& p, bool scatter, test::Tally& t) {
  const int me = test::world_rank();
  const unsigned salt = next_salt();
  const std::size_t elem = redist::dtype_bytes(p.dtype);
  const std::size_t n = test::count(p.ext);
  std::vector<std::vector<unsigned char>> sources;
  for (int k = 0; k < p.group.size; ++k)
    sources.push_back(
        source_of(p.dtype, test::member(me, p.group.stride, p.group.size, k), n, salt));
  const std::vector<unsigned char>& mine =
      sources[static_cast<std::size_t>((me / p.group.stride) % p.group.size)];
  const std::string what = describe(p, scatter);
  std::vector<unsigned char> dst;
  if (redist::Status st = run(p, scatter, mine, &dst); !st.ok()) return t.fail(what + ": " + st.message());

  Index out_ext = p.ext;
  if (scatter) out_ext[p.dim] /= static_cast<std::size_t>(p.group.size);
  const std::size_t offset =
      scatter ? static_cast<std::size_t>((me / p.group.stride) % p.group.size) * out_ext[p.dim] : 0;
  std::vector<const unsigned char*> members(sources.size());
  unsigned char want[16];
  for (std::size_t e = 0; e < test::count(out_ext); ++e) {
    Index idx = test::unravel(e, out_ext);
    if (scatter) idx[p.dim] += offset;
    const std::size_t from = test::ravel(idx, p.ext);
    for (std::size_t k = 0; k < sources.size(); ++k) members[k] = &sources[k][from * elem];
    const unsigned char* got = &dst[e * elem];
    expected_element(p.dtype, p.op, members, want);
    if (std::memcmp(got, want, elem) != 0)
      return t.fail(what + ": element " + std::to_string(e) + " is not the ascending-order " + redist::op_name(p.op));
    if (p.op == Op::sum && (p.dtype == Dtype::f16 || p.dtype == Dtype::bf16)) {
      double exact = 0, magnitude = 0;
      for (const unsigned char* m : members) {
        exact += widen(p.dtype, m);
        magnitude += std::fabs(widen(p.dtype, m));
      }
      if (std::fabs(widen(p.dtype, got) - exact) > tolerance(p.dtype) * magnitude)
        return t.fail(what + ": element " + std::to_string(e) + " is beyond the tolerance");
    }
  }
  t.canary(dst, test::count(out_ext) * elem, what);
}

void random_problems(const std::vector<Dtype>& dtypes, Op op, bool scatter, unsigned seed) {
  std::mt19937 rng(seed + static_cast<unsigned>(test::world_size()));
  test::Tally t;
  for (int i = 0; i < kProblems; ++i) check(draw(rng, dtypes, op, scatter), scatter, t);
  t.finish();
}

const std::vector<Dtype> kIntegers = {Dtype::i8, Dtype::i16, Dtype::i32, Dtype::i64,
                                      Dtype::u8, Dtype::u16, Dtype::u32, Dtype::u64};
const std::vector<Dtype> kFloats = {Dtype::f16, Dtype::bf16, Dtype::f32,
                                    Dtype::f64, Dtype::c64,  Dtype::c128};

TEST_CASE("reduce_scatter of integers: every element is the group's sum (150 random problems)") {
  random_problems(kIntegers, Op::sum, true, 11);
}
TEST_CASE("all_reduce of integers: every element is the group's sum (150 random problems)") {
  random_problems(kIntegers, Op::sum, false, 12);
}
TEST_CASE("reduce_scatter of floats: ascending-order sums, halves within tolerance (150 random problems)") {
  random_problems(kFloats, Op::sum, true, 13);
}
TEST_CASE("all_reduce of floats: ascending-order sums, halves within tolerance (150 random problems)") {
  random_problems(kFloats, Op::sum, false, 14);
}

TEST_CASE("reduce_scatter and all_reduce by prod, max and min of integers: every element exact (150 random problems each)") {
  unsigned seed = 21;
  for (Op op : {Op::prod, Op::max, Op::min})
    for (bool scatter : {true, false}) random_problems(kIntegers, op, scatter, seed++);
}
TEST_CASE("reduce_scatter and all_reduce by prod, max, min and avg of floats: ascending-order bits (150 random problems each)") {
  unsigned seed = 31;
  for (Op op : {Op::prod, Op::max, Op::min, Op::avg})
    for (bool scatter : {true, false}) random_problems(kFloats, op, scatter, seed++);
}

TEST_CASE("reduce_blocks: identities, NaN and signedness by hand") {
  using redist::local::fill_identity;
  using redist::local::reduce_blocks;
  const std::int8_t signed_blocks[3] = {-5, 7, -100};
  std::int8_t s8 = 0;
  reduce_blocks(Dtype::i8, Op::max, signed_blocks, 1, 3, &s8);
  CHECK(s8 == 7);
  reduce_blocks(Dtype::i8, Op::min, signed_blocks, 1, 3, &s8);
  CHECK(s8 == -100);
  const std::uint8_t unsigned_blocks[3] = {251, 7, 156};  // the same bits
  std::uint8_t u8 = 0;
  reduce_blocks(Dtype::u8, Op::max, unsigned_blocks, 1, 3, &u8);
  CHECK(u8 == 251);
  reduce_blocks(Dtype::u8, Op::prod, unsigned_blocks, 1, 3, &u8);
  CHECK(u8 == static_cast<std::uint8_t>(251u * 7u * 156u));
  const std::uint16_t big[2] = {65535, 65535};  // no signed overflow on promotion
  std::uint16_t u16 = 0;
  reduce_blocks(Dtype::u16, Op::prod, big, 1, 2, &u16);
  CHECK(u16 == 1);
  const float with_nan[3] = {1.0f, std::nanf(""), 3.0f};
  float f = 0;
  reduce_blocks(Dtype::f32, Op::max, with_nan, 1, 3, &f);
  CHECK(std::isnan(f));
  const float thirds[3] = {1.0f, 2.0f, 4.0f};
  reduce_blocks(Dtype::f32, Op::avg, thirds, 1, 3, &f);
  CHECK(f == 7.0f / 3.0f);
  std::int32_t i32[2];
  fill_identity(Dtype::i32, Op::max, i32, 2);
  CHECK(i32[1] == INT32_MIN);
  fill_identity(Dtype::i32, Op::min, i32, 2);
  CHECK(i32[0] == INT32_MAX);
  fill_identity(Dtype::i32, Op::prod, i32, 2);
  CHECK(i32[0] == 1);
  unsigned short h = 0;
  fill_identity(Dtype::f16, Op::max, &h, 1);
  CHECK(h == 0xfc00);  // -inf
  float c[4];
  fill_identity(Dtype::c64, Op::prod, c, 2);
  CHECK((c[0] == 1.0f && c[1] == 0.0f && c[2] == 1.0f && c[3] == 0.0f));
  CHECK(!redist::op_computes(Dtype::c64, Op::max));
  CHECK(!redist::op_computes(Dtype::i32, Op::avg));
}

TEST_CASE("two runs of the same f32 and bf16 reductions give the same bits") {
  redist::Mesh& mesh = test::flat_mesh();
  const redist::Group everyone{1, mesh.size()};
  test::Tally t;
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (bool scatter : {true, false}) {
      const Problem p{{static_cast<std::size_t>(3 * mesh.size()), 5}, 0, everyone, dtype, Op::sum};
      const auto src = source_of(dtype, mesh.rank(), test::count(p.ext), 7);
      std::vector<unsigned char> first, second;
      const redist::Status a = run(p, scatter, src, &first);
      const redist::Status b = run(p, scatter, src, &second);
      if (!a.ok() || !b.ok()) {
        t.fail(describe(p, scatter) + ": " + (a.ok() ? b : a).message());
      } else if (first != second) {
        t.fail(describe(p, scatter) + ": two runs differ");
      }
    }
  t.finish();
}

TEST_CASE("f16 and bf16 conversions: exact round trips, round to nearest even") {
  using namespace redist::local;
  for (unsigned b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<unsigned short>(b);
    const bool f16_nan = (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0;
    const bool bf16_nan = (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0;
    if (!f16_nan) REQUIRE(f32_to_f16(f16_to_f32(bits)) == bits);
    if (!bf16_nan) REQUIRE(f32_to_bf16(bf16_to_f32(bits)) == bits);
    if (f16_nan) REQUIRE(std::isnan(f16_to_f32(bits)));
    if (bf16_nan) REQUIRE(std::isnan(bf16_to_f32(bits)));
  }
  CHECK(f16_to_f32(0x3c00) == 1.0f);
  CHECK(f16_to_f32(0x7bff) == 65504.0f);
  CHECK(f16_to_f32(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);         // tie, to even
  CHECK(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);     // tie, to even (up)
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);
  CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);                // tie, to even
  CHECK(f32_to_f16(3 * std::ldexp(1.0f, -26)) == 0x0001);
  CHECK(f32_to_f16(-std::ldexp(1023.5f, -24)) == 0x8400);            // up into the normals
  CHECK(std::isnan(f16_to_f32(f32_to_f16(std::nanf("")))));
  CHECK(f32_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);         // tie, to even
  CHECK(f32_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);
  CHECK(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
}

TEST_CASE("reductions refuse a wrong element type, an operation it lacks, a short scratch and an uneven chunk on every rank") {
  redist::Mesh& mesh = test::flat_mesh();
  const redist::Group everyone{1, mesh.size()};
  const auto size = static_cast<std::size_t>(mesh.size());
  const redist::Layout in = test::layout_of({2, 2 * size}, 4);
  std::vector<unsigned char> src(redist::bytes(in)), dst(redist::bytes(in)),
      scratch(redist::bytes(in) + 64);
  const redist::Status wrong_type =
      redist::all_reduce(mesh, everyone, Dtype::f64, Op::sum, in, src.data(), src.size(), dst.data(),
                         dst.size(), scratch.data(), scratch.size());
  CHECK(wrong_type.code() == redist::Errc::invalid_argument);
  CHECK(wrong_type.message() ==
        "all_reduce: element type f64 has 8 bytes but the layout's elements have 4");
  const redist::Status no_avg = redist::all_reduce(mesh, everyone, Dtype::i32, Op::avg, in, src.data(), src.size(),
                                                   dst.data(), dst.size(), scratch.data(), scratch.size());
  CHECK(no_avg.code() == redist::Errc::invalid_argument);
  CHECK(no_avg.message() == "all_reduce: element type i32 has no operation avg");
  if (size > 1) {
    // Only rank 0 is short: the others hear of it.
    const std::size_t need = redist::reduce_scatter_scratch_bytes(in, 1, size);
    const std::size_t given = mesh.rank() == 0 ? need - 1 : need;
    const redist::Status short_scratch =
        redist::reduce_scatter(mesh, everyone, Dtype::f32, Op::sum, in, 1, src.data(), src.size(),
                               dst.data(), dst.size(), scratch.data(), given);
    CHECK(short_scratch.code() ==
          (mesh.rank() == 0 ? redist::Errc::buffer_too_small : redist::Errc::remote_error));
    const redist::Status uneven =
        redist::reduce_scatter(mesh, everyone, Dtype::f32, Op::sum, test::layout_of({2 * size + 1}, 4), 0,
                               src.data(), src.size(), dst.data(), dst.size(), scratch.data(),
                               scratch.size());
    CHECK(uneven.code() == redist::Errc::invalid_argument);
    CHECK(uneven.message().find("is not divisible by the group size") != std::string::npos);
  }
}

}  // namespace
