// The driver that `redist run` compiles next to the generated header
// problem.hpp (namespace redist_gen::problem) and verify.hpp; for a direct
// exchange (-DREDIST_RUN_EXCHANGE) also model.hpp, the Coq model's boxes
// and lower bounds per world rank; for pending sums (-DREDIST_RUN_SUMS)
// model.hpp, the header as a SumsProblem with its proven peak.
// argv[1]: timed repeats.
// Rank 0 prints one line: "redist-run: error MESSAGE" or
// "redist-run: KEY=VALUE ...", which redist parses.
#define REDIST_VERIFY_MAIN
#include "problem.hpp"
#include "verify.hpp"

#ifdef REDIST_RUN_EXCHANGE
#include "model.hpp"

namespace {

redist::Status run_exchange(redist::Exchange& ex, const void* src, std::size_t src_bytes, void* dst,
                            std::size_t dst_bytes) {
  using T = redist_gen::problem::value_type;
  return redist_gen::problem::run(ex, static_cast<const T*>(src), src_bytes, static_cast<T*>(dst), dst_bytes);
}

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_exchange(REDIST_VERIFY_EXCHANGE(redist_gen::problem, redist_model, run_exchange), comm,
                                        repeats);
}

}  // namespace
#elif defined(REDIST_RUN_SUMS)
#include "model.hpp"

namespace {

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_sums(redist_model::sums_problem(), comm, repeats);
}

}  // namespace
#else
namespace {

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify(REDIST_VERIFY_PROBLEM(redist_gen::problem), comm, repeats);
}

}  // namespace
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const redist_verify::Outcome o = verify(MPI_COMM_WORLD, repeats);
  if (me == 0) {
    if (!o.error.empty())
      std::printf("redist-run: error %s\n", o.error.c_str());
    else
      std::printf(
          "redist-run: checked=%ld mismatches=%ld box_disagreements=%ld off_bound=%ld recv_max=%zu guards=%d news=%ld "
          "own_mallocs=%ld mallocs=%ld median_s=%.9f peak_bytes=%zu used_ping=%zu used_pong=%zu used_scratch=%zu\n",
          o.checked, o.mismatches, o.box_disagreements, o.off_bound, o.recv_max, o.guards_intact ? 1 : 0, o.news,
          o.own_mallocs, o.mallocs, o.median_s, o.peak_bytes, o.used_ping, o.used_pong, o.used_scratch);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
