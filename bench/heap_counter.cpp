// Counts the bytes the process holds on the heap, by interposing glibc's
// allocation functions in the driver executable, so that the driver can
// measure what each system allocates inside its timed calls (ScaLAPACK's
// psgemr2d, MPI's internal buffers) rather than assume it.
#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstddef>

#include "bench_common.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void __libc_free(void*);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {

std::atomic<long long> g_now{0};
std::atomic<long long> g_peak{0};

void grow(long long by) {
  const long long now = g_now.fetch_add(by) + by;
  long long peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}

long long usable(void* p) { return p ? static_cast<long long>(malloc_usable_size(p)) : 0; }

void* counted(void* p) {
  grow(usable(p));
  return p;
}

}  // namespace

extern "C" {

void* malloc(std::size_t n) { return counted(__libc_malloc(n)); }
void* calloc(std::size_t n, std::size_t m) { return counted(__libc_calloc(n, m)); }
void* memalign(std::size_t a, std::size_t n) { return counted(__libc_memalign(a, n)); }
void* aligned_alloc(std::size_t a, std::size_t n) { return counted(__libc_memalign(a, n)); }
void* valloc(std::size_t n) { return counted(__libc_memalign(4096, n)); }
void* pvalloc(std::size_t n) { return counted(__libc_memalign(4096, (n + 4095) & ~std::size_t{4095})); }

int posix_memalign(void** out, std::size_t a, std::size_t n) {
  void* p = __libc_memalign(a, n);
  if (p == nullptr && n != 0) return ENOMEM;
  *out = counted(p);
  return 0;
}

void free(void* p) {
  grow(-usable(p));
  __libc_free(p);
}

void* realloc(void* p, std::size_t n) {
  const long long before = usable(p);
  void* q = __libc_realloc(p, n);
  if (q != nullptr)
    grow(usable(q) - before);
  else if (n == 0)
    grow(-before);  // realloc(p, 0) freed p
  return q;
}

}  // extern "C"

namespace bench {

long long heap_now() { return g_now.load(); }

long long heap_peak_since_reset() { return g_peak.load(); }

void heap_reset_peak() { g_peak.store(g_now.load()); }

}  // namespace bench
