#include "redist/shared.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "internal/backend_common.hpp"
#include "internal/mpi_regions.hpp"
#include "internal/shared_windows.hpp"
#include "redist/exchange.hpp"

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

SingleCopy::SingleCopy() = default;

SingleCopy::SingleCopy(SingleCopy&& other) noexcept { *this = std::move(other); }

SingleCopy& SingleCopy::operator=(SingleCopy&& other) noexcept {
  if (this != &other) {
    free_handles();
    host_ = std::exchange(other.host_, MPI_COMM_NULL);
    group_ = std::exchange(other.group_, MPI_GROUP_NULL);
    host_rank_ = other.host_rank_;
    receives_ = std::exchange(other.receives_, {});
    spans_ = std::exchange(other.spans_, {});
    read_from_ = std::exchange(other.read_from_, {});
  }
  return *this;
}

SingleCopy::~SingleCopy() { free_handles(); }

void SingleCopy::free_handles() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized) {
    if (host_ != MPI_COMM_NULL) MPI_Comm_free(&host_);
    if (group_ != MPI_GROUP_NULL) MPI_Group_free(&group_);
  }
  host_ = MPI_COMM_NULL;
  group_ = MPI_GROUP_NULL;
}

Status SingleCopy::bind(MPI_Comm comm, const std::vector<Receive>& receives, const char* what) {
  free_handles();
  receives_.clear();
  spans_.clear();
  read_from_.clear();
  if (Status st = backend::mpi_status(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host_),
                                      what);
      !st.ok())
    return st;
  int host_size = 0;
  MPI_Comm_size(host_, &host_size);
  if (host_size == 1) return backend::mpi_status(MPI_Comm_free(&host_), what);
  MPI_Comm_set_errhandler(host_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(host_, &host_rank_);
  MPI_Comm_group(comm, &group_);
  MPI_Group host_group = MPI_GROUP_NULL;
  MPI_Comm_group(host_, &host_group);
  for (const Receive& r : receives) {
    int host_rank = MPI_UNDEFINED;
    MPI_Group_translate_ranks(group_, 1, &r.rank, host_group, &host_rank);
    receives_.push_back({r.region, r.holder_box, host_rank == MPI_UNDEFINED ? -1 : host_rank});
  }
  MPI_Group_free(&host_group);
  spans_.resize(static_cast<std::size_t>(host_size));
  read_from_.resize(receives.size());
  return {};
}

Status SingleCopy::gather(const void* src, std::size_t src_bytes, const char* what) {
  std::fill(read_from_.begin(), read_from_.end(), nullptr);
  if (host_ == MPI_COMM_NULL) return {};
  const backend::SharedSpan mine = backend::find_shared(src, src_bytes);
  backend::publish(mine);
  if (Status st = backend::mpi_status(
          MPI_Allgather(&mine, sizeof mine, MPI_BYTE, spans_.data(), sizeof mine, MPI_BYTE, host_), what);
      !st.ok())
    return st;
  for (std::size_t i = 0; i < receives_.size(); ++i)
    if (const int r = receives_[i].host_rank; r >= 0 && spans_[static_cast<std::size_t>(r)].id != 0)
      read_from_[i] = backend::shared_address(spans_[static_cast<std::size_t>(r)]);
  return {};
}

bool SingleCopy::read_by(int rank) const {
  if (host_ == MPI_COMM_NULL) return false;
  const backend::SharedSpan& mine = spans_[static_cast<std::size_t>(host_rank_)];
  return mine.id != 0 && backend::shares_window(mine, group_, rank);
}

std::size_t SingleCopy::copy(std::size_t i, unsigned char* into, const Box& to, std::size_t elem_bytes) const {
  const HostReceive& r = receives_[i];
  backend::copy_region(read_from_[i], r.holder_box, into, to, r.region, elem_bytes);
  return box_elements(r.region);
}

Status SingleCopy::release(MPI_Request* request, const char* what) {
  *request = MPI_REQUEST_NULL;
  const bool host_reads = std::any_of(spans_.begin(), spans_.end(),
                                      [](const backend::SharedSpan& span) { return span.id != 0; });
  if (!host_reads) return {};
  return backend::mpi_status(MPI_Ibarrier(host_, request), what);
}

}  // namespace redist
