// The parts of backend_common.hpp that call no MPI: message prefixes and
// the 64-bit keys of agreed values.  Apart, so that the planning half of
// the C ABI (libredist_planner.so), which uses them through the exchange's
// peers, links no MPI library.
#include "internal/backend_common.hpp"

#include <string>

namespace redist::backend {

namespace {

// splitmix64's finaliser: spreads every input bit over the whole word.
std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

}  // namespace

Status prefixed(const char* what, Status st) {
  if (st.ok()) return st;
  return {st.code(), std::string(what) + ": " + st.message()};
}

std::uint64_t combine_key(std::uint64_t h, std::uint64_t v) {
  return mix(h ^ mix(v + 0x9E3779B97F4A7C15ull));
}

std::uint64_t ints_key(const int* values, std::size_t n) {
  std::uint64_t h = mix(n);
  for (std::size_t i = 0; i < n; ++i) h = combine_key(h, static_cast<std::uint32_t>(values[i]));
  return h;
}

}  // namespace redist::backend
