// The in-place end-to-end driver: on an MPI world of N ranks, runs every
// generated problem whose world has N ranks (tables.hpp) and checks it with
// runtime/testing/verify.hpp as `redist run --in-place` does: the runtime's
// buffer of every rank is the model's max(|src box|, |tgt box|), every
// element of every rank's target box is in its buffer after the run (ranks
// outside the source mesh start with no data, outside the target end with
// nothing to check), guards after the buffer and around the staging
// intact, no operator new and no malloc from our own code during run(),
// the measured live bytes (buffer + staging used) within the proven buffer
// + staging.  Rank 0 prints TAP: the plan (this world's problems), then one
// result per problem with the measured live bytes and heap growth.
#include <cstdio>
#include <string>

#define REDIST_VERIFY_MAIN
#include "in_place_e2e.hpp"
#include "tables.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int planned = 0;
  for (const in_place_table& t : kTables)
    for (int i = 0; i < t.count; ++i) planned += t.entries[i].in_place.model.world == size ? 1 : 0;
  if (me == 0) std::printf("TAP version 13\n1..%d\n", planned);
  int number = 0, failed = 0;
  for (const in_place_table& t : kTables) {
    for (int i = 0; i < t.count; ++i) {
      const in_place_entry& e = t.entries[i];
      if (e.in_place.model.world != size) continue;
      const redist_verify::Outcome o = redist_verify::verify_in_place(e.in_place, MPI_COMM_WORLD, 0);
      const std::string why = redist_verify::failure(o, redist_verify::proven_peak_bytes(e.in_place));
      // Outcomes are agreed over the ranks: every rank has the same verdict.
      ++number;
      if (!why.empty()) ++failed;
      if (me == 0) {
        if (why.empty())
          std::printf("ok %d - np %d %s: live %zu of %zu B, heap growth %zu B\n", number, size, e.description,
                      o.peak_bytes, e.in_place.live_bytes, o.heap_growth);
        else
          std::printf("not ok %d - np %d %s: %s\n", number, size, e.description, why.c_str());
        std::fflush(stdout);
      }
    }
  }
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
