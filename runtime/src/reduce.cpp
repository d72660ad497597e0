#include "redist/reduce.hpp"

#include <cmath>
#include <cstdint>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

namespace redist {

const char* dtype_name(Dtype t) {
  switch (t) {
    case Dtype::i8: return "i8";
    case Dtype::i16: return "i16";
    case Dtype::i32: return "i32";
    case Dtype::i64: return "i64";
    case Dtype::u8: return "u8";
    case Dtype::u16: return "u16";
    case Dtype::u32: return "u32";
    case Dtype::u64: return "u64";
    case Dtype::f16: return "f16";
    case Dtype::bf16: return "bf16";
    case Dtype::f32: return "f32";
    case Dtype::f64: return "f64";
    case Dtype::c64: return "c64";
    case Dtype::c128: return "c128";
  }
  return "?";
}

const char* op_name(Op op) {
  switch (op) {
    case Op::sum: return "sum";
    case Op::prod: return "prod";
    case Op::max: return "max";
    case Op::min: return "min";
    case Op::avg: return "avg";
  }
  return "?";
}

bool op_computes(Dtype t, Op op) {
  const bool complex = t == Dtype::c64 || t == Dtype::c128;
  const bool floating = complex || t == Dtype::f16 || t == Dtype::bf16 || t == Dtype::f32 || t == Dtype::f64;
  switch (op) {
    case Op::sum: case Op::prod: return true;
    case Op::max: case Op::min: return !complex;
    case Op::avg: return floating;
  }
  return false;
}

namespace local {

namespace {

std::uint32_t float_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  return x;
}

float bits_float(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

// Elements are read and written with memcpy: blocks come from byte buffers
// of any alignment.
template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Stored type T, accumulated as Acc: widen(T) -> Acc, narrow(Acc) -> T;
// combine(acc, next) folds in member order.
template <class T, class Acc, class Widen, class Narrow, class Combine>
void fold_as(const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out, Widen widen,
             Narrow narrow, Combine combine) {
  const std::size_t block = elems * sizeof(T);
  for (std::size_t e = 0; e < elems; ++e) {
    const unsigned char* p = blocks + e * sizeof(T);
    Acc acc = widen(load<T>(p));
    for (std::size_t k = 1; k < count; ++k) acc = combine(acc, widen(load<T>(p + k * block)));
    store<T>(out + e * sizeof(T), narrow(acc));
  }
}

template <class Acc>
Acc nan_or(Acc acc, Acc next, bool take_next) {
  if (acc != acc) return acc;  // a NaN stays
  if (next != next) return next;
  return take_next ? next : acc;
}

// op over values that are their own accumulator after widen (integers,
// floats, or f16/bf16 widened to f32).
template <class T, class Acc, class Widen, class Narrow>
void reduce_as(Op op, const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out,
               Widen widen, Narrow narrow) {
  switch (op) {
    case Op::sum:
      return fold_as<T, Acc>(blocks, elems, count, out, widen, narrow, [](Acc a, Acc b) { return static_cast<Acc>(a + b); });
    case Op::prod:
      return fold_as<T, Acc>(blocks, elems, count, out, widen, narrow, [](Acc a, Acc b) { return static_cast<Acc>(a * b); });
    case Op::max:
      return fold_as<T, Acc>(blocks, elems, count, out, widen, narrow, [](Acc a, Acc b) { return nan_or(a, b, b > a); });
    case Op::min:
      return fold_as<T, Acc>(blocks, elems, count, out, widen, narrow, [](Acc a, Acc b) { return nan_or(a, b, b < a); });
    case Op::avg: break;  // reduce_blocks: a sum, then divide
  }
}

// Integers: sum and product wrap, computed unsigned (at least as wide as
// unsigned int, so that promotion cannot overflow a signed int); max and
// min compare as the signed or unsigned type S.  Signed and unsigned types
// of one width have the same bits for the same sum or product.
template <class S>
void reduce_integer(Op op, const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out) {
  using U = std::make_unsigned_t<S>;
  using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  if (op == Op::max || op == Op::min)
    return reduce_as<S, S>(op, blocks, elems, count, out, [](S v) { return v; }, [](S v) { return v; });
  reduce_as<U, Wide>(op, blocks, elems, count, out, [](U v) { return Wide{v}; }, [](Wide v) { return static_cast<U>(v); });
}

template <class F>
void reduce_native(Op op, const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out) {
  reduce_as<F, F>(op, blocks, elems, count, out, [](F v) { return v; }, [](F v) { return v; });
}

// Complex numbers: parts added one by one; the product
// (a+bi)(c+di) = (ac-bd) + (ad+bc)i in the part type F.
template <class F>
void reduce_complex(Op op, const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out) {
  if (op != Op::prod) return reduce_native<F>(op, blocks, 2 * elems, count, out);
  const std::size_t block = elems * 2 * sizeof(F);
  for (std::size_t e = 0; e < elems; ++e) {
    const unsigned char* p = blocks + e * 2 * sizeof(F);
    F re = load<F>(p), im = load<F>(p + sizeof(F));
    for (std::size_t k = 1; k < count; ++k) {
      const F c = load<F>(p + k * block), d = load<F>(p + k * block + sizeof(F));
      const F next_re = re * c - im * d;
      im = re * d + im * c;
      re = next_re;
    }
    store<F>(out + e * 2 * sizeof(F), re);
    store<F>(out + e * 2 * sizeof(F) + sizeof(F), im);
  }
}

template <class T>
void fill(unsigned char* out, std::size_t elems, T value) {
  for (std::size_t e = 0; e < elems; ++e) store<T>(out + e * sizeof(T), value);
}

// The identity of op on the integer type S.
template <class S>
S integer_identity(Op op) {
  switch (op) {
    case Op::prod: return S{1};
    case Op::max: return std::numeric_limits<S>::lowest();
    case Op::min: return std::numeric_limits<S>::max();
    case Op::sum: case Op::avg: break;
  }
  return S{0};
}

// The identity of op on a float type, as a float (exact in every float type).
float float_identity(Op op) {
  switch (op) {
    case Op::prod: return 1.0f;
    case Op::max: return -std::numeric_limits<float>::infinity();
    case Op::min: return std::numeric_limits<float>::infinity();
    case Op::sum: case Op::avg: break;
  }
  return 0.0f;
}

}  // namespace

float bf16_to_f32(unsigned short bits) { return bits_float(std::uint32_t{bits} << 16); }

unsigned short f32_to_bf16(float value) {
  const std::uint32_t x = float_bits(value);
  // A NaN keeps a mantissa bit so that it cannot round into infinity.
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((x >> 16) | 0x40u);
  return static_cast<unsigned short>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float f16_to_f32(unsigned short bits) {
  const std::uint32_t sign = std::uint32_t{bits & 0x8000u} << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in f32.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  // Rebias the exponent from 15 to 127.
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

unsigned short f32_to_f16(float value) {
  const std::uint32_t x = float_bits(value);
  const auto sign = static_cast<unsigned short>((x >> 16) & 0x8000u);
  const std::uint32_t magnitude = x & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;  // NaN
  // 65520 and above (infinity included) round to infinity.
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Below the smallest normal f16 (2^-14): a multiple of 2^-24, rounded
    // to nearest even by nearbyint (the default rounding mode); 1024 is the
    // smallest normal's encoding, so rounding up into it is right as is.
    const float units = bits_float(magnitude) * 16777216.0f;
    return sign | static_cast<unsigned short>(std::nearbyint(units));
  }
  // Round the 13 dropped mantissa bits to nearest even, then rebias the
  // exponent from 127 to 15 (a carry into the exponent is the right result).
  const std::uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return sign | static_cast<unsigned short>((rounded - (112u << 23)) >> 13);
}

namespace {

// x / divisor in the type F, stored as T (widen, narrow: as reduce_as).
template <class T, class F, class Widen, class Narrow>
void divide_as(unsigned char* data, std::size_t values, std::size_t divisor, Widen widen, Narrow narrow) {
  const F by = static_cast<F>(divisor);
  for (std::size_t e = 0; e < values; ++e) store<T>(data + e * sizeof(T), narrow(static_cast<F>(widen(load<T>(data + e * sizeof(T))) / by)));
}

template <class F>
F same_value(F v) { return v; }

}  // namespace

void divide(Dtype t, void* data, std::size_t elems, std::size_t divisor) {
  auto* d = static_cast<unsigned char*>(data);
  switch (t) {
    case Dtype::f32: return divide_as<float, float>(d, elems, divisor, same_value<float>, same_value<float>);
    case Dtype::f64: return divide_as<double, double>(d, elems, divisor, same_value<double>, same_value<double>);
    case Dtype::c64: return divide_as<float, float>(d, 2 * elems, divisor, same_value<float>, same_value<float>);
    case Dtype::c128: return divide_as<double, double>(d, 2 * elems, divisor, same_value<double>, same_value<double>);
    case Dtype::f16: return divide_as<unsigned short, float>(d, elems, divisor, f16_to_f32, f32_to_f16);
    case Dtype::bf16: return divide_as<unsigned short, float>(d, elems, divisor, bf16_to_f32, f32_to_bf16);
    case Dtype::i8: case Dtype::i16: case Dtype::i32: case Dtype::i64:
    case Dtype::u8: case Dtype::u16: case Dtype::u32: case Dtype::u64: return;
  }
}

void reduce_blocks(Dtype t, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out) {
  if (op == Op::avg) {
    reduce_blocks(t, Op::sum, blocks, elems, count, out);
    return divide(t, out, elems, count);
  }
  const auto* in = static_cast<const unsigned char*>(blocks);
  auto* o = static_cast<unsigned char*>(out);
  switch (t) {
    case Dtype::i8: return reduce_integer<std::int8_t>(op, in, elems, count, o);
    case Dtype::i16: return reduce_integer<std::int16_t>(op, in, elems, count, o);
    case Dtype::i32: return reduce_integer<std::int32_t>(op, in, elems, count, o);
    case Dtype::i64: return reduce_integer<std::int64_t>(op, in, elems, count, o);
    case Dtype::u8: return reduce_integer<std::uint8_t>(op, in, elems, count, o);
    case Dtype::u16: return reduce_integer<std::uint16_t>(op, in, elems, count, o);
    case Dtype::u32: return reduce_integer<std::uint32_t>(op, in, elems, count, o);
    case Dtype::u64: return reduce_integer<std::uint64_t>(op, in, elems, count, o);
    case Dtype::f32: return reduce_native<float>(op, in, elems, count, o);
    case Dtype::f64: return reduce_native<double>(op, in, elems, count, o);
    case Dtype::c64: return reduce_complex<float>(op, in, elems, count, o);
    case Dtype::c128: return reduce_complex<double>(op, in, elems, count, o);
    case Dtype::f16: return reduce_as<unsigned short, float>(op, in, elems, count, o, f16_to_f32, f32_to_f16);
    case Dtype::bf16: return reduce_as<unsigned short, float>(op, in, elems, count, o, bf16_to_f32, f32_to_bf16);
  }
}

void fill_identity(Dtype t, Op op, void* out, std::size_t elems) {
  auto* o = static_cast<unsigned char*>(out);
  const float f = float_identity(op);
  switch (t) {
    case Dtype::i8: return fill(o, elems, integer_identity<std::int8_t>(op));
    case Dtype::i16: return fill(o, elems, integer_identity<std::int16_t>(op));
    case Dtype::i32: return fill(o, elems, integer_identity<std::int32_t>(op));
    case Dtype::i64: return fill(o, elems, integer_identity<std::int64_t>(op));
    case Dtype::u8: return fill(o, elems, integer_identity<std::uint8_t>(op));
    case Dtype::u16: return fill(o, elems, integer_identity<std::uint16_t>(op));
    case Dtype::u32: return fill(o, elems, integer_identity<std::uint32_t>(op));
    case Dtype::u64: return fill(o, elems, integer_identity<std::uint64_t>(op));
    case Dtype::f32: return fill(o, elems, f);
    case Dtype::f64: return fill(o, elems, static_cast<double>(f));
    case Dtype::f16: return fill(o, elems, f32_to_f16(f));
    case Dtype::bf16: return fill(o, elems, f32_to_bf16(f));
    // A complex identity is real: (1, 0) for the product, (0, 0) for the sum.
    case Dtype::c64: return fill(o, elems, std::complex<float>(f, 0.0f));
    case Dtype::c128: return fill(o, elems, std::complex<double>(f, 0.0));
  }
}

}  // namespace local
}  // namespace redist
