#include "redist/local.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace redist::local {

namespace {

std::string str(std::size_t v) { return std::to_string(v); }

// Checks shared by the three kernels: layout, dim, divisibility, buffers.
Status check_split(const Layout& l, int dim, std::size_t parts) {
  if (Status st = validate_layout(l); !st.ok()) return st;
  if (Status st = check_dim(l, dim, "dim"); !st.ok()) return st;
  if (parts < 1 || parts >= (std::size_t{1} << 23))
    return {Errc::invalid_argument, "part count " + str(parts) + " is not in 1..2^23-1"};
  return {};
}

Status check_divisible(const Layout& l, int dim, std::size_t parts) {
  if (l.extent[dim] % parts != 0)
    return {Errc::invalid_argument, "extent " + str(l.extent[dim]) + " of dim " +
                                        std::to_string(dim) + " is not divisible by " + str(parts)};
  return {};
}

Status check_io(const void* src, std::size_t src_bytes, std::size_t src_need,
                void* dst, std::size_t dst_bytes, std::size_t dst_need) {
  if (Status st = check_buffer(src, src_bytes, src_need, "source"); !st.ok()) return st;
  if (Status st = check_buffer(dst, dst_bytes, dst_need, "destination"); !st.ok()) return st;
  return check_disjoint(src, src_need, "source", dst, dst_need, "destination");
}

}  // namespace

Status check_dim(const Layout& l, int dim, const char* what) {
  if (dim < 0 || dim >= l.ndim)
    return {Errc::invalid_argument, std::string(what) + " " + std::to_string(dim) +
                                        " is out of range for a rank-" + std::to_string(l.ndim) +
                                        " array"};
  return {};
}

Status check_buffer(const void* p, std::size_t have, std::size_t need, const char* what) {
  if (need > 0 && p == nullptr) return {Errc::invalid_argument, std::string(what) + " is null"};
  if (have < need)
    return {Errc::buffer_too_small,
            std::string(what) + " has " + str(have) + " bytes, needs " + str(need)};
  return {};
}

Status check_disjoint(const void* a, std::size_t a_bytes, const char* a_name, const void* b,
                      std::size_t b_bytes, const char* b_name) {
  if (a_bytes == 0 || b_bytes == 0) return {};
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  if (pa < pb + b_bytes && pb < pa + a_bytes)
    return {Errc::overlap, std::string(a_name) + " and " + b_name + " overlap"};
  return {};
}

Status check_slice(const Layout& l, int dim, std::size_t parts, std::size_t index,
                   const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_split(l, dim, parts); !st.ok()) return st;
  if (Status st = check_divisible(l, dim, parts); !st.ok()) return st;
  if (index >= parts)
    return {Errc::invalid_argument, "chunk index " + str(index) + " is not below " + str(parts)};
  const std::size_t total = bytes(l);
  return check_io(src, src_bytes, total, dst, dst_bytes, total / parts);
}

Status check_pack(const Layout& l, int dim, std::size_t parts, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_split(l, dim, parts); !st.ok()) return st;
  if (Status st = check_divisible(l, dim, parts); !st.ok()) return st;
  const std::size_t total = bytes(l);
  return check_io(src, src_bytes, total, dst, dst_bytes, total);
}

Status check_concat(const Layout& block, int dim, std::size_t parts, const void* src,
                    std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_split(block, dim, parts); !st.ok()) return st;
  const std::size_t total = bytes(block) * parts;
  return check_io(src, src_bytes, total, dst, dst_bytes, total);
}

Status slice(const Layout& l, int dim, std::size_t parts, std::size_t index, const void* src,
             std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_slice(l, dim, parts, index, src, src_bytes, dst, dst_bytes); !st.ok())
    return st;
  const std::size_t extent = l.extent[dim];

  const std::size_t outer = outer_count(l, dim);
  const std::size_t inner = inner_bytes(l, dim);
  const std::size_t run = extent / parts * inner;
  const auto* in = static_cast<const unsigned char*>(src) + index * run;
  auto* out = static_cast<unsigned char*>(dst);
  for (std::size_t o = 0; o < outer; ++o) std::memcpy(out + o * run, in + o * extent * inner, run);
  return {};
}

Status pack_chunks(const Layout& l, int dim, std::size_t parts, const void* src,
                   std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_pack(l, dim, parts, src, src_bytes, dst, dst_bytes); !st.ok()) return st;
  const std::size_t extent = l.extent[dim];

  const std::size_t outer = outer_count(l, dim);
  const std::size_t inner = inner_bytes(l, dim);
  const std::size_t run = extent / parts * inner;
  const std::size_t chunk = outer * run;
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t j = 0; j < parts; ++j)
      std::memcpy(out + j * chunk + o * run, in + (o * parts + j) * run, run);
  return {};
}

Status concat_blocks(const Layout& block, int dim, std::size_t parts, const void* src,
                     std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_concat(block, dim, parts, src, src_bytes, dst, dst_bytes); !st.ok())
    return st;
  const std::size_t block_bytes = bytes(block);

  const std::size_t outer = outer_count(block, dim);
  const std::size_t run = block.extent[dim] * inner_bytes(block, dim);
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t k = 0; k < parts; ++k)
      std::memcpy(out + (o * parts + k) * run, in + k * block_bytes + o * run, run);
  return {};
}

Status transpose_blocks(void* buf, std::size_t buf_bytes, std::size_t rows, std::size_t cols,
                        std::size_t block, void* scratch, std::size_t scratch_bytes) {
  if (rows == 0 || cols == 0 || block == 0 || rows >= (std::size_t{1} << 31) ||
      cols >= (std::size_t{1} << 31) || block > (std::size_t{1} << 40) / rows / cols)
    return {Errc::invalid_argument, "transpose of " + str(rows) + " x " + str(cols) +
                                        " blocks of " + str(block) + " bytes is invalid"};
  const std::size_t total = rows * cols * block;
  const std::size_t need = transpose_scratch_bytes(rows, cols, block);
  if (Status st = check_buffer(buf, buf_bytes, total, "buffer"); !st.ok()) return st;
  if (Status st = check_buffer(scratch, scratch_bytes, need, "scratch"); !st.ok()) return st;
  if (Status st = check_disjoint(buf, total, "buffer", scratch, need, "scratch"); !st.ok()) return st;
  if (need == 0) return {};  // a single row or column is its own transpose

  auto* data = static_cast<unsigned char*>(buf);
  auto* held = static_cast<unsigned char*>(scratch);
  auto* placed = held + block;
  const std::size_t n = rows * cols;
  std::memset(placed, 0, (n + 7) / 8);
  auto is_placed = [&](std::size_t q) { return (placed[q / 8] >> (q % 8)) & 1u; };
  auto mark = [&](std::size_t q) { placed[q / 8] |= static_cast<unsigned char>(1u << (q % 8)); };
  // Position q = c*rows + r of the result takes the block at r*cols + c.
  auto source_of = [&](std::size_t q) { return (q % rows) * cols + q / rows; };
  for (std::size_t start = 0; start < n; ++start) {
    if (is_placed(start)) continue;
    mark(start);
    std::size_t q = start, p = source_of(start);
    if (p == start) continue;
    // Walk the cycle backwards: each position takes its source's block
    // before that source is overwritten; the first one is held aside.
    std::memcpy(held, data + start * block, block);
    while (p != start) {
      std::memcpy(data + q * block, data + p * block, block);
      mark(p);
      q = p;
      p = source_of(q);
    }
    std::memcpy(data + q * block, held, block);
  }
  return {};
}

}  // namespace redist::local
