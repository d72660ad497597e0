#include "redist/region_exchange.hpp"

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/mpi_regions.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;

namespace {

// One message per ordered pair of ranks on the exchange's own communicator.
constexpr int kRegionTag = 0x7ed3;

// The bound of BlockLayout's global arrays, so that byte offsets fit.
constexpr std::size_t kMaxArrayBytes = std::size_t{1} << 62;

std::string str(std::size_t v) { return std::to_string(v); }

std::string extents_text(const std::size_t* extent, int ndim) {
  std::string s = "[";
  for (int d = 0; d < ndim; ++d) s += (d ? "," : "") + str(extent[d]);
  return s + "]";
}

std::string boxes_text(int count) { return std::to_string(count) + (count == 1 ? " box" : " boxes"); }

std::size_t box_elements(const RegionBox& box, int ndim) {
  std::size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= box.extent[d];
  return n;
}

std::size_t shape_elements(const LocalShape& shape) {
  std::size_t n = 1;
  for (int d = 0; d < shape.ndim; ++d) n *= shape.extent[d];
  return n;
}

bool same_extents(const RegionBox& a, const RegionBox& b, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (a.extent[d] != b.extent[d]) return false;
  return true;
}

// Byte offset of `box`'s first element in the array of `shape`.
std::size_t corner_bytes(const RegionBox& box, const LocalShape& shape, std::size_t elem_bytes) {
  std::size_t offset = 0;
  for (int d = 0; d < shape.ndim; ++d) offset = offset * shape.extent[d] + box.offset[d];
  return offset * elem_bytes;
}

Status check_shape(const LocalShape& shape, std::size_t elem_bytes, const char* name) {
  std::size_t bytes = elem_bytes;
  for (int d = 0; d < shape.ndim; ++d) {
    if (shape.extent[d] != 0 && bytes > kMaxArrayBytes / shape.extent[d])
      return {Errc::too_large, std::string(name) + " local array of more than 2^62 bytes"};
    bytes *= shape.extent[d];
  }
  return {};
}

// `where` names the box ("box 3 sent to rank 2").
Status check_box(const RegionBox& box, const LocalShape& shape, const char* array, const std::string& where) {
  for (int d = 0; d < shape.ndim; ++d)
    if (box.extent[d] > shape.extent[d] || box.offset[d] > shape.extent[d] - box.extent[d])
      return {Errc::invalid_argument,
              where + ": dim " + std::to_string(d) + " offset " + str(box.offset[d]) + " extent " +
                  str(box.extent[d]) + " exceeds the " + array + " array's extent " + str(shape.extent[d])};
  return {};
}

// One direction's messages: peers in range, never this rank, each listed
// once, every box inside the array, and the boxes' extents (ndim words
// each, all messages together) within an MPI count.
Status check_messages(const std::vector<RegionMessage>& messages, const LocalShape& shape, const char* array,
                      const char* verb, int me, int world_size) {
  std::vector<char> listed(static_cast<std::size_t>(world_size), 0);
  std::size_t words = 0;
  for (const RegionMessage& m : messages) {
    if (m.peer < 0 || m.peer >= world_size)
      return {Errc::invalid_argument, std::string("peer ") + std::to_string(m.peer) + " of a message " + verb +
                                          " is not a rank of the world (0.." + std::to_string(world_size - 1) +
                                          ")"};
    if (m.peer == me)
      return {Errc::invalid_argument, std::string("rank ") + std::to_string(me) + " lists itself as a peer " +
                                          verb + " (its own elements are copies)"};
    if (listed[static_cast<std::size_t>(m.peer)]++)
      return {Errc::invalid_argument, std::string("rank ") + std::to_string(m.peer) + " is listed twice as a peer " +
                                          verb};
    for (std::size_t k = 0; k < m.boxes.size(); ++k)
      if (Status st = check_box(m.boxes[k], shape, array,
                                "box " + str(k) + " " + verb + " rank " + std::to_string(m.peer));
          !st.ok())
        return st;
    words += m.boxes.size() * static_cast<std::size_t>(shape.ndim);
    if (words > static_cast<std::size_t>(INT_MAX))
      return {Errc::too_large, std::string("more than ") + std::to_string(INT_MAX / shape.ndim) + " boxes " + verb};
  }
  return {};
}

// Everything create checks on one rank alone.
Status check_lists(int me, int world_size, const LocalShape& source, const LocalShape& target,
                   std::size_t elem_bytes, const RegionLists& lists) {
  if (elem_bytes < 1 || elem_bytes > static_cast<std::size_t>(INT_MAX))
    return {Errc::invalid_argument, "element size " + str(elem_bytes) + " is not in 1..INT_MAX"};
  if (source.ndim < 1 || source.ndim > kMaxRank)
    return {Errc::invalid_argument,
            "source ndim " + std::to_string(source.ndim) + " is not in 1.." + std::to_string(kMaxRank)};
  if (target.ndim != source.ndim)
    return {Errc::invalid_argument, "target ndim " + std::to_string(target.ndim) + " differs from source ndim " +
                                        std::to_string(source.ndim)};
  if (Status st = check_shape(source, elem_bytes, "source"); !st.ok()) return st;
  if (Status st = check_shape(target, elem_bytes, "target"); !st.ok()) return st;
  if (Status st = check_messages(lists.sends, source, "source", "sent to", me, world_size); !st.ok()) return st;
  if (Status st = check_messages(lists.recvs, target, "target", "received from", me, world_size); !st.ok())
    return st;
  const int ndim = source.ndim;
  for (std::size_t k = 0; k < lists.copies.size(); ++k) {
    const RegionCopy& c = lists.copies[k];
    const std::string where = "copy " + str(k);
    if (Status st = check_box(c.from, source, "source", where); !st.ok()) return st;
    if (Status st = check_box(c.to, target, "target", where); !st.ok()) return st;
    if (!same_extents(c.from, c.to, ndim))
      return {Errc::invalid_argument, where + ": source box extents " + extents_text(c.from.extent, ndim) +
                                          " differ from target box extents " + extents_text(c.to.extent, ndim)};
  }
  return {};
}

constexpr const char* kCreate = "RegionExchange::create";

// Rank `me`'s shapes and lists from every rank's tables (none beyond
// tables.world); an index out of the tables' range is reported, not read.
Status read_tables(const RegionTables& t, int me, LocalShape* source, LocalShape* target, RegionLists* lists) {
  if (t.ndim < 1 || t.ndim > kMaxRank)
    return {Errc::invalid_argument, "tables: ndim " + std::to_string(t.ndim) + " is not in 1.." + std::to_string(kMaxRank)};
  if (t.world < 0 || me >= t.world) return {};
  const auto r = static_cast<std::size_t>(me), nd = static_cast<std::size_t>(t.ndim);
  for (std::size_t d = 0; d < nd; ++d) {
    source->extent[d] = t.source_shapes[r * nd + d];
    target->extent[d] = t.target_shapes[r * nd + d];
  }
  auto box = [&](std::size_t b, RegionBox* out) -> Status {
    if (b >= t.box_count)
      return {Errc::invalid_argument, "tables: rank " + str(r) + " names box " + str(b) + " of " + str(t.box_count)};
    for (std::size_t d = 0; d < nd; ++d) {
      out->offset[d] = t.boxes[b * 2 * nd + d];
      out->extent[d] = t.boxes[b * 2 * nd + nd + d];
    }
    return {};
  };
  auto messages = [&](const std::size_t* begin, const RegionTableMessage* table, std::vector<RegionMessage>* out) {
    for (std::size_t k = begin[r]; k < begin[r + 1]; ++k) {
      const RegionTableMessage& m = table[k];
      RegionMessage message;
      message.peer = m.peer;
      message.boxes.resize(m.boxes);
      for (std::size_t i = 0; i < m.boxes; ++i)
        if (Status st = box(m.first_box + i, &message.boxes[i]); !st.ok()) return st;
      out->push_back(std::move(message));
    }
    return Status{};
  };
  if (Status st = messages(t.sends_begin, t.sends, &lists->sends); !st.ok()) return st;
  if (Status st = messages(t.recvs_begin, t.recvs, &lists->recvs); !st.ok()) return st;
  for (std::size_t k = t.copies_begin[r]; k < t.copies_begin[r + 1]; ++k) {
    RegionCopy c;
    if (Status st = box(t.copies[k].from_box, &c.from); !st.ok()) return st;
    if (Status st = box(t.copies[k].to_box, &c.to); !st.ok()) return st;
    lists->copies.push_back(c);
  }
  return {};
}

// The pairing rule, checked by every receiver per peer: first the number of
// boxes the peer sends it against the number it expects (collective over
// `comm`, every rank's lists valid; the verdict agreed), ...
Status check_box_counts(MPI_Comm comm, int me, int world_size, const RegionLists& lists) {
  constexpr const char* what = kCreate;
  const std::size_t n = static_cast<std::size_t>(world_size);
  std::vector<int> send_counts(n, 0), sent_counts(n, 0), expected(n, 0);
  for (const RegionMessage& m : lists.sends) send_counts[static_cast<std::size_t>(m.peer)] = static_cast<int>(m.boxes.size());
  for (const RegionMessage& m : lists.recvs) expected[static_cast<std::size_t>(m.peer)] = static_cast<int>(m.boxes.size());
  if (Status st = mpi_status(MPI_Alltoall(send_counts.data(), 1, MPI_INT, sent_counts.data(), 1, MPI_INT, comm), what);
      !st.ok())
    return st;
  Status counts;
  for (int p = 0; p < world_size && counts.ok(); ++p) {
    const int sent = sent_counts[static_cast<std::size_t>(p)], want = expected[static_cast<std::size_t>(p)];
    if (sent != want)
      counts = {Errc::invalid_argument, what + std::string(": rank ") + std::to_string(me) + " expects " +
                                            boxes_text(want) + " from rank " + std::to_string(p) +
                                            ", which sends it " + boxes_text(sent)};
  }
  return backend::agree(comm, std::move(counts), what);
}

// ... then, the counts agreed, the extents of each box in order (collective;
// the verdict is this rank's own).
Status check_box_extents(MPI_Comm comm, int me, int world_size, int ndim, const RegionLists& lists) {
  constexpr const char* what = kCreate;
  const std::size_t n = static_cast<std::size_t>(world_size);
  // The extents of every box, ndim words each, laid out in list order.
  auto lay_out = [&](const std::vector<RegionMessage>& messages, std::vector<int>* counts_out,
                     std::vector<int>* displs, std::vector<std::uint64_t>* words) {
    counts_out->assign(n, 0);
    displs->assign(n, 0);
    for (const RegionMessage& m : messages) {
      const std::size_t p = static_cast<std::size_t>(m.peer);
      (*displs)[p] = static_cast<int>(words->size());
      (*counts_out)[p] = static_cast<int>(m.boxes.size()) * ndim;
      for (const RegionBox& b : m.boxes) words->insert(words->end(), b.extent, b.extent + ndim);
    }
  };
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::vector<std::uint64_t> sent_extents, expected_extents;
  lay_out(lists.sends, &scounts, &sdispls, &sent_extents);
  lay_out(lists.recvs, &rcounts, &rdispls, &expected_extents);
  std::vector<std::uint64_t> received(expected_extents.size());
  if (Status st = mpi_status(MPI_Alltoallv(sent_extents.data(), scounts.data(), sdispls.data(), MPI_UINT64_T,
                                           received.data(), rcounts.data(), rdispls.data(), MPI_UINT64_T, comm),
                             what);
      !st.ok())
    return st;
  for (std::size_t w = 0; w < received.size(); w += static_cast<std::size_t>(ndim)) {
    if (std::memcmp(&received[w], &expected_extents[w], static_cast<std::size_t>(ndim) * sizeof(std::uint64_t)) == 0)
      continue;
    // Name the message and the box the word belongs to.
    for (const RegionMessage& m : lists.recvs) {
      const std::size_t first = static_cast<std::size_t>(rdispls[static_cast<std::size_t>(m.peer)]);
      if (w < first || w >= first + m.boxes.size() * static_cast<std::size_t>(ndim)) continue;
      std::size_t sent[kMaxRank];
      for (int d = 0; d < ndim; ++d) sent[d] = received[w + static_cast<std::size_t>(d)];
      const std::size_t k = (w - first) / static_cast<std::size_t>(ndim);
      return {Errc::invalid_argument, what + std::string(": box ") + str(k) + " that rank " + std::to_string(me) +
                                          " receives from rank " + std::to_string(m.peer) + " has extents " +
                                          extents_text(m.boxes[k].extent, ndim) + ", rank " +
                                          std::to_string(m.peer) + " sends " + extents_text(sent, ndim)};
    }
  }
  return {};
}

// A committed datatype for `boxes` (in order, row-major within each) of the
// array of `shape`: runs of consecutive boxes of equal extents, each one
// box's subarray repeated at the boxes' corners, joined as a struct.
Status region_type(const LocalShape& shape, const std::vector<RegionBox>& boxes, MPI_Datatype element,
                   std::size_t elem_bytes, MPI_Datatype* out, const char* what) {
  const int ndim = shape.ndim;
  Box array;
  array.ndim = ndim;
  for (int d = 0; d < ndim; ++d) array.hi[d] = shape.extent[d];
  std::vector<RegionBox> carrying;  // boxes with elements
  for (const RegionBox& b : boxes)
    if (box_elements(b, ndim) > 0) carrying.push_back(b);
  std::vector<MPI_Datatype> runs;
  Status st;
  for (std::size_t i = 0; st.ok() && i < carrying.size();) {
    std::size_t j = i;
    std::vector<MPI_Aint> corners;
    while (j < carrying.size() && same_extents(carrying[j], carrying[i], ndim))
      corners.push_back(static_cast<MPI_Aint>(corner_bytes(carrying[j++], shape, elem_bytes)));
    Box one;
    one.ndim = ndim;
    for (int d = 0; d < ndim; ++d) one.hi[d] = carrying[i].extent[d];
    MPI_Datatype box_type = MPI_DATATYPE_NULL;
    st = backend::subarray(array, one, element, &box_type, what);
    if (st.ok()) {
      runs.push_back(MPI_DATATYPE_NULL);
      st = mpi_status(MPI_Type_create_hindexed_block(static_cast<int>(corners.size()), 1, corners.data(), box_type,
                                                     &runs.back()),
                      what);
    }
    if (box_type != MPI_DATATYPE_NULL) MPI_Type_free(&box_type);
    i = j;
  }
  if (st.ok()) {
    const std::vector<int> lengths(runs.size(), 1);
    const std::vector<MPI_Aint> origins(runs.size(), 0);
    st = mpi_status(MPI_Type_create_struct(static_cast<int>(runs.size()), lengths.data(), origins.data(),
                                           runs.data(), out),
                    what);
  }
  for (MPI_Datatype& t : runs)
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
  if (!st.ok()) return st;
  return mpi_status(MPI_Type_commit(out), what);
}

std::size_t message_elements(const RegionMessage& m, int ndim) {
  std::size_t n = 0;
  for (const RegionBox& b : m.boxes) n += box_elements(b, ndim);
  return n;
}

// Copies box `from` of the source array into box `to` of the target array
// (equal extents) with one memcpy per contiguous run: the last dim, joined
// with the dims after it that both boxes span whole in their arrays.
void copy_box(const unsigned char* src, const LocalShape& src_shape, const RegionBox& from, unsigned char* dst,
              const LocalShape& dst_shape, const RegionBox& to, std::size_t elem_bytes) {
  const int ndim = src_shape.ndim;
  if (box_elements(from, ndim) == 0) return;
  auto whole = [&](int d) { return from.extent[d] == src_shape.extent[d] && to.extent[d] == dst_shape.extent[d]; };
  int run_dim = ndim - 1;  // the outermost dim of a run
  std::size_t run = elem_bytes;
  while (run_dim > 0 && whole(run_dim)) run *= from.extent[run_dim--];
  run *= from.extent[run_dim];
  std::size_t index[kMaxRank] = {};  // within the box, dims before run_dim
  auto offset = [&](const LocalShape& shape, const RegionBox& box) {
    std::size_t off = 0;
    for (int d = 0; d < ndim; ++d) off = off * shape.extent[d] + box.offset[d] + (d < run_dim ? index[d] : 0);
    return off * elem_bytes;
  };
  for (;;) {
    std::memcpy(dst + offset(dst_shape, to), src + offset(src_shape, from), run);
    int d = run_dim - 1;
    while (d >= 0 && index[d] + 1 == from.extent[d]) index[d--] = 0;
    if (d < 0) return;
    ++index[d];
  }
}

// Calls f with the row-major index in the array of `shape` of every
// element of `box`, in row-major order within the box.
template <class F>
void for_each_position(const RegionBox& box, const LocalShape& shape, F f) {
  const int ndim = shape.ndim;
  if (box_elements(box, ndim) == 0) return;
  std::size_t index[kMaxRank] = {};
  for (;;) {
    std::size_t off = 0;
    for (int d = 0; d < ndim; ++d) off = off * shape.extent[d] + box.offset[d] + index[d];
    f(off);
    int d = ndim - 1;
    while (d >= 0 && index[d] + 1 == box.extent[d]) index[d--] = 0;
    if (d < 0) return;
    ++index[d];
  }
}

Status check_reduction(const RegionReduction& r, std::size_t elem_bytes) {
  if (r.avg_divisor == 0 || (r.op != Op::avg && r.avg_divisor != 1))
    return {Errc::invalid_argument, "avg divisor " + str(r.avg_divisor) + " (avg: the source's pending group size; 1 for " +
                                        op_name(r.op) + ")"};
  if (!op_computes(r.dtype, r.op))
    return {Errc::invalid_argument, std::string(op_name(r.op)) + " does not compute on " + dtype_name(r.dtype)};
  if (elem_bytes != dtype_bytes(r.dtype))
    return {Errc::invalid_argument, "element size " + str(elem_bytes) + " is not the size of " + dtype_name(r.dtype)};
  return {};
}

// A reducing rank's lists as the plain exchange checks and posts them: its
// entries to and from itself (its own contribution) become copies, box by
// box; *own_entry is the index of its entry from itself among lists.recvs
// (none: recvs.size()).
Status own_contribution(int me, const RegionLists& lists, RegionLists* out, std::size_t* own_entry) {
  if (!lists.copies.empty())
    return {Errc::invalid_argument, "a reducing exchange's own contribution is its entry from itself, not copies"};
  const RegionMessage* own_send = nullptr;
  *own_entry = lists.recvs.size();
  for (const RegionMessage& m : lists.sends) {
    if (m.peer != me) {
      out->sends.push_back(m);
    } else if (own_send != nullptr) {
      return {Errc::invalid_argument, "rank " + std::to_string(me) + " lists itself twice as a peer sent to"};
    } else {
      own_send = &m;
    }
  }
  for (std::size_t e = 0; e < lists.recvs.size(); ++e) {
    const RegionMessage& m = lists.recvs[e];
    if (m.peer != me) {
      out->recvs.push_back(m);
      continue;
    }
    if (*own_entry != lists.recvs.size())
      return {Errc::invalid_argument, "rank " + std::to_string(me) + " lists itself twice as a peer received from"};
    *own_entry = e;
  }
  const std::size_t sent = own_send ? own_send->boxes.size() : 0;
  const std::size_t kept = *own_entry < lists.recvs.size() ? lists.recvs[*own_entry].boxes.size() : 0;
  if (sent != kept)
    return {Errc::invalid_argument, "rank " + std::to_string(me) + " sends itself " + boxes_text(static_cast<int>(sent)) +
                                        " and receives " + boxes_text(static_cast<int>(kept)) + " from itself"};
  for (std::size_t k = 0; k < kept; ++k) out->copies.push_back({own_send->boxes[k], lists.recvs[*own_entry].boxes[k]});
  return {};
}

// The numbering of a reducing rank's contributions, from its receive
// entries alone (their boxes inside the target array): an entry's slot is
// how many earlier entries hold its elements, the same for all of them;
// *count is how many entries hold each position, the same for all.
Status number_contributions(const LocalShape& target, const std::vector<RegionMessage>& recvs,
                            std::vector<std::size_t>* slots, std::size_t* count) {
  std::vector<std::size_t> seen(shape_elements(target), 0);
  for (const RegionMessage& m : recvs) {
    constexpr std::size_t unset = ~std::size_t{0};
    std::size_t slot = unset, other = unset;
    for (const RegionBox& b : m.boxes)
      for_each_position(b, target, [&](std::size_t pos) {
        const std::size_t c = seen[pos]++;
        if (slot == unset) slot = c;
        else if (c != slot) other = c;
      });
    if (other != unset)
      return {Errc::invalid_argument, "the entry from rank " + std::to_string(m.peer) + " is contribution " + str(slot) +
                                          " at some target positions and " + str(other) +
                                          " at others; the lists must combine each entry at one place"};
    slots->push_back(slot == unset ? 0 : slot);
  }
  *count = seen.empty() ? 0 : seen[0];
  for (std::size_t pos = 0; pos < seen.size(); ++pos)
    if (seen[pos] != *count)
      return {Errc::invalid_argument, "target position " + str(pos) + " combines " + str(seen[pos]) +
                                          " contributions, position 0 " + str(*count) +
                                          "; every position must combine as many"};
  return {};
}

}  // namespace

