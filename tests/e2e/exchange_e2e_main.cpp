// The exchange end-to-end driver: on an MPI world of N ranks, runs every
// generated problem whose world has N ranks (tables.hpp) and checks it with
// runtime/testing/verify.hpp, as `redist run` does: the runtime's boxes are the Coq
// model's, every element of every rank's target box is right (ranks outside
// a mesh pass null buffers for that side), every rank received exactly its
// proven lower bound, no operator new and no malloc from our own code during
// run(), the measured peak within the proven one.  An even problem is also
// run by its collectives plan, checked the same way, so both strategies end
// with identical arrays.  Rank 0 prints one line per problem.
#include <cstdio>
#include <string>

#define REDIST_VERIFY_MAIN
#include "exchange_e2e.hpp"
#include "tables.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int pass = 0, fail = 0;
  for (const exchange_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const exchange_entry& e = t.entries[i];
      if (e.exchange.world != size) continue;
      std::string why = redist_verify::failure(redist_verify::verify_exchange(e.exchange, MPI_COMM_WORLD, 0),
                                               redist_verify::proven_peak_bytes(e.exchange));
      if (why.empty() && e.collectives) {
        const redist_verify::Problem& c = *e.collectives;
        why = redist_verify::failure(redist_verify::verify(c, MPI_COMM_WORLD, 0), redist_verify::proven_peak_bytes(c));
        if (!why.empty()) why = "collectives: " + why;
      }
      // Outcomes are agreed over the ranks: every rank has the same verdict.
      if (why.empty()) ++pass; else ++fail;
      if (me == 0) {
        if (why.empty()) std::printf("ok    %s\n", e.description);
        else std::printf("FAIL  %s: %s\n", e.description, why.c_str());
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
