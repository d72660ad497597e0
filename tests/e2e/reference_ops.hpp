// The end-to-end suites' own reference of redist's pending reductions
// (codegen/README.md, "Reductions beyond sum"), written apart from the
// runtime's local::reduce_blocks and fill_identity so that a fault in those
// cannot also be in the check: runtime/testing/verify.hpp's SumsProblem
// takes these as its reduce and identity.  One element at a time, members
// in ascending order:
//   integers   sum and prod in 64-bit unsigned arithmetic, truncated to the
//              type (wrapping); max and min compared as the type;
//   floats     (c_0 op c_1) op c_2 ... in the type (f16 and bf16 in float,
//              rounded once: _Float16's conversion, bf16 by hand to nearest,
//              ties to even); max and min keep the first NaN, else a NaN
//              that comes, else the later value only where strictly greater
//              (smaller); avg is the sum as stored, then divide;
//   complex    sum and avg part by part; prod (ac-bd) + (ad+bc)i;
//   divide     avg's one division, in the arithmetic type, rounded once
//              (complex numbers part by part).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "redist/reduce.hpp"

namespace reference_ops {

using redist::Dtype;
using redist::Op;

template <class T>
T element(const void* at, std::size_t index) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(at) + index * sizeof(T), sizeof v);
  return v;
}

template <class T>
void set(void* at, std::size_t index, T v) {
  std::memcpy(static_cast<unsigned char*>(at) + index * sizeof(T), &v, sizeof v);
}

