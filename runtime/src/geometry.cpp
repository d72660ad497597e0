#include "redist/geometry.hpp"

#include <climits>
#include <string>

namespace redist {

namespace {

std::string str(long long v) { return std::to_string(v); }

}  // namespace

MeshGeometry::MeshGeometry(int rank, const int* axis_sizes, int naxes)
    : size_(1), rank_(rank), naxes_(naxes) {
  for (int i = 0; i < naxes; ++i) {
    axis_sizes_[i] = axis_sizes[i];
    size_ *= axis_sizes[i];
  }
}

Status MeshGeometry::check_axes(const int* axis_sizes, int naxes, int* devices) {
  if (naxes < 1 || naxes > kMaxRank)
    return {Errc::invalid_argument,
            "Mesh::create: axis count " + str(naxes) + " is not in 1.." + str(kMaxRank)};
  if (axis_sizes == nullptr) return {Errc::invalid_argument, "Mesh::create: axis sizes are null"};
  long long total = 1;
  for (int i = 0; i < naxes; ++i) {
    if (axis_sizes[i] < 1)
      return {Errc::invalid_argument,
              "Mesh::create: size " + str(axis_sizes[i]) + " of axis " + str(i) + " is below 1"};
    total *= axis_sizes[i];
    if (total > INT_MAX) return {Errc::too_large, "Mesh::create: mesh has more than INT_MAX devices"};
  }
  *devices = static_cast<int>(total);
  return {};
}

int MeshGeometry::axis_stride(int axis) const {
  int stride = 1;
  for (int i = axis + 1; i < naxes_; ++i) stride *= axis_sizes_[i];
  return stride;
}

int MeshGeometry::coord_of(int rank, int axis) const {
  return (rank / axis_stride(axis)) % axis_sizes_[axis];
}

int MeshGeometry::rank_of(const int* coords) const {
  int rank = 0;
  for (int i = 0; i < naxes_; ++i) {
    if (coords[i] < 0 || coords[i] >= axis_sizes_[i]) return -1;
    rank = rank * axis_sizes_[i] + coords[i];
  }
  return rank;
}

Status MeshGeometry::check_group(Group g) const {
  const long long span = static_cast<long long>(g.stride) * g.size;
  if (g.stride < 1 || g.size < 1 || span > size_ || size_ % span != 0)
    return {Errc::invalid_argument, "group (stride " + str(g.stride) + ", size " + str(g.size) +
                                        ") is not a group of a mesh of " + str(size_) + " devices"};
  return {};
}

}  // namespace redist
