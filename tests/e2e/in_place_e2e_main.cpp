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
// result per problem with the measured live bytes and heap growth.  Then
// the refusals, which must fail on every rank, none left waiting: rank 0
// passing a null table of moves (the first problem's tables otherwise), and
// where this world has two ranks or more and two problems, rank 0 creating
// the first's executor while the others create the second's.
#include <cstdio>
#include <cstring>
#include <string>

#define REDIST_VERIFY_MAIN
#include "in_place_e2e.hpp"
#include "tables.hpp"

namespace {

// Whether a create that rank 0 makes differently from the others fails on
// every rank (rank 0's message printed as a TAP comment).
bool refused_everywhere(redist::Status (*create)(redist::InPlace*), int me) {
  redist::InPlace ip;
  const redist::Status st = create(&ip);
  int refused = st.ok() ? 0 : 1, everywhere = 0;
  MPI_Allreduce(&refused, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (me == 0 && !st.ok()) std::printf("# rank 0: %s\n", st.message().c_str());
  return everywhere == 1;
}

const in_place_entry* first = nullptr;
const in_place_entry* second = nullptr;

redist::Status create_either(redist::InPlace* out) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  return (me == 0 ? first : second)->in_place.create(MPI_COMM_WORLD, out);
}

// The first problem's own tables, but rank 0's first round a null table.
redist::Status create_null_round(redist::InPlace* out) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const redist::InPlaceTables& own = *first->schedule;
  redist::InPlaceRound rounds[1] = {{nullptr, 1}};
  redist::InPlaceTables tables = own;
  if (me == 0) {
    tables.rounds = rounds;
    tables.round_count = 1;
  }
  return redist::InPlace::create(MPI_COMM_WORLD, tables, first->in_place.model.elem_bytes, first->problem, out);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int problems = 0;
  for (const in_place_table& t : kTables)
    for (int i = 0; i < t.count; ++i) {
      const in_place_entry& e = t.entries[i];
      if (e.in_place.model.world != size) continue;
      ++problems;
      if (first == nullptr) first = &e;
      else if (second == nullptr && std::strcmp(first->description, e.description) != 0) second = &e;
    }
  const bool two_headers = second != nullptr && size >= 2;
  const int planned = problems + (first != nullptr ? 1 : 0) + (two_headers ? 1 : 0);
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
  const struct {
    const char* what;
    redist::Status (*create)(redist::InPlace*);
    bool applies;
  } refusals[] = {{"rank 0 with a null table of moves", &create_null_round, first != nullptr},
                  {"rank 0 with another problem's header", &create_either, two_headers}};
  for (const auto& r : refusals) {
    if (r.applies) {
      const bool ok = refused_everywhere(r.create, me);
      ++number;
      if (!ok) ++failed;
      if (me == 0) std::printf("%s %d - np %d: %s refused on every rank\n", ok ? "ok" : "not ok", number, size, r.what);
    }
  }
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
