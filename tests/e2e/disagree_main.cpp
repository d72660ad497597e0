// Ranks that run different problems in one job (tests/e2e/disagree.sh):
// every rank but one creates and runs the header of problem A, that one the
// header of problem B.  Every rank must fail, with the same one-line error
// naming the odd rank, and none may wait (the script's timeout fails the
// case).  Afterwards every rank runs problem A of each case, which must
// move every element: the refused attempts left no stale messages behind.
// The cases come from cases.inc, written by the script:
//   CASE(name, odd_rank, ATTEMPT_A, ATTEMPT_B)
// with MESH(ns) for a header with create_mesh, EXCHANGE(ns) for one with
// create_exchange and HYBRID_CREATE(ns) for a hybrid's.  Rank 0 prints one line per case.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "headers.inc"

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// The value every element holds: its global index, digits of 64.
template <class T>
void fill(const redist::Box& box, std::vector<T>* v) {
  v->assign(redist::box_elements(box), T());
  for (std::size_t e = 0; e < v->size(); ++e) {
    std::size_t rest = e, value = 0;
    for (int d = box.ndim; d-- > 0;) {
      const std::size_t extent = box.hi[d] - box.lo[d];
      value = value * 64 + box.lo[d] + rest % extent;
      rest /= extent;
    }
    (*v)[e] = static_cast<T>(value);
  }
}

// (What happened, and whether the data is right where it was checked.)
struct Outcome {
  redist::Status status;
  bool data_ok = true;
};

// A header's box of `rank` as a Box.
template <class BoxFn>
redist::Box box_of(BoxFn fn, int ndim, int rank) {
  std::size_t offset[redist::kMaxRank] = {}, extent[redist::kMaxRank] = {};
  redist::Box b;
  b.ndim = ndim;
  if (!fn(rank, offset, extent)) return b;
  for (int d = 0; d < ndim; ++d) {
    b.lo[d] = offset[d];
    b.hi[d] = offset[d] + extent[d];
  }
  return b;
}

template <class T>
bool arrived(const redist::Box& target, const std::vector<T>& got) {
  std::vector<T> want;
  fill(target, &want);
  return want.size() == got.size() && (got.empty() || std::memcmp(want.data(), got.data(), got.size() * sizeof(T)) == 0);
}

}  // namespace

#define MESH(ns)                                                                                     \
  [] {                                                                                               \
    namespace h = redist_gen::ns;                                                                    \
    Outcome out;                                                                                     \
    redist::Mesh mesh;                                                                               \
    if (out.status = h::create_mesh(MPI_COMM_WORLD, &mesh); !out.status.ok()) return out;            \
    std::vector<h::value_type> src, dst(h::kTgtElems);                                               \
    fill(box_of(h::src_box, h::kRank, world_rank()), &src);                                          \
    std::vector<unsigned char> ws(h::kWorkspaceBytes);                                               \
    out.status = h::run(mesh, src.data(), src.size() * sizeof(h::value_type), dst.data(),            \
                        dst.size() * sizeof(h::value_type), ws.data(), ws.size());                   \
    out.data_ok = arrived(box_of(h::tgt_box, h::kRank, world_rank()), dst);                          \
    return out;                                                                                      \
  }

#define EXCHANGE(ns)                                                                                 \
  [] {                                                                                               \
    namespace h = redist_gen::ns;                                                                    \
    Outcome out;                                                                                     \
    redist::Exchange ex;                                                                             \
    if (out.status = h::create_exchange(MPI_COMM_WORLD, &ex); !out.status.ok()) return out;          \
    std::vector<h::value_type> src, dst(redist::box_elements(ex.target_box()));                      \
    fill(ex.source_box(), &src);                                                                     \
    out.status = h::run(ex, src.empty() ? nullptr : src.data(), src.size() * sizeof(h::value_type),  \
                        dst.empty() ? nullptr : dst.data(), dst.size() * sizeof(h::value_type));     \
    out.data_ok = arrived(ex.target_box(), dst);                                                     \
    return out;                                                                                      \
  }

// A hybrid header is only ever the odd rank's problem: it must be refused at
// create(), and running it would need its parts' buffers.
#define HYBRID_CREATE(ns)                                                                          \
  [] {                                                                                             \
    namespace h = redist_gen::ns;                                                                  \
    Outcome out;                                                                                   \
    h::Plan plan;                                                                                  \
    out.status = h::create(MPI_COMM_WORLD, &plan);                                                 \
    if (out.status.ok()) out.status = redist::Status(redist::Errc::invalid_argument, "created");  \
    return out;                                                                                    \
  }

struct Case {
  const char* name;
  int odd;
  Outcome (*a)();
  Outcome (*b)();
};

#define CASE(name, odd, a, b) Case{name, odd, a, b},
const Case kCases[] = {
#include "cases.inc"
};