RegionExchange::RegionExchange() = default;

RegionExchange::RegionExchange(RegionExchange&& other) noexcept { *this = std::move(other); }

RegionExchange& RegionExchange::operator=(RegionExchange&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    elem_bytes_ = std::exchange(other.elem_bytes_, 0);
    source_bytes_ = std::exchange(other.source_bytes_, 0);
    target_bytes_ = std::exchange(other.target_bytes_, 0);
    source_ = std::exchange(other.source_, LocalShape{});
    target_ = std::exchange(other.target_, LocalShape{});
    copies_ = std::exchange(other.copies_, {});
    kept_elements_ = std::exchange(other.kept_elements_, 0);
    reducing_ = std::exchange(other.reducing_, false);
    reduction_ = other.reduction_;
    contributions_ = std::exchange(other.contributions_, 0);
    receive_slots_ = std::exchange(other.receive_slots_, {});
    copy_slots_ = std::exchange(other.copy_slots_, {});
    staging_ = std::exchange(other.staging_, {});
    dst_ = std::exchange(other.dst_, nullptr);
    receives_ = std::exchange(other.receives_, {});
    sends_ = std::exchange(other.sends_, {});
    types_ = std::exchange(other.types_, {});
    requests_ = std::exchange(other.requests_, {});
    split_ = std::exchange(other.split_, {});
  }
  return *this;
}

