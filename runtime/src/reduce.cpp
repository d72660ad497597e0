#include "redist/reduce.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

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

// Stored type T, accumulated as Acc: widen(T) -> Acc, narrow(Acc) -> T.
template <class T, class Acc, class Widen, class Narrow>
void sum_as(const unsigned char* blocks, std::size_t elems, std::size_t count, unsigned char* out,
            Widen widen, Narrow narrow) {
  const std::size_t block = elems * sizeof(T);
  for (std::size_t e = 0; e < elems; ++e) {
    const unsigned char* p = blocks + e * sizeof(T);
    Acc acc = widen(load<T>(p));
    for (std::size_t k = 1; k < count; ++k) acc = acc + widen(load<T>(p + k * block));
    store<T>(out + e * sizeof(T), narrow(acc));
  }
}

// Unsigned arithmetic wraps; signed types of the same width have the same
// bits for the same sum, so both use it.
template <class U>
void sum_wrapping(const unsigned char* blocks, std::size_t elems, std::size_t count,
                  unsigned char* out) {
  // Integer promotion would turn u8 + u8 into int; the casts keep the width.
  sum_as<U, U>(blocks, elems, count, out, [](U v) { return v; },
               [](U v) { return static_cast<U>(v); });
}

template <class F>
void sum_native(const unsigned char* blocks, std::size_t elems, std::size_t count,
                unsigned char* out) {
  sum_as<F, F>(blocks, elems, count, out, [](F v) { return v; }, [](F v) { return v; });
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

void sum_blocks(Dtype t, const void* blocks, std::size_t elems, std::size_t count, void* out) {
  const auto* in = static_cast<const unsigned char*>(blocks);
  auto* o = static_cast<unsigned char*>(out);
  switch (t) {
    case Dtype::i8: case Dtype::u8: return sum_wrapping<std::uint8_t>(in, elems, count, o);
    case Dtype::i16: case Dtype::u16: return sum_wrapping<std::uint16_t>(in, elems, count, o);
    case Dtype::i32: case Dtype::u32: return sum_wrapping<std::uint32_t>(in, elems, count, o);
    case Dtype::i64: case Dtype::u64: return sum_wrapping<std::uint64_t>(in, elems, count, o);
    case Dtype::f32: return sum_native<float>(in, elems, count, o);
    case Dtype::f64: return sum_native<double>(in, elems, count, o);
    // A complex number is two consecutive reals, added part by part.
    case Dtype::c64: return sum_native<float>(in, 2 * elems, count, o);
    case Dtype::c128: return sum_native<double>(in, 2 * elems, count, o);
    case Dtype::f16:
      return sum_as<unsigned short, float>(in, elems, count, o, f16_to_f32, f32_to_f16);
    case Dtype::bf16:
      return sum_as<unsigned short, float>(in, elems, count, o, bf16_to_f32, f32_to_bf16);
  }
}

}  // namespace local
}  // namespace redist
