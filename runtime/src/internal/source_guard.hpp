// The split-phase check of the caller's source array: between start() and
// wait() MPI still reads it (sends in flight), so a caller that writes or
// frees it early sends garbage without any error.  Builds without NDEBUG
// record a 64-bit FNV-1a checksum of the source's bytes at start() and
// compare it when the operation completes (wait(), or the test() that sees
// it done); the rank whose source changed reports it.  Release builds check
// nothing and cost nothing.  It catches writes and a freed array that the
// allocator reused, not a freed array left as it was (ASan reports that).
#pragma once

#include <cstddef>
#include <cstdint>

namespace redist::backend {

#ifdef NDEBUG
constexpr bool kCheckSplitSource = false;
#else
constexpr bool kCheckSplitSource = true;
#endif

inline std::uint64_t source_checksum(const void* src, std::size_t bytes) {
  if constexpr (!kCheckSplitSource) return 0;
  const auto* p = static_cast<const unsigned char*>(src);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

inline constexpr const char* kSourceChanged =
    ": the source array changed between start() and the end of the operation (it must stay untouched "
    "until wait() returns or test() reports done)";

}  // namespace redist::backend