RegionExchange::~RegionExchange() { release(); }

void RegionExchange::release() noexcept { release_message_handles(split_, requests_, types_, comm_); }

Status RegionExchange::create(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                              std::size_t elem_bytes, const RegionLists& lists, const ProblemDigest& problem,
                              RegionExchange* out) {
  return create_agreed(world, source, target, elem_bytes, nullptr, lists, problem, Status{}, out);
}

Status RegionExchange::create(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                              const RegionReduction& reduction, const RegionLists& lists, const ProblemDigest& problem,
                              RegionExchange* out) {
  return create_agreed(world, source, target, dtype_bytes(reduction.dtype), &reduction, lists, problem, Status{}, out);
}

Status RegionExchange::create(MPI_Comm world, const RegionTables& tables, std::size_t elem_bytes,
                              const ProblemDigest& problem, RegionExchange* out) {
  return create_from_tables(world, tables, elem_bytes, nullptr, problem, out);
}

Status RegionExchange::create(MPI_Comm world, const RegionTables& tables, const RegionReduction& reduction,
                              const ProblemDigest& problem, RegionExchange* out) {
  return create_from_tables(world, tables, dtype_bytes(reduction.dtype), &reduction, problem, out);
}

Status RegionExchange::create_from_tables(MPI_Comm world, const RegionTables& tables, std::size_t elem_bytes,
                                          const RegionReduction* reduction, const ProblemDigest& problem,
                                          RegionExchange* out) {
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(kCreate) + ": communicator is MPI_COMM_NULL"};
  int me = 0;
  MPI_Comm_rank(world, &me);
  LocalShape source, target;
  source.ndim = target.ndim = tables.ndim;
  RegionLists lists;
  Status found = read_tables(tables, me, &source, &target, &lists);
  return create_agreed(world, source, target, elem_bytes, reduction, lists, problem,
                       prefixed(kCreate, std::move(found)), out);
}

