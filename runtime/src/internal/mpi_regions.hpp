// Internal to the MPI backend (not installed): box regions of dense local
// arrays as MPI datatypes and host copies, which the direct exchange
// (exchange.cpp) and the reducing exchange (reduce_exchange.cpp) share.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/mpi_c.hpp"
#include "redist/placed.hpp"

namespace redist::backend {

// A committed datatype for `region` inside the dense local array of `array`
// (errors name `what`); extents and offsets of any size.
Status subarray(const Box& array, const Box& region, MPI_Datatype element, MPI_Datatype* out,
                const char* what);

// One run of elements of a dense array: its first element and its length.
struct Run {
  std::size_t offset;
  std::size_t length;
};

// A committed datatype for `runs` of an array of `element`s, in their
// order (a message's elements follow it); runs of any length.
Status runs_type(const std::vector<Run>& runs, MPI_Datatype element, MPI_Datatype* out, const char* what);

// Copies `region` of the local array of box `from` into the local array of
// box `to` with one memcpy per contiguous run: the region's last dim, joined
// with the dims after it that the region spans whole in both arrays.
void copy_region(const unsigned char* src, const Box& from, unsigned char* dst, const Box& to,
                 const Box& region, std::size_t elem_bytes);

}  // namespace redist::backend