inline float from_bf16(std::uint16_t bits) {
  const std::uint32_t wide = std::uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

inline std::uint16_t to_bf16(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  if (std::isnan(f)) return static_cast<std::uint16_t>((x >> 16) | 0x40);  // stays a NaN
  return static_cast<std::uint16_t>((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}

// Stored type S read and written as the arithmetic type A.
struct F16 {
  using S = std::uint16_t;
  static float read(S s) { _Float16 h; std::memcpy(&h, &s, sizeof h); return static_cast<float>(h); }
  static S write(float a) { const _Float16 h = static_cast<_Float16>(a); S s; std::memcpy(&s, &h, sizeof s); return s; }
};
struct BF16 {
  using S = std::uint16_t;
  static float read(S s) { return from_bf16(s); }
  static S write(float a) { return to_bf16(a); }
};
template <class F>
struct Native {
  using S = F;
  static F read(S s) { return s; }
  static S write(F a) { return a; }
};

template <class A>
A later_if_kept(Op op, A acc, A next) {
  if (acc != acc) return acc;
  if (next != next) return next;
  return (op == Op::max ? next > acc : next < acc) ? next : acc;
}

// `count` blocks of `elems` elements of `parts` values each (a complex
// number's 2 parts are combined part by part).
template <class Codec>
void floats(Op op, const void* blocks, std::size_t elems, std::size_t count, void* out, std::size_t parts) {
  using S = typename Codec::S;
  for (std::size_t e = 0; e < elems * parts; ++e) {
    auto acc = Codec::read(element<S>(blocks, e));
    for (std::size_t k = 1; k < count; ++k) {
      const auto next = Codec::read(element<S>(blocks, k * elems * parts + e));
      switch (op) {
        case Op::sum: case Op::avg: acc = acc + next; break;  // avg: reduce divides after
        case Op::prod: acc = acc * next; break;
        case Op::max: case Op::min: acc = later_if_kept(op, acc, next); break;
      }
    }
    set<S>(out, e, Codec::write(acc));
  }
}

template <class Codec>
void divided(void* data, std::size_t values, std::size_t divisor) {
  using S = typename Codec::S;
  for (std::size_t e = 0; e < values; ++e) {
    const auto value = Codec::read(element<S>(data, e));
    set<S>(data, e, Codec::write(value / static_cast<decltype(value)>(divisor)));
  }
}

// SumsProblem::divide.
inline void divide(Dtype t, void* data, std::size_t elems, std::size_t divisor) {
  switch (t) {
    case Dtype::f16: return divided<F16>(data, elems, divisor);
    case Dtype::bf16: return divided<BF16>(data, elems, divisor);
    case Dtype::f32: return divided<Native<float>>(data, elems, divisor);
    case Dtype::f64: return divided<Native<double>>(data, elems, divisor);
    case Dtype::c64: return divided<Native<float>>(data, 2 * elems, divisor);
    case Dtype::c128: return divided<Native<double>>(data, 2 * elems, divisor);
    default: return;  // integers have no avg
  }
}

template <class F>
void complex_product(const void* blocks, std::size_t elems, std::size_t count, void* out) {
  for (std::size_t e = 0; e < elems; ++e) {
    F re = element<F>(blocks, 2 * e), im = element<F>(blocks, 2 * e + 1);
    for (std::size_t k = 1; k < count; ++k) {
      const F c = element<F>(blocks, 2 * (k * elems + e)), d = element<F>(blocks, 2 * (k * elems + e) + 1);
      const F product_re = re * c - im * d;
      im = re * d + im * c;
      re = product_re;
    }
    set<F>(out, 2 * e, re);
    set<F>(out, 2 * e + 1, im);
  }
}

template <class T>
void integers(Op op, const void* blocks, std::size_t elems, std::size_t count, void* out) {
  using U = std::make_unsigned_t<T>;
  for (std::size_t e = 0; e < elems; ++e) {
    if (op == Op::max || op == Op::min) {
      T best = element<T>(blocks, e);
      for (std::size_t k = 1; k < count; ++k) best = later_if_kept(op, best, element<T>(blocks, k * elems + e));
      set<T>(out, e, best);
      continue;
    }
    std::uint64_t acc = static_cast<U>(element<T>(blocks, e));
    for (std::size_t k = 1; k < count; ++k) {
      const std::uint64_t next = static_cast<U>(element<T>(blocks, k * elems + e));
      acc = op == Op::prod ? acc * next : acc + next;
    }
    set<U>(out, e, static_cast<U>(acc));
  }
}

// SumsProblem::reduce.
inline void reduce(Dtype t, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out) {
  if (op == Op::avg) {
    reduce(t, Op::sum, blocks, elems, count, out);
    return divide(t, out, elems, count);
  }
  switch (t) {
    case Dtype::i8: return integers<std::int8_t>(op, blocks, elems, count, out);
    case Dtype::i16: return integers<std::int16_t>(op, blocks, elems, count, out);
    case Dtype::i32: return integers<std::int32_t>(op, blocks, elems, count, out);
    case Dtype::i64: return integers<std::int64_t>(op, blocks, elems, count, out);
    case Dtype::u8: return integers<std::uint8_t>(op, blocks, elems, count, out);
    case Dtype::u16: return integers<std::uint16_t>(op, blocks, elems, count, out);
    case Dtype::u32: return integers<std::uint32_t>(op, blocks, elems, count, out);
    case Dtype::u64: return integers<std::uint64_t>(op, blocks, elems, count, out);
    case Dtype::f16: return floats<F16>(op, blocks, elems, count, out, 1);
    case Dtype::bf16: return floats<BF16>(op, blocks, elems, count, out, 1);
    case Dtype::f32: return floats<Native<float>>(op, blocks, elems, count, out, 1);
    case Dtype::f64: return floats<Native<double>>(op, blocks, elems, count, out, 1);
    case Dtype::c64:
      return op == Op::prod ? complex_product<float>(blocks, elems, count, out)
                            : floats<Native<float>>(op, blocks, elems, count, out, 2);
    case Dtype::c128:
      return op == Op::prod ? complex_product<double>(blocks, elems, count, out)
                            : floats<Native<double>>(op, blocks, elems, count, out, 2);
  }
}

// op's identity in T: 0, 1, and for max and min -inf and +inf where T has
// them, else its lowest and highest value.
template <class T>
void fill(Op op, void* out, std::size_t elems) {
  T v = T(0);
  if (op == Op::prod) v = T(1);
  if (op == Op::max) v = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  if (op == Op::min) v = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  for (std::size_t e = 0; e < elems; ++e) set<T>(out, e, v);
}

template <class Codec>
void fill_coded(Op op, void* out, std::size_t elems) {
  float v[1];
  fill<float>(op, v, 1);
  for (std::size_t e = 0; e < elems; ++e) set<typename Codec::S>(out, e, Codec::write(v[0]));
}

template <class F>
void fill_complex(Op op, void* out, std::size_t elems) {
  for (std::size_t e = 0; e < elems; ++e) {
    set<F>(out, 2 * e, op == Op::prod ? F(1) : F(0));
    set<F>(out, 2 * e + 1, F(0));
  }
}

// SumsProblem::identity.
inline void identity(Dtype t, Op op, void* out, std::size_t elems) {
  switch (t) {
    case Dtype::i8: return fill<std::int8_t>(op, out, elems);
    case Dtype::i16: return fill<std::int16_t>(op, out, elems);
    case Dtype::i32: return fill<std::int32_t>(op, out, elems);
    case Dtype::i64: return fill<std::int64_t>(op, out, elems);
    case Dtype::u8: return fill<std::uint8_t>(op, out, elems);
    case Dtype::u16: return fill<std::uint16_t>(op, out, elems);
    case Dtype::u32: return fill<std::uint32_t>(op, out, elems);
    case Dtype::u64: return fill<std::uint64_t>(op, out, elems);
    case Dtype::f16: return fill_coded<F16>(op, out, elems);
    case Dtype::bf16: return fill_coded<BF16>(op, out, elems);
    case Dtype::f32: return fill<float>(op, out, elems);
    case Dtype::f64: return fill<double>(op, out, elems);
    case Dtype::c64: return fill_complex<float>(op, out, elems);
    case Dtype::c128: return fill_complex<double>(op, out, elems);
  }
}

}  // namespace reference_ops
