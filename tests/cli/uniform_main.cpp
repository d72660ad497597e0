// One application written against the interface every generated header has
// (Plan, create, run, source_bytes, target_bytes, kWorkspaceBytes), compiled
// unchanged against headers of every kind the cost model may choose.
// Round trip (-DBACK=namespace): FORTH moves each rank's source to its
// target and BACK moves it back; every element of every rank must return.
// Every element is distinct (its rank and index), so a lost, duplicated or
// misplaced one shows.  The way there runs twice: run(), then start() with
// test() polled until done, and both must agree.  Sums (-DSUM_OF=N): every rank contributes ones, and
// every element of every target must be N, the pending group's size.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace forth = FORTH;

static int failed(const char* what, const redist::Status& st) {
  std::fprintf(stderr, "%s: %s\n", what, st.message().c_str());
  return 1;
}

static int run_all(int rank) {
  static_assert(sizeof(forth::value_type) == sizeof(std::uint32_t), "the test's elements are 4 bytes");
  forth::Plan there;
  if (redist::Status st = forth::create(MPI_COMM_WORLD, &there); !st.ok()) return failed("create", st);
  std::vector<std::uint32_t> src(forth::source_bytes(there) / 4), mid(forth::target_bytes(there) / 4);
  std::vector<unsigned char> workspace(forth::kWorkspaceBytes + 1);
#ifdef SUM_OF
  std::fill(src.begin(), src.end(), 1u);
#else
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint32_t>(rank) << 24 | static_cast<std::uint32_t>(i);
#endif
  if (redist::Status st = forth::run(there, src.data(), src.size() * 4, mid.data(), mid.size() * 4, workspace.data(),
                                     forth::kWorkspaceBytes);
      !st.ok())
    return failed("run", st);
  std::vector<std::uint32_t> split(mid.size());
  if (redist::Status st = forth::start(there, src.data(), src.size() * 4, split.data(), split.size() * 4,
                                       workspace.data(), forth::kWorkspaceBytes);
      !st.ok())
    return failed("start", st);
  for (bool done = false; !done;)
    if (redist::Status st = forth::test(there, &done); !st.ok()) return failed("test", st);
  if (redist::Status st = forth::wait(there); !st.ok()) return failed("wait", st);
  if (split != mid) return std::fprintf(stderr, "rank %d: start/test/wait differ from run\n", rank), 1;
#ifdef SUM_OF
  for (std::uint32_t v : mid)
    if (v != SUM_OF) return std::fprintf(stderr, "rank %d: an element is %u, not %d\n", rank, v, SUM_OF), 1;
  return 0;
#else
  namespace back = BACK;
  back::Plan home;
  if (redist::Status st = back::create(MPI_COMM_WORLD, &home); !st.ok()) return failed("create (back)", st);
  if (back::source_bytes(home) != mid.size() * 4 || back::target_bytes(home) != src.size() * 4)
    return std::fprintf(stderr, "rank %d: the way back has other sizes\n", rank), 1;
  std::vector<std::uint32_t> again(src.size());
  std::vector<unsigned char> back_workspace(back::kWorkspaceBytes + 1);
  if (redist::Status st = back::run(home, mid.data(), mid.size() * 4, again.data(), again.size() * 4,
                                    back_workspace.data(), back::kWorkspaceBytes);
      !st.ok())
    return failed("run (back)", st);
  return again == src ? 0 : (std::fprintf(stderr, "rank %d: the round trip changed the source\n", rank), 1);
#endif
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = run_all(rank), any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
