// Baseline for the pending-sum suite: what a user writes with plain MPI
// (bench/bench_common.hpp says which calls).
#include <vector>

#include "bench_common.hpp"

namespace bench {

enum class Mode { kAllreduce, kReduceScatter, kReduceScatterAlltoallv };

struct ReduceScatter {
  Mode mode;
  MPI_Comm group;
  int k;
  std::size_t src_elems;
  Box inter_box, tgt_box;
  std::vector<float> inter, sendbuf, recvbuf;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<Box> send_regions, recv_regions;  // by peer rank, empty boxes skipped
  Box local_region;
  bool has_local = false;
  std::size_t recv_elems = 0;
};

namespace {

// The row block of `rank`'s local array that MPI_Reduce_scatter_block leaves
// it: dimension 0 of its source box cut into k, block number member_index.
Box row_block(const Problem& p, int rank, int k) {
  Box b = src_box(p, rank);
  b.ext[0] /= static_cast<std::size_t>(k);
  b.off[0] += b.ext[0] * static_cast<std::size_t>(member_index(p, rank));
  return b;
}

}  // namespace

ReduceScatter* reduce_scatter_setup(const Problem& p, int rank, int size, const char** why_not) {
  const int k = group_size(p);
  bool same_layout = true, divides = true, direct = true;
  for (int r = 0; r < size; ++r) {
    const Box s = src_box(p, r), t = tgt_box(p, r);
    same_layout = same_layout && s.same_as(t);
    divides = divides && s.ext[0] % static_cast<std::size_t>(k) == 0;
    direct = direct && divides && row_block(p, r, k).same_as(t);
  }
  if (!same_layout && !divides) {
    *why_not = "n/a: dimension 0 of the local array does not divide by the pending group";
    return nullptr;
  }
  auto* rs = new ReduceScatter();
  rs->k = k;
  rs->src_elems = src_box(p, rank).elems();
  rs->tgt_box = tgt_box(p, rank);
  MPI_Comm_split(MPI_COMM_WORLD, pending_digits(p, rank, false), member_index(p, rank), &rs->group);
  const std::size_t k1 = static_cast<std::size_t>(k - 1);
  if (same_layout) {
    rs->mode = Mode::kAllreduce;
    rs->recv_elems = 2 * k1 * rs->src_elems / static_cast<std::size_t>(k);
    return rs;
  }
  rs->inter_box = row_block(p, rank, k);
  rs->recv_elems = k1 * rs->inter_box.elems();
  if (direct) {
    rs->mode = Mode::kReduceScatter;
    return rs;
  }
  rs->mode = Mode::kReduceScatterAlltoallv;
  rs->inter.resize(rs->inter_box.elems());
  rs->send_counts.assign(size, 0);
  rs->recv_counts.assign(size, 0);
  rs->send_displs.assign(size, 0);
  rs->recv_displs.assign(size, 0);
  std::size_t covered = 0, sent = 0, received = 0;
  for (int r = 0; r < size; ++r) {
    Box region;
    if (r == rank) {
      rs->has_local = intersect(rs->inter_box, rs->tgt_box, &rs->local_region);
      covered += rs->has_local ? rs->local_region.elems() : 0;
      continue;
    }
    rs->send_displs[r] = static_cast<int>(sent);
    if (intersect(rs->inter_box, tgt_box(p, r), &region)) {
      rs->send_regions.push_back(region);
      rs->send_counts[r] = static_cast<int>(region.elems());
      sent += region.elems();
    }
    rs->recv_displs[r] = static_cast<int>(received);
    if (intersect(row_block(p, r, k), rs->tgt_box, &region)) {
      rs->recv_regions.push_back(region);
      rs->recv_counts[r] = static_cast<int>(region.elems());
      received += region.elems();
    }
  }
  covered += received;
  rs->recv_elems += received;
  rs->sendbuf.resize(sent);
  rs->recvbuf.resize(received);
  int fits = covered == rs->tgt_box.elems() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!fits) {
    *why_not = "n/a: the row blocks overlap (replicas outside the pending group)";
    reduce_scatter_free(rs);
    return nullptr;
  }
  return rs;
}

void reduce_scatter_run(ReduceScatter* rs, const float* src, float* dst) {
  switch (rs->mode) {
    case Mode::kAllreduce:
      MPI_Allreduce(src, dst, static_cast<int>(rs->src_elems), MPI_FLOAT, MPI_SUM, rs->group);
      return;
    case Mode::kReduceScatter:
      MPI_Reduce_scatter_block(src, dst, static_cast<int>(rs->inter_box.elems()), MPI_FLOAT, MPI_SUM, rs->group);
      return;
    case Mode::kReduceScatterAlltoallv:
      break;
  }
  MPI_Reduce_scatter_block(src, rs->inter.data(), static_cast<int>(rs->inter_box.elems()), MPI_FLOAT, MPI_SUM,
                           rs->group);
  float* packed = rs->sendbuf.data();
  for (const Box& region : rs->send_regions) {
    copy_region(rs->inter.data(), rs->inter_box, packed, region, region);
    packed += region.elems();
  }
  MPI_Alltoallv(rs->sendbuf.data(), rs->send_counts.data(), rs->send_displs.data(), MPI_FLOAT, rs->recvbuf.data(),
                rs->recv_counts.data(), rs->recv_displs.data(), MPI_FLOAT, MPI_COMM_WORLD);
  if (rs->has_local) copy_region(rs->inter.data(), rs->inter_box, dst, rs->tgt_box, rs->local_region);
  const float* unpacked = rs->recvbuf.data();
  for (const Box& region : rs->recv_regions) {
    copy_region(unpacked, region, dst, rs->tgt_box, region);
    unpacked += region.elems();
  }
}

std::size_t reduce_scatter_recv_elems(const ReduceScatter* rs) { return rs->recv_elems; }

std::size_t reduce_scatter_buffer_bytes(const ReduceScatter* rs) {
  return (rs->inter.size() + rs->sendbuf.size() + rs->recvbuf.size()) * sizeof(float);
}

const char* reduce_scatter_what(const ReduceScatter* rs) {
  switch (rs->mode) {
    case Mode::kAllreduce:
      return "MPI_Allreduce";
    case Mode::kReduceScatter:
      return "MPI_Reduce_scatter_block";
    case Mode::kReduceScatterAlltoallv:
      break;
  }
  return "MPI_Reduce_scatter_block + MPI_Alltoallv";
}

void reduce_scatter_free(ReduceScatter* rs) {
  MPI_Comm_free(&rs->group);
  delete rs;
}

}  // namespace bench
