// The end-to-end driver: runs, on an MPI world of N ranks, every generated
// problem whose mesh has N devices (tables.hpp, from gen_e2e.ml), checking
// each with runtime/testing/verify.hpp: every element of every rank's target box,
// the guard bytes around the exact workspace and the destination, no
// operator new and no malloc from the program's own code during run(), and the measured peak local array within
// max(|src|, |tgt|).  Rank 0 prints one line per problem and a count.
#include <string>

#define REDIST_VERIFY_MAIN
#include "e2e.hpp"
#include "tables.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int pass = 0, fail = 0;
  for (const e2e_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const e2e_entry& e = t.entries[i];
      const redist_verify::Problem& p = e.problem;
      if (p.devices != size) continue;
      const std::string why = redist_verify::failure(redist_verify::verify(p, MPI_COMM_WORLD, 0), redist_verify::proven_peak_bytes(p));
      if (why.empty()) ++pass; else ++fail;
      if (me == 0) {
        if (why.empty()) std::printf("ok    %s: %s\n", p.name, e.description);
        else std::printf("FAIL  %s: %s: %s\n", p.name, e.description, why.c_str());
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
