// The driver that `redist run` compiles next to the generated header
// problem.hpp (namespace redist_gen::problem) and verify.hpp.  argv[1]: timed repeats.
// Rank 0 prints one line: "redist-run: error MESSAGE" or
// "redist-run: KEY=VALUE ...", which redist parses.
#define REDIST_VERIFY_MAIN
#include "problem.hpp"
#include "verify.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const redist_verify::Outcome o = redist_verify::verify(REDIST_VERIFY_PROBLEM(redist_gen::problem), MPI_COMM_WORLD, repeats);
  if (me == 0) {
    if (!o.error.empty())
      std::printf("redist-run: error %s\n", o.error.c_str());
    else
      std::printf(
          "redist-run: mismatches=%ld guards=%d news=%ld own_mallocs=%ld mallocs=%ld median_s=%.9f "
          "peak_bytes=%zu used_ping=%zu used_pong=%zu used_scratch=%zu\n",
          o.mismatches, o.guards_intact ? 1 : 0, o.news, o.own_mallocs, o.mallocs, o.median_s, o.peak_bytes, o.used_ping,
          o.used_pong, o.used_scratch);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
