// Baseline for the pending-sum suite: what a user writes with plain MPI
// (bench/bench_common.hpp says which calls).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace bench {

enum class Mode { kAllreduce, kReduceScatter, kReduceScatterAlltoallv };

struct ReduceScatter {
  Mode mode;
  MPI_Comm group;
  int k;
  MPI_Op op;          // each reduction's: avg's adds, and the result is divided by k once at the end
  bool divide;        // avg
  std::string what;   // the calls, as the report names them
  std::size_t src_elems;
  Box inter_box, tgt_box;
  std::vector<float> inter, sendbuf, recvbuf;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<Box> send_regions, recv_regions;  // by peer rank, empty boxes skipped
  Box local_region;
  bool has_local = false;
  std::size_t recv_elems = 0;
  std::vector<int> block_counts;  // elements of each member's row block
  bool equal_blocks = true;       // MPI_Reduce_scatter_block, else MPI_Reduce_scatter
};

namespace {

// The row block that MPI_Reduce_scatter leaves member m of a group of k
// whose members hold box `held`: dimension 0 cut into k ceil blocks (the
// cut redist's target takes; MPI_Reduce_scatter_block where they are equal).
Box row_block(const Box& held, int m, int k) {
  Box b = held;
  const std::size_t rows = held.ext[0], per = (rows + static_cast<std::size_t>(k) - 1) / static_cast<std::size_t>(k);
  const std::size_t lo = std::min(rows, per * static_cast<std::size_t>(m)), hi = std::min(rows, lo + per);
  b.off[0] += lo;
  b.ext[0] = hi - lo;
  return b;
}

Box row_block(const Problem& p, int rank, int k) { return row_block(src_box(p, rank), member_index(p, rank), k); }

MPI_Op mpi_op(redist::Op op) {
  switch (redist::step_op(op)) {
    case redist::Op::prod:
      return MPI_PROD;
    case redist::Op::max:
      return MPI_MAX;
    case redist::Op::min:
      return MPI_MIN;
    case redist::Op::sum:
    case redist::Op::avg:
      break;
  }
  return MPI_SUM;
}

// The calls of `mode` with op, e.g. "MPI_Reduce_scatter_block (MPI_MAX)";
// nothing added for a sum.
std::string describe(Mode mode, bool equal_blocks, redist::Op op, int k) {
  const std::string reduce_scatter = equal_blocks ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter";
  std::string calls = mode == Mode::kAllreduce       ? "MPI_Allreduce"
                      : mode == Mode::kReduceScatter ? reduce_scatter
                                                     : reduce_scatter + " + MPI_Alltoallv";
  if (op == redist::Op::avg) return calls + " (MPI_SUM), then / " + std::to_string(k);
  if (op == redist::Op::sum) return calls;
  std::string name = redist::op_name(op);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  return calls + " (MPI_" + name + ")";
}

}  // namespace

ReduceScatter* reduce_scatter_setup(const Problem& p, int rank, int size, const char** why_not) {
  const int k = group_size(p);
  bool same_layout = true, direct = true;
  for (int r = 0; r < size; ++r) {
    const Box t = tgt_box(p, r);
    same_layout = same_layout && src_box(p, r).same_as(t);
    direct = direct && row_block(p, r, k).same_as(t);
  }
  auto* rs = new ReduceScatter();
  rs->k = k;
  rs->op = mpi_op(p.op);
  rs->divide = p.op == redist::Op::avg;
  const Box held = src_box(p, rank);
  rs->src_elems = held.elems();
  rs->tgt_box = tgt_box(p, rank);
  for (int m = 0; m < k; ++m) rs->block_counts.push_back(static_cast<int>(row_block(held, m, k).elems()));
  rs->equal_blocks = std::count(rs->block_counts.begin(), rs->block_counts.end(), rs->block_counts[0]) == k;
  rs->mode = same_layout ? Mode::kAllreduce : direct ? Mode::kReduceScatter : Mode::kReduceScatterAlltoallv;
  rs->what = describe(rs->mode, rs->equal_blocks, p.op, k);
  MPI_Comm_split(MPI_COMM_WORLD, pending_digits(p, rank, false), member_index(p, rank), &rs->group);
  const std::size_t k1 = static_cast<std::size_t>(k - 1);
  if (same_layout) {
    rs->recv_elems = 2 * k1 * rs->src_elems / static_cast<std::size_t>(k);
    return rs;
  }
  rs->inter_box = row_block(p, rank, k);
  rs->recv_elems = k1 * rs->inter_box.elems();
  if (direct) return rs;
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

namespace {

void reduce_rows(const ReduceScatter* rs, const float* src, float* rows) {
  if (rs->equal_blocks)
    MPI_Reduce_scatter_block(src, rows, rs->block_counts[0], MPI_FLOAT, rs->op, rs->group);
  else
    MPI_Reduce_scatter(src, rows, rs->block_counts.data(), MPI_FLOAT, rs->op, rs->group);
}

void reduce_then_move(ReduceScatter* rs, const float* src, float* dst) {
  switch (rs->mode) {
    case Mode::kAllreduce:
      MPI_Allreduce(src, dst, static_cast<int>(rs->src_elems), MPI_FLOAT, rs->op, rs->group);
      return;
    case Mode::kReduceScatter:
      reduce_rows(rs, src, dst);
      return;
    case Mode::kReduceScatterAlltoallv:
      break;
  }
  reduce_rows(rs, src, rs->inter.data());
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

}  // namespace

void reduce_scatter_run(ReduceScatter* rs, const float* src, float* dst) {
  reduce_then_move(rs, src, dst);
  if (!rs->divide) return;
  const float k = static_cast<float>(rs->k);
  const std::size_t n = rs->tgt_box.elems();
  for (std::size_t i = 0; i < n; ++i) dst[i] /= k;
}

std::size_t reduce_scatter_recv_elems(const ReduceScatter* rs) { return rs->recv_elems; }

std::size_t reduce_scatter_buffer_bytes(const ReduceScatter* rs) {
  return (rs->inter.size() + rs->sendbuf.size() + rs->recvbuf.size()) * sizeof(float);
}

const char* reduce_scatter_what(const ReduceScatter* rs) { return rs->what.c_str(); }

void reduce_scatter_free(ReduceScatter* rs) {
  MPI_Comm_free(&rs->group);
  delete rs;
}

}  // namespace bench
