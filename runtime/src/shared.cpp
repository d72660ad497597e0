#include "redist/shared.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "internal/backend_common.hpp"
#include "internal/shared_windows.hpp"

namespace redist {

namespace backend {

namespace {

// The runtime's limit on one array (redist.hpp's too_large).
constexpr std::size_t kMaxBytes = std::size_t{1} << 40;
constexpr std::size_t kLine = 64;

struct Allocation {
  std::uint64_t leader, id;
  MPI_Win window;
  MPI_Group group;  // the window's ranks
  int owner;        // this process's rank in it
  unsigned char* base;  // this process's segment, `bytes` long
  std::size_t bytes;
  void* buffer;  // what shared_alloc returned: the segment's first whole cache line
};

// This process's live allocations, the buffers it has freed (so that a second
// free says so; forgotten when an allocation returns it again), and
// the last allocation id it took part in.
struct Registry {
  std::mutex lock;
  std::vector<Allocation> live;
  std::vector<const void*> freed;
  std::uint64_t last_id = 0;
};

Registry& registry() {
  static Registry r;
  return r;
}

const Allocation* find_window(const std::vector<Allocation>& live, std::uint64_t leader, std::uint64_t id) {
  for (const Allocation& a : live)
    if (a.leader == leader && a.id == id) return &a;
  return nullptr;
}

std::string address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

}  // namespace

SharedSpan find_shared(const void* p, std::size_t bytes) {
  if (bytes == 0) return {};
  const auto* q = static_cast<const unsigned char*>(p);
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  for (const Allocation& a : r.live)
    if (q >= a.base && q < a.base + a.bytes && bytes <= static_cast<std::size_t>(a.base + a.bytes - q))
      return {a.leader, a.id, static_cast<std::uint64_t>(a.owner), static_cast<std::uint64_t>(q - a.base)};
  return {};
}

bool shares_window(const SharedSpan& span, MPI_Group group, int rank) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  const Allocation* a = find_window(r.live, span.leader, span.id);
  if (a == nullptr) return false;
  int in_window = MPI_UNDEFINED;
  MPI_Group_translate_ranks(group, 1, &rank, a->group, &in_window);
  return in_window != MPI_UNDEFINED;
}

const unsigned char* shared_address(const SharedSpan& span) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  const Allocation* a = find_window(r.live, span.leader, span.id);
  if (a == nullptr) return nullptr;
  MPI_Aint size = 0;
  int unit = 0;
  void* base = nullptr;
  if (MPI_Win_shared_query(a->window, static_cast<int>(span.owner), &size, &unit, &base) != MPI_SUCCESS)
    return nullptr;
  MPI_Win_sync(a->window);
  return static_cast<const unsigned char*>(base) + span.offset;
}

void publish(const SharedSpan& span) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  if (const Allocation* a = find_window(r.live, span.leader, span.id)) MPI_Win_sync(a->window);
}

