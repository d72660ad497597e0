// The compute kernel of the overlap measurements (bench/overlap.cpp, and
// the large suite's in bench/driver.cpp): `iterations` dependent
// multiply-adds through memory (volatile: the compiler may not fold them)
// per slice, kSlices slices, calling `between` after each one (where a
// split-phase operation is tested).  It touches no buffer of the exchange.
#pragma once

namespace bench {

constexpr int kSlices = 100;

template <class Between>
void compute(long iterations, Between between) {
  volatile double x = 1.0;
  for (int s = 0; s < kSlices; ++s) {
    for (long i = 0; i < iterations; ++i) x = x * 0.999999 + 1e-6;
    between();
  }
}

}  // namespace bench
