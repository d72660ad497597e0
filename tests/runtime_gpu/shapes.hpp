// Layouts the kernel tests sweep: array ranks 1..5 and 8, every element
// size, extents with several divisors and some of 1.
#pragma once

#include <vector>

#include "check.hpp"

namespace gputest {

inline std::vector<redist::Layout> test_layouts() {
  const std::vector<std::vector<std::size_t>> shapes = {
      {12}, {7}, {4, 6}, {3, 5}, {2, 6, 4}, {3, 1, 4}, {2, 3, 4, 2}, {2, 1, 3, 2, 2},
      {2, 1, 2, 3, 1, 2, 1, 2}};
  std::vector<redist::Layout> out;
  for (const auto& s : shapes)
    for (std::size_t elem : {1, 2, 4, 8, 16}) out.push_back(layout_of(s, elem));
  return out;
}

inline std::vector<std::size_t> divisors(std::size_t n) {
  std::vector<std::size_t> out;
  for (std::size_t k = 1; k <= n; ++k)
    if (n % k == 0) out.push_back(k);
  return out;
}

}  // namespace gputest