Status RegionExchange::create_agreed(MPI_Comm world, const LocalShape& source, const LocalShape& target,
                                     std::size_t elem_bytes, const RegionReduction* reduction,
                                     const RegionLists& given, const ProblemDigest& problem, Status local,
                                     RegionExchange* out) {
  constexpr const char* what = kCreate;
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": output is null"};
  if (world == MPI_COMM_NULL) return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  int world_size = 0, me = 0;
  MPI_Comm_size(world, &world_size);
  MPI_Comm_rank(world, &me);
  // A reducing rank's own contribution travels as copies (own_contribution).
  RegionLists reduced;
  std::size_t own_entry = given.recvs.size(), contributions = 0;
  std::vector<std::size_t> entry_slots;
  if (reduction != nullptr && local.ok()) local = prefixed(what, check_reduction(*reduction, elem_bytes));
  if (reduction != nullptr && local.ok()) local = prefixed(what, own_contribution(me, given, &reduced, &own_entry));
  const RegionLists& lists = reduction != nullptr ? reduced : given;
  if (local.ok()) local = prefixed(what, check_lists(me, world_size, source, target, elem_bytes, lists));
  if (reduction != nullptr && local.ok())
    local = prefixed(what, number_contributions(target, given.recvs, &entry_slots, &contributions));
  backend::Agreed agreed[backend::kProblemAgreed + 1];
  backend::agreed_problem(problem, agreed);
  agreed[backend::kProblemAgreed] = {
      backend::combine_key(elem_bytes, static_cast<std::uint64_t>(source.ndim)),
      "ranks passed different element sizes or numbers of dimensions"};
  if (Status st = backend::agree(world, std::move(local), what, agreed, backend::kProblemAgreed + 1); !st.ok())
    return st;

  RegionExchange ex;
  if (Status st = mpi_status(MPI_Comm_dup(world, &ex.comm_), what); !st.ok()) return st;
  MPI_Comm_set_errhandler(ex.comm_, MPI_ERRORS_RETURN);
  if (Status st = check_box_counts(ex.comm_, me, world_size, lists); !st.ok()) return st;

  const int ndim = source.ndim;
  ex.elem_bytes_ = elem_bytes;
  ex.source_ = source;
  ex.target_ = target;
  ex.source_bytes_ = shape_elements(source) * elem_bytes;
  ex.target_bytes_ = shape_elements(target) * elem_bytes;
  ex.copies_ = lists.copies;
  for (const RegionCopy& c : lists.copies) ex.kept_elements_ += box_elements(c.from, ndim);
  if (reduction != nullptr) {
    ex.reducing_ = true;
    ex.reduction_ = *reduction;
    ex.contributions_ = contributions;
    if (own_entry < given.recvs.size()) ex.copy_slots_.assign(lists.copies.size(), entry_slots[own_entry]);
    if (contributions > 1) ex.staging_.resize(contributions * ex.target_bytes_);
  }
  Status built = check_box_extents(ex.comm_, me, world_size, ndim, lists);
  MPI_Datatype element = MPI_DATATYPE_NULL;
  if (built.ok()) built = mpi_status(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &element), what);
  // Messages without elements are not posted, on either side (pairing
  // makes both sides' counts equal).  Receives index the target array,
  // sends the source array.
  // given.recvs less the own entry are lists.recvs, in order: entry e's
  // slot is entry_slots[e], skipping own_entry.
  auto add = [&](const std::vector<RegionMessage>& messages, const LocalShape& shape, std::vector<Peer>* peers) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const RegionMessage& m = messages[i];
      const std::size_t elements = message_elements(m, ndim);
      if (elements == 0) continue;
      if (ex.reducing_ && peers == &ex.receives_) ex.receive_slots_.push_back(entry_slots[i < own_entry ? i : i + 1]);
      peers->push_back({m.peer, elements});
      ex.types_.push_back(MPI_DATATYPE_NULL);
      if (built.ok()) built = region_type(shape, m.boxes, element, elem_bytes, &ex.types_.back(), what);
    }
  };
  add(lists.recvs, target, &ex.receives_);
  add(lists.sends, source, &ex.sends_);
  if (element != MPI_DATATYPE_NULL) MPI_Type_free(&element);
  // A pairing error or a datatype MPI refused on one rank must not leave the others with an
  // exchange that would wait for it.
  if (Status st = backend::agree(ex.comm_, std::move(built), what); !st.ok()) return st;
  ex.requests_.assign(ex.types_.size(), MPI_REQUEST_NULL);
  *out = std::move(ex);
  return {};
}