Status allocate_shared(MPI_Comm comm, std::size_t bytes, void** out, const char* what) {
  if (out != nullptr) *out = nullptr;
  if (comm == MPI_COMM_NULL) return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  Status local;
  if (out == nullptr) local = {Errc::invalid_argument, "output pointer is null"};
  else if (bytes > kMaxBytes)
    local = {Errc::too_large, std::to_string(bytes) + " bytes exceed the runtime's 2^40 bytes an array"};
  if (Status st = agree(comm, prefixed(what, std::move(local)), what); !st.ok()) return st;

  Registry& r = registry();
  std::uint64_t next = 0, id = 0;
  {
    std::lock_guard<std::mutex> guard(r.lock);
    next = r.last_id + 1;
  }
  // The largest id any rank has used, plus one: new to every rank of comm.
  if (Status st = mpi_status(MPI_Allreduce(&next, &id, 1, MPI_UINT64_T, MPI_MAX, comm), what); !st.ok())
    return st;
  MPI_Comm host = MPI_COMM_NULL;
  if (Status st = mpi_status(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), what);
      !st.ok())
    return st;
  MPI_Comm_set_errhandler(host, MPI_ERRORS_RETURN);
  int world_rank = 0, owner = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_rank(host, &owner);
  std::uint64_t leader = static_cast<std::uint64_t>(world_rank);
  MPI_Bcast(&leader, 1, MPI_UINT64_T, 0, host);
  // Each rank's buffer in memory of its own (pages placed near it), not one
  // contiguous run of all of them.
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  // Whole cache lines: every buffer aligned for any element, and no line
  // written by two ranks.  Open MPI's segments start 8 bytes past a line,
  // so one line more is allocated and the buffer starts at the next line.
  const std::size_t lines = std::max<std::size_t>((bytes + kLine - 1) / kLine, 1);
  Allocation a{leader, id, MPI_WIN_NULL, MPI_GROUP_NULL, owner, nullptr, (lines + 1) * kLine, nullptr};
  Status made = mpi_status(MPI_Win_allocate_shared(static_cast<MPI_Aint>(a.bytes), 1, info, host, &a.base, &a.window),
                           what);
  MPI_Info_free(&info);
  MPI_Comm_free(&host);
  if (made.ok()) {
    const auto at = reinterpret_cast<std::uintptr_t>(a.base);
    a.buffer = a.base + ((kLine - at % kLine) % kLine);
    made = mpi_status(MPI_Win_lock_all(MPI_MODE_NOCHECK, a.window), what);
  }
  if (made.ok()) made = mpi_status(MPI_Win_get_group(a.window, &a.group), what);
  // A window that failed on some rank is left allocated where it succeeded:
  // freeing it is collective over ranks of which one may have none.
  if (Status st = agree(comm, std::move(made), what); !st.ok()) return st;
  std::lock_guard<std::mutex> guard(r.lock);
  r.last_id = id;
  r.live.push_back(a);
  r.freed.erase(std::remove(r.freed.begin(), r.freed.end(), a.buffer), r.freed.end());
  *out = a.buffer;
  return {};
}

Status free_shared(MPI_Comm comm, void* ptr, const char* what, const char* allocator) {
  if (comm == MPI_COMM_NULL) return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  Registry& r = registry();
  Status local;
  Allocation a{};
  {
    std::lock_guard<std::mutex> guard(r.lock);
    const auto it = std::find_if(r.live.begin(), r.live.end(), [&](const Allocation& x) { return x.buffer == ptr; });
    if (it != r.live.end()) a = *it;
    else if (std::find(r.freed.begin(), r.freed.end(), ptr) != r.freed.end())
      local = {Errc::invalid_argument, "pointer " + address(ptr) + " was freed already"};
    else
      local = {Errc::invalid_argument, "pointer " + address(ptr) + " was not allocated by " + allocator};
  }
  const Agreed agreed[] = {{a.id, "ranks freed buffers of different allocations"}};
  if (Status st = agree(comm, prefixed(what, std::move(local)), what, agreed, 1); !st.ok()) return st;
  {
    std::lock_guard<std::mutex> guard(r.lock);
    r.live.erase(std::remove_if(r.live.begin(), r.live.end(), [&](const Allocation& x) { return x.buffer == ptr; }),
                 r.live.end());
    r.freed.push_back(ptr);
  }
  MPI_Group_free(&a.group);
  MPI_Win_unlock_all(a.window);
  return mpi_status(MPI_Win_free(&a.window), what);
}

}  // namespace backend

Status shared_alloc(MPI_Comm comm, std::size_t bytes, void** out) {
  return backend::allocate_shared(comm, bytes, out, "shared_alloc");
}

Status shared_free(MPI_Comm comm, void* ptr) { return backend::free_shared(comm, ptr, "shared_free", "shared_alloc"); }

}  // namespace redist
