// The pending-sum end-to-end driver: runs, on an MPI world of N ranks, every
// generated problem of N world ranks (tables.hpp, from gen_sums.ml), by the
// collectives or by the reducing exchange, through runtime/testing/verify.hpp's
// verify_sums, as `redist run` does: each rank's source is its
// contribution, and after run() every element of every rank's target box
// must be, for integer sums, the global array summed over its target group,
// exactly; for every other operation and element type, bitwise the
// reduction in the plan's order that this suite's own reference
// (reference_ops.hpp, not the runtime's) forms on the host; guard bytes
// intact, no allocation in run(), the measured peak within the proven one.
// Rank 0 prints one line per problem.
#define REDIST_VERIFY_MAIN
#include <cstdio>
#include <string>

#include "reference_ops.hpp"
#include "sums.hpp"
#include "tables.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int pass = 0, fail = 0;
  for (const sums_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const sums_entry& e = t.entries[i];
      if (e.problem.world != size) continue;
      redist_verify::SumsProblem problem = e.problem;
      problem.reduce = reference_ops::reduce;
      problem.identity = reference_ops::identity;
      problem.divide = reference_ops::divide;
      const std::string why = redist_verify::failure(redist_verify::verify_sums(problem, MPI_COMM_WORLD, 0),
                                                     redist_verify::proven_peak_bytes(problem));
      if (why.empty()) ++pass; else ++fail;
      if (me == 0) {
        if (why.empty()) std::printf("ok    %s: %s\n", e.problem.name, e.description);
        else std::printf("FAIL  %s: %s: %s\n", e.problem.name, e.description, why.c_str());
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