Status RegionExchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  constexpr const char* what = "RegionExchange::run";
  if (Status st = start_as(what, src, src_bytes, dst, dst_bytes); !st.ok()) return st;
  return complete(true, nullptr, what);
}

Status RegionExchange::start(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  return start_as("RegionExchange::start", src, src_bytes, dst, dst_bytes);
}

Status RegionExchange::test(bool* done) {
  if (done == nullptr) return {Errc::invalid_argument, "RegionExchange::test: done is null"};
  return complete(false, done, "RegionExchange::test");
}

Status RegionExchange::wait() { return complete(true, nullptr, "RegionExchange::wait"); }

Status RegionExchange::complete(bool block, bool* done, const char* what) {
  bool arrived = false;
  const Status st = split_.advance(requests_, block, &arrived, what);
  if (st.ok() && arrived && reducing_) {
    const std::size_t elements = target_bytes_ / elem_bytes_;
    const Op combine = step_op(reduction_.op);
    if (contributions_ == 0)
      local::fill_identity(reduction_.dtype, combine, dst_, elements);
    else if (contributions_ > 1)
      local::reduce_blocks(reduction_.dtype, combine, staging_.data(), elements, contributions_, dst_);
    if (reduction_.op == Op::avg) local::divide(reduction_.dtype, dst_, elements, reduction_.avg_divisor);
  }
  if (done != nullptr) *done = st.ok() && !split_.in_flight();
  return st;
}

