#include <cstdint>
#include <string>

#include "redist/redist.hpp"

namespace redist {

const char* errc_name(Errc code) {
  switch (code) {
    case Errc::ok: return "ok";
    case Errc::invalid_argument: return "invalid_argument";
    case Errc::buffer_too_small: return "buffer_too_small";
    case Errc::mesh_mismatch: return "mesh_mismatch";
    case Errc::overlap: return "overlap";
    case Errc::too_large: return "too_large";
    case Errc::backend_error: return "backend_error";
    case Errc::remote_error: return "remote_error";
  }
  return "unknown";
}

Status validate_layout(const Layout& l) {
  if (l.ndim < 1 || l.ndim > kMaxRank)
    return {Errc::invalid_argument,
            "layout rank " + std::to_string(l.ndim) + " is not in 1.." + std::to_string(kMaxRank)};
  switch (l.elem_bytes) {
    case 1: case 2: case 4: case 8: case 16: break;
    default:
      return {Errc::invalid_argument, "element size " + std::to_string(l.elem_bytes) +
                                          " bytes is not 1, 2, 4, 8 or 16"};
  }
  // Byte counts are at most bytes(l) times a part count (< 2^23, see
  // local.cpp), so bounding bytes(l) by 2^40 keeps that arithmetic exact.
  std::size_t total = l.elem_bytes;
  for (int i = 0; i < l.ndim; ++i) {
    if (l.extent[i] < 1)
      return {Errc::invalid_argument, "extent of dim " + std::to_string(i) + " is 0"};
    if (l.extent[i] > (std::uint64_t{1} << 40) / total)
      return {Errc::too_large, "local array of more than 2^40 bytes"};
    total *= l.extent[i];
  }
  return {};
}

}  // namespace redist
