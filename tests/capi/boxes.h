/* The test data of tests/capi (C and C++): each element of the global
 * array is a hash of its global index, so that every rank can fill its
 * source box and check its target box on its own. */
#ifndef REDIST_TESTS_CAPI_BOXES_H
#define REDIST_TESTS_CAPI_BOXES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { max_dims = 8 };

/* The value of the element at a global index: a 64-bit hash of the index,
 * its low bytes when elements are narrower, repeated when wider. */
static inline uint64_t element_hash(const size_t* index, int ndim) {
  uint64_t h = 1469598103934665603u;
  for (int d = 0; d < ndim; ++d) h = (h ^ (uint64_t)index[d]) * 1099511628211u + 0x9e3779b97f4a7c15u;
  return h ^ (h >> 29);
}

static inline void element_bytes(const size_t* index, int ndim, unsigned char* out, size_t elem) {
  const uint64_t h = element_hash(index, ndim);
  for (size_t b = 0; b < elem; ++b) out[b] = (unsigned char)(h >> (8 * (b % 8)));
}

/* Visits the box row-major: calls fill (src) or compares (dst) each element.
 * Returns the number of mismatches when checking. */
static inline size_t walk_box(const size_t* offset, const size_t* extent, int ndim, size_t elem, unsigned char* data,
                       int check) {
  size_t local[max_dims] = {0}, global[max_dims];
  size_t count = 1, bad = 0;
  unsigned char want[16];
  for (int d = 0; d < ndim; ++d) count *= extent[d];
  for (size_t i = 0; i < count; ++i) {
    for (int d = 0; d < ndim; ++d) global[d] = offset[d] + local[d];
    element_bytes(global, ndim, want, elem);
    if (check) bad += memcmp(data + i * elem, want, elem) != 0;
    else memcpy(data + i * elem, want, elem);
    for (int d = ndim - 1; d >= 0; --d) {
      if (++local[d] < extent[d]) break;
      local[d] = 0;
    }
  }
  return bad;
}

#endif
