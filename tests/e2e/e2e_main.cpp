// The end-to-end driver: runs, on an MPI world of N ranks, every generated
// problem whose mesh has N devices (tables.hpp, from gen_e2e.ml), checking
// each with codegen/verify.hpp: every element of every rank's target box,
// the guard bytes around the exact workspace and the destination, no
// operator new and no malloc from the program's own code during run(), and the measured peak local array within
// max(|src|, |tgt|).  Rank 0 prints one line per problem and a count.
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
      const redist_verify::Outcome o = redist_verify::verify(p, MPI_COMM_WORLD, 0);
      char why[256] = "";
      if (!o.error.empty())
        std::snprintf(why, sizeof why, "%s", o.error.c_str());
      else if (o.mismatches != 0)
        std::snprintf(why, sizeof why, "%ld wrong target elements", o.mismatches);
      else if (!o.guards_intact)
        std::snprintf(why, sizeof why, "guard bytes around the workspace or destination changed");
      else if (o.news != 0 || o.own_mallocs != 0)
        std::snprintf(why, sizeof why, "run() allocated: %ld operator new, %ld malloc calls", o.news, o.own_mallocs);
      else if (o.peak_bytes > std::max(p.src_elems, p.tgt_elems) * p.elem_bytes)
        std::snprintf(why, sizeof why, "measured peak %zu B above max(|src|, |tgt|)", o.peak_bytes);
      if (why[0] == '\0') ++pass; else ++fail;
      if (me == 0) {
        if (why[0] == '\0') std::printf("ok    %s: %s\n", p.name, e.description);
        else std::printf("FAIL  %s: %s: %s\n", p.name, e.description, why);
        std::fflush(stdout);
      }
    }
  }
  if (me == 0) std::printf("np %d: %d passed, %d failed\n", size, pass, fail);
  MPI_Finalize();
  return fail == 0 ? 0 : 1;
}
