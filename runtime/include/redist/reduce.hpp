// redist runtime: pending reductions, backend-independent part.
//
// A type with pending axes (`[{x}32, 64] sum{y}`, `max{y}`, ...) means: the
// value of the global array at an index is the reduction by the type's
// operation, over the devices of one group of the pending axes, of what
// they hold there.  Reducing such a group needs the element type and the
// operation (the other collectives only move bytes), the result layouts and
// scratch sizes of the reductions, and the one kernel every backend uses on
// the host.
//
// Operations (Op): sum, prod, max, min (commutative monoids: identities 0,
// 1, the lowest and the highest value) and avg, the sum over the group
// divided once by the group size (floating and complex types only).  A plan
// that reduces an avg in several steps adds in every step (step_op) and
// divides its destination once, at the end, by the product of the sizes
// of the axes it reduced (local::divide), a number of the plan's data:
// dividing per step would round once more per step.
//
// Order.  Every reduction is a left fold in ascending group-member order:
// ((c_0 op c_1) op c_2) op ... op c_{size-1}, c_k being member k's
// contribution.  The MPI backend gathers the contributions of the elements a
// member owns and combines them itself (reduce_blocks below) instead of
// letting MPI reduce, so for floating point a plan gives the same bits run
// after run, whatever algorithm MPI picks.  Integer sums and products wrap
// around (two's complement), so they are exact whatever the order.  f16 and
// bf16 contributions are widened to f32, combined in f32 in that order,
// and the result rounded once to the element type (to
// nearest, ties to even); avg's division is a second step, on the sum as
// stored (f16 and bf16 widened again, divided in f32 and rounded once more).
// c64 and c128 add (and average) their real and
// imaginary parts as f32 and f64, and multiply as (a+bi)(c+di) = (ac-bd) +
// (ad+bc)i in those types; they have no max or min.  max and min of floats:
// a NaN contribution makes the result NaN (as torch's max and min); otherwise
// the first of equal values (in member order) is kept, so -0 and +0 come
// out as the earlier member's.
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

enum class Op { sum = 0, prod = 1, max = 2, min = 3, avg = 4 };

// The command line's name of the operation ("sum", "max", ...).
const char* op_name(Op op);

// Whether the runtime computes op on t: complex numbers have no max or
// min, and avg is for floating and complex types.
bool op_computes(Dtype t, Op op);

// Whether a new pending axis of op leaves the value on every member
// (max, min, avg) rather than on member 0 with the identity on the others
// (sum, prod): add_pending's rule.
constexpr bool every_member_keeps(Op op) { return op == Op::max || op == Op::min || op == Op::avg; }

// The operation each step of a plan combines with: avg's steps add, and the
// plan divides once at the end (local::divide); every other op is its own.
constexpr Op step_op(Op op) { return op == Op::avg ? Op::sum : op; }

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

// out[e] = blocks[0][e] op blocks[1][e] op ... op blocks[count-1][e] for
// the `elems` elements of each of `count` dense blocks laid out one after the
// other, combined in ascending block order (see the top of this file); avg
// is that sum, as sum stores it, then divide(out, elems, count).  blocks holds count * elems elements; out,
// elems elements, and may not overlap blocks.  op_computes(t, op) must hold.
void reduce_blocks(Dtype t, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out);

// Divides each of the `elems` elements at data by `divisor` in place: avg's
// one division.  Complex numbers part by part; f16 and bf16 widened to f32,
// divided there and rounded once to nearest even.  t must be a floating or
// complex type (op_computes(t, Op::avg)); integers are left as they are.
void divide(Dtype t, void* data, std::size_t elems, std::size_t divisor);

// Sets the `elems` elements at out to op's identity: 0, 1, the lowest value
// (-inf for floats) for max, the highest (+inf) for min; avg's members hold
// the value itself, so its identity is sum's.
void fill_identity(Dtype t, Op op, void* out, std::size_t elems);

// The conversions reduce_blocks uses for f16 and bf16 (bit patterns),
// round to nearest, ties to even; NaN stays NaN.
float f16_to_f32(unsigned short bits);
unsigned short f32_to_f16(float value);
float bf16_to_f32(unsigned short bits);
unsigned short f32_to_bf16(float value);

}  // namespace local
}  // namespace redist
