// Local (single-device) kernels shared by every backend: the index math of
// slicing, packing and unpacking, written with memcpy of the longest
// contiguous run.  A device backend can use them on the host as a reference.
//
// View a row-major array split at `dim` as [outer][extent[dim]][inner]
// with outer = outer_count(layout, dim) and inner = the bytes of one index
// step along dim.  A chunk along dim is then `outer` contiguous runs.
//
// All functions check their arguments and buffer sizes and touch nothing on
// error.  Source and destination must not overlap.
#pragma once

#include <cstddef>

#include "redist/redist.hpp"

namespace redist::local {

// dst = chunk `index` of `parts` equal chunks of src along `dim`
// (layout: dyn_slice_out(src_layout, dim, parts)).
Status slice(const Layout& src_layout, int dim, std::size_t parts, std::size_t index,
             const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

// dst = [chunk 0][chunk 1]...[chunk parts-1], chunk j being chunk j of src
// along `dim`, each stored dense in layout dyn_slice_out(src_layout, dim, parts).
Status pack_chunks(const Layout& src_layout, int dim, std::size_t parts,
                   const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

// Inverse direction: src = [block 0]...[block parts-1], each block a dense
// array of layout block_layout; dst = their concatenation along `dim`
// (layout: all_gather_out(block_layout, dim, parts)).
Status concat_blocks(const Layout& block_layout, int dim, std::size_t parts,
                     const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);

// Reorders buf, a [rows][cols] matrix of `block`-byte blocks, into
// [cols][rows] in place: the block at (r, c) moves to position c*rows + r.
// Follows the permutation's cycles, one block at a time through scratch,
// which needs transpose_scratch_bytes(rows, cols, block) bytes (one block
// and a bitmap of the blocks already placed).
Status transpose_blocks(void* buf, std::size_t buf_bytes, std::size_t rows, std::size_t cols,
                        std::size_t block, void* scratch, std::size_t scratch_bytes);

// Shared argument checks, exposed so backends report the same messages.
// Messages name the problem without the operation; callers prefix it.
// check_dim: `what` names the dim's role ("dim", "source dim", ...).
Status check_dim(const Layout& layout, int dim, const char* what);
Status check_buffer(const void* p, std::size_t have, std::size_t need, const char* what);
Status check_disjoint(const void* a, std::size_t a_bytes, const char* a_name,
                      const void* b, std::size_t b_bytes, const char* b_name);
// All the checks of slice, pack_chunks and concat_blocks (same arguments),
// for device backends' versions of those kernels.
Status check_slice(const Layout& src_layout, int dim, std::size_t parts, std::size_t index,
                   const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes);
Status check_pack(const Layout& src_layout, int dim, std::size_t parts, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes);
Status check_concat(const Layout& block_layout, int dim, std::size_t parts, const void* src,
                    std::size_t src_bytes, void* dst, std::size_t dst_bytes);

}  // namespace redist::local