namespace {

// Every rank's message, on rank 0 (cut to a fixed length).
constexpr int kMessage = 400;
std::vector<std::string> gather_messages(const std::string& mine) {
  char buf[kMessage] = {};
  std::snprintf(buf, sizeof buf, "%s", mine.c_str());
  std::vector<char> all(static_cast<std::size_t>(kMessage) * world_size());
  MPI_Gather(buf, kMessage, MPI_CHAR, all.data(), kMessage, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < world_size(); ++r) out.emplace_back(all.data() + static_cast<std::size_t>(r) * kMessage);
  return out;
}

// The words that name the odd rank in the agreed message.
std::string names_odd(int odd, int size) {
  if (odd != 0) return ": rank " + std::to_string(odd) + " differs from rank 0";
  std::string ranks;
  for (int r = 1; r < size; ++r) ranks += (r > 1 ? ", " : "") + std::to_string(r);
  return ": ranks " + ranks + " differ from rank 0";
}

bool refused_everywhere(const Case& c) {
  const Outcome o = world_rank() == c.odd ? c.b() : c.a();
  const std::string mine = o.status.ok() ? "ok" : std::string(redist::errc_name(o.status.code())) + ": " + o.status.message();
  const std::vector<std::string> all = gather_messages(mine);
  int good = 1;
  if (world_rank() == 0) {
    const std::string odd_named = names_odd(c.odd, world_size());
    // What differs is agreed; the entry in front of it is each rank's own
    // (Mesh::create on one, Exchange::create on another).
    auto agreed_part = [](const std::string& m) { return m.substr(m.find(": ", m.find(": ") + 2)); };
    for (int r = 0; r < world_size(); ++r)
      if (all[r].rfind("invalid_argument: ", 0) != 0 || agreed_part(all[r]) != agreed_part(all[0]) ||
          all[r].find(odd_named) == std::string::npos)
        good = 0;
    std::printf("%s refused on every rank alike: %s\n", good ? "ok   " : "FAIL ", c.name);
    if (!good)
      for (int r = 0; r < world_size(); ++r) std::printf("        rank %d: %s\n", r, all[r].c_str());
    else
      std::printf("        %s\n", all[0].c_str());
    std::fflush(stdout);
  }
  MPI_Bcast(&good, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return good == 1;
}

bool runs_everywhere(const Case& c) {
  const Outcome o = c.a();
  int good = o.status.ok() && o.data_ok ? 1 : 0;
  if (!good)
    std::fprintf(stderr, "rank %d: %s: %s%s\n", world_rank(), c.name, o.status.message().c_str(),
                 o.data_ok ? "" : " (wrong data)");
  MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (world_rank() == 0) std::printf("%s afterwards every element arrives: %s (problem A)\n", good ? "ok   " : "FAIL ", c.name);
  std::fflush(stdout);
  return good == 1;
}

// One mesh serving two headers' plans (as tests/e2e/two_redistributions.cpp
// does): the first case's two headers (the mesh order on rank 1: same mesh
// sizes, same array sizes, one all_permute each, so no groups to prepare),
// the mesh made by c0a's create_mesh; rank 1 runs c0b's run(), the others
// c0a's.  Every rank
// must refuse, naming rank 1, before any data moves.
bool shared_mesh_refused() {
  namespace a = redist_gen::c0a;
  namespace b = redist_gen::c0b;
  static_assert(a::kSrcBytes == b::kSrcBytes && a::kTgtBytes == b::kTgtBytes, "plans of one size");
  static_assert(a::kGroupCount == 0 && b::kGroupCount == 0, "plans without groups");
  redist::Mesh mesh;
  redist::Status st = a::create_mesh(MPI_COMM_WORLD, &mesh);
  std::vector<unsigned char> src(a::kSrcBytes), dst(a::kTgtBytes),
      ws(a::kWorkspaceBytes > b::kWorkspaceBytes ? a::kWorkspaceBytes : b::kWorkspaceBytes);
  if (st.ok())
    st = world_rank() == 1 ? b::run(mesh, src.data(), src.size(), dst.data(), dst.size(), ws.data(), ws.size())
                           : a::run(mesh, src.data(), src.size(), dst.data(), dst.size(), ws.data(), ws.size());
  int good = !st.ok() && st.code() == redist::Errc::invalid_argument &&
             st.message().find(names_odd(1, world_size())) != std::string::npos;
  if (!good) std::fprintf(stderr, "rank %d: shared mesh: %s\n", world_rank(), st.ok() ? "ok" : st.message().c_str());
  MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (world_rank() == 0)
    std::printf("%s refused on every rank alike: two headers' run() on one mesh, rank 1 running the other\n",
                good ? "ok   " : "FAIL ");
  std::fflush(stdout);
  return good == 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  for (const Case& c : kCases) failed += !refused_everywhere(c);
  failed += !shared_mesh_refused();
  for (const Case& c : kCases) failed += !runs_everywhere(c);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