unsigned char* RegionExchange::slot_base(std::size_t slot, void* dst) {
  if (contributions_ <= 1) return static_cast<unsigned char*>(dst);
  return staging_.data() + slot * target_bytes_;
}

Status RegionExchange::start_as(const char* what, const void* src, std::size_t src_bytes, void* dst,
                                std::size_t dst_bytes) {
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": exchange is empty (not created or moved from)"};
  Status local = split_.check_start();
  if (local.ok()) local = local::check_buffer(src, src_bytes, source_bytes_, "source");
  if (local.ok()) local = local::check_buffer(dst, dst_bytes, target_bytes_, "destination");
  if (local.ok()) local = local::check_disjoint(src, source_bytes_, "source", dst, target_bytes_, "destination");
  if (Status st = backend::agree(comm_, prefixed(what, std::move(local)), what); !st.ok()) return st;

  // Receives are posted first so that every send finds its receive posted.
  const std::size_t nrecv = receives_.size();
  for (std::size_t i = 0; i < nrecv; ++i)
    if (Status st = mpi_status(MPI_Irecv(reducing_ ? slot_base(receive_slots_[i], dst) : dst, 1, types_[i],
                                         receives_[i].rank, kRegionTag, comm_, &requests_[i]),
                               what);
        !st.ok())
      return st;
  for (std::size_t i = 0; i < sends_.size(); ++i)
    if (Status st = mpi_status(
            MPI_Isend(src, 1, types_[nrecv + i], sends_[i].rank, kRegionTag, comm_, &requests_[nrecv + i]), what);
        !st.ok())
      return st;
  for (std::size_t k = 0; k < copies_.size(); ++k)
    copy_box(static_cast<const unsigned char*>(src), source_, copies_[k].from,
             reducing_ ? slot_base(copy_slots_[k], dst) : static_cast<unsigned char*>(dst), target_, copies_[k].to,
             elem_bytes_);
  dst_ = dst;
  split_.started(src, source_bytes_);
  return {};
}

}  // namespace redist
