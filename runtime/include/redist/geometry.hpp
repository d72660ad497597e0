// The backend-independent part of a mesh: its axis sizes and the calling
// device's rank in it, with the row-major rank <-> coordinate arithmetic of
// the model (first axis most significant).  redist::Mesh and
// redist::nccl::Mesh both derive from it, so they answer these questions,
// and validate groups, with one piece of code.
#pragma once

#include "redist/redist.hpp"

namespace redist {

class MeshGeometry {
 public:
  int size() const { return size_; }
  int rank() const { return rank_; }
  int naxes() const { return naxes_; }
  int axis_size(int axis) const { return axis_sizes_[axis]; }   // 0 <= axis < naxes()
  int axis_stride(int axis) const;                              // product of later axis sizes
  int coord(int axis) const { return coord_of(rank_, axis); }   // this device's coordinate
  int coord_of(int rank, int axis) const;                       // (rank / stride) % size
  // Row-major rank of a coordinate vector of naxes() entries; -1 if any is out of range.
  int rank_of(const int* coords) const;
  // This device's position k in group g (its coordinate on g's axis).
  int index_in(Group g) const { return group_index(rank_, g); }

  // Validates g against this mesh (shared by the collectives).
  Status check_group(Group g) const;

  // The checks of Mesh::create that need no communicator: naxes in
  // 1..kMaxRank, sizes non-null and >= 1, at most INT_MAX devices.  On
  // success *devices is the product of the sizes.
  static Status check_axes(const int* axis_sizes, int naxes, int* devices);

  // An empty mesh (size() == 0).
  MeshGeometry() = default;
  // The geometry of device `rank` on a mesh already checked by check_axes.
  MeshGeometry(int rank, const int* axis_sizes, int naxes);

 private:
  // size_ == 0 marks an empty mesh (default-constructed or moved from).
  int size_ = 0;
  int rank_ = -1;
  int naxes_ = 0;
  int axis_sizes_[kMaxRank] = {};
};

}  // namespace redist
