// redist runtime: pending sums, backend-independent part.
//
// A type with pending-sum axes (`[{x}32, 64] sum{y}`) means: the value of
// the global array at an index is the sum, over the devices of one group of
// the pending axes, of what they hold there.  Reducing such a group needs
// the element type (the other collectives only move bytes), the result
// layouts and scratch sizes of the reductions, and the one summation kernel
// every backend uses on the host.
//
// Order of additions.  Every sum is a left fold in ascending group-member
// order: ((c_0 + c_1) + c_2) + ... + c_{size-1}, c_k being member k's
// contribution.  The MPI backend gathers the contributions of the elements a
// member owns and adds them itself (sum_blocks below) instead of letting MPI
// reduce, so for floating point a plan gives the same bits run after run,
// whatever algorithm MPI picks.  Integers wrap around (two's complement).
// f16 and bf16 contributions are widened to f32, added in f32 in that order,
// and the sum rounded once to the element type (to nearest, ties to even).
// c64 and c128 add their real and imaginary parts as f32 and f64.
#pragma once

#include <cstddef>

#include "redist/redist.hpp"

namespace redist {

enum class Dtype { i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, c64, c128 };

inline constexpr Dtype kAllDtypes[] = {Dtype::i8,  Dtype::i16, Dtype::i32,  Dtype::i64, Dtype::u8,
                                       Dtype::u16, Dtype::u32, Dtype::u64,  Dtype::f16, Dtype::bf16,
                                       Dtype::f32, Dtype::f64, Dtype::c64, Dtype::c128};

constexpr std::size_t dtype_bytes(Dtype t) {
  switch (t) {
    case Dtype::i8: case Dtype::u8: return 1;
    case Dtype::i16: case Dtype::u16: case Dtype::f16: case Dtype::bf16: return 2;
    case Dtype::i32: case Dtype::u32: case Dtype::f32: return 4;
    case Dtype::i64: case Dtype::u64: case Dtype::f64: case Dtype::c64: return 8;
    case Dtype::c128: return 16;
  }
  return 0;
}

// The command line's name of the type ("f32", "bf16", ...).
const char* dtype_name(Dtype t);

// ---- result layouts ---------------------------------------------------------
// reduce_scatter(dim) over a group of `size`: member k keeps chunk k along
// dim of the sum, extent[dim] / size (as dyn_slice).  all_reduce keeps the
// layout.
constexpr Layout reduce_scatter_out(const Layout& in, int dim, std::size_t size) {
  return dyn_slice_out(in, dim, size);
}

// ---- scratch (bytes) ----------------------------------------------------------
// reduce_scatter receives every member's contribution to its own chunk,
// member-major, into scratch (the chunks to send are packed there first
// when they are not contiguous, and exchanged in place), then adds them into
// the destination: one local array.
constexpr std::size_t reduce_scatter_scratch_bytes(const Layout& in, int dim, std::size_t size) {
  if (dim < 0 || dim >= in.ndim || size <= 1) return 0;
  return bytes(in);
}

// all_reduce splits the flat array into `size` pieces of
// q = n / size elements (member k owns piece k) and a tail of r = n % size
// elements.  Scratch holds either every member's copy of one piece or every
// member's tail, the larger: size * max(q, r) elements.
constexpr std::size_t all_reduce_scratch_bytes(const Layout& in, std::size_t size) {
  if (size <= 1) return 0;
  const std::size_t n = num_elements(in);
  const std::size_t piece = n / size;
  const std::size_t tail = n % size;
  return size * (piece > tail ? piece : tail) * in.elem_bytes;
}

namespace local {

// out[e] = blocks[0][e] + blocks[1][e] + ... + blocks[count-1][e] for the
// `elems` elements of each of `count` dense blocks laid out one after the
// other, added in ascending block order (see the top of this file).
// blocks holds count * elems elements; out, elems elements, and may not
// overlap blocks.
void sum_blocks(Dtype t, const void* blocks, std::size_t elems, std::size_t count, void* out);

// The conversions sum_blocks uses for f16 and bf16 (bit patterns),
// round to nearest, ties to even; NaN stays NaN.
float f16_to_f32(unsigned short bits);
unsigned short f32_to_f16(float value);
float bf16_to_f32(unsigned short bits);
unsigned short f32_to_bf16(float value);

}  // namespace local
}  // namespace redist
