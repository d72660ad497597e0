// Baseline: FFTW-MPI's distributed transpose (fftwf_mpi_plan_many_transpose)
// on the 2-D problems it can express (bench/gen.py's fftw_direction).
//
// FFTW transposes an n0 x n1 matrix of `howmany`-tuples whose rows are cut
// into blocks over all ranks.  A row-major N0 x N1 array with its rows over
// the P ranks is the N0 x P x (N1/P) array of tuples; transposed, it is
// P x N0 x (N1/P) with block 1: rank j gets columns [j*N1/P, (j+1)*N1/P) of
// every row, row-major, which is the columns-over-all-ranks layout.  The
// inverse (n0 = P, n1 = N0) moves columns back to rows.  Blocks are ceil
// blocks, as redist's, so uneven N0 is expressed too.  In place (in == out,
// bench/inplace.cpp) the array holds the source and then the target.
#include <fftw3-mpi.h>

#include <cstring>

#include "bench_common.hpp"

namespace bench {

struct FftwTranspose {
  fftwf_plan plan = nullptr;
  float* in = nullptr;
  float* out = nullptr;
  std::size_t elems = 0;
};

FftwTranspose* fftw_setup(const Problem& p, int size, bool in_place) {
  const ptrdiff_t rows = static_cast<ptrdiff_t>(p.shape[0]);
  const ptrdiff_t tuple = static_cast<ptrdiff_t>(p.shape[1]) / size;
  const ptrdiff_t row_block = (rows + size - 1) / size;
  const bool rows_to_cols = p.fftw_direction == 1;
  const ptrdiff_t n[2] = {rows_to_cols ? rows : size, rows_to_cols ? size : rows};
  const ptrdiff_t block0 = rows_to_cols ? row_block : 1, block1 = rows_to_cols ? 1 : row_block;
  ptrdiff_t n0_local, n0_start, n1_local, n1_start;
  const ptrdiff_t elems = fftwf_mpi_local_size_many_transposed(2, n, tuple, block0, block1, MPI_COMM_WORLD,
                                                               &n0_local, &n0_start, &n1_local, &n1_start);
  FftwTranspose* f = new FftwTranspose;
  f->elems = static_cast<std::size_t>(elems > 0 ? elems : 1);
  f->in = fftwf_alloc_real(f->elems);
  f->out = in_place ? f->in : fftwf_alloc_real(f->elems);
  // FFTW_MEASURE times candidate algorithms on the arrays (overwriting
  // them); the caller fills `in` afterwards.  In place the input is the
  // output, so it cannot be preserved.
  f->plan = fftwf_mpi_plan_many_transpose(n[0], n[1], tuple, block0, block1, f->in, f->out, MPI_COMM_WORLD,
                                          FFTW_MEASURE | (in_place ? 0 : FFTW_PRESERVE_INPUT));
  if (f->plan == nullptr) {
    fftw_free(f);
    return nullptr;
  }
  return f;
}

float* fftw_in(FftwTranspose* f) { return f->in; }
const float* fftw_out(const FftwTranspose* f) { return f->out; }
std::size_t fftw_array_elems(const FftwTranspose* f) { return f->elems; }
void fftw_run(FftwTranspose* f) { fftwf_execute(f->plan); }

void fftw_free(FftwTranspose* f) {
  if (f->plan != nullptr) fftwf_destroy_plan(f->plan);
  if (f->out != f->in) fftwf_free(f->out);
  fftwf_free(f->in);
  delete f;
}

}  // namespace bench
