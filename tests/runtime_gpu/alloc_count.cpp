// Replaces the test binary's global operator new to count its calls, so
// that tests can check that a hot path makes none.  (CUDA, NCCL and MPI
// allocate through malloc, which is not counted.)  In a translation unit of
// its own, so that no caller's inlined new/delete pair is seen beside it.
#include <atomic>
#include <cstdlib>
#include <new>

#include "check.hpp"

namespace {
std::atomic<long> g_news{0};
}

void* operator new(std::size_t n) {
  ++g_news;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

long gputest::operator_new_calls() { return g_news.load(); }
