// Baseline: one MPI_Alltoallv in which every device sends exactly the
// elements others need and nothing else, so the traffic is the lower bound
// and the only arrays are the source, the target and the packed buffers.
//
// A replicated source has several holders of each block; the receiver r
// takes a block it lacks from holder number (r mod holders), which spreads
// the sending over the replicas.
#include <vector>

#include "bench_common.hpp"

namespace bench {

namespace {

struct Block {
  Box box;
  std::vector<int> holders;  // ranks, ascending
};

std::vector<Block> source_blocks(const Problem& p, int size) {
  std::vector<Block> blocks;
  for (int r = 0; r < size; ++r) {
    const Box b = src_box(p, r);
    bool found = false;
    for (Block& blk : blocks)
      if (blk.box.same_as(b)) {
        blk.holders.push_back(r);
        found = true;
        break;
      }
    if (!found) blocks.push_back(Block{b, {r}});
  }
  return blocks;
}

bool holds(const Block& b, int r) {
  for (int h : b.holders)
    if (h == r) return true;
  return false;
}

}  // namespace

AlltoallvPlan alltoallv_plan(const Problem& p, int rank, int size) {
  const std::vector<Block> blocks = source_blocks(p, size);
  AlltoallvPlan plan;
  plan.send_counts.assign(size, 0);
  plan.recv_counts.assign(size, 0);
  plan.send_displs.assign(size, 0);
  plan.recv_displs.assign(size, 0);
  plan.src_box = src_box(p, rank);
  plan.tgt_box = tgt_box(p, rank);
  const Box& my_tgt = plan.tgt_box;
  // Receives (and local copies), grouped by sender, blocks in order.
  std::vector<std::vector<Box>> from(size);
  for (const Block& blk : blocks) {
    Box part;
    if (!intersect(my_tgt, blk.box, &part)) continue;
    if (holds(blk, rank)) {
      plan.local_regions.push_back(part);
    } else {
      const int s = blk.holders[rank % static_cast<int>(blk.holders.size())];
      from[s].push_back(part);
      plan.recv_counts[s] += static_cast<int>(part.elems());
      plan.recv_elems += part.elems();
    }
  }
  for (int s = 0; s < size; ++s)
    for (const Box& b : from[s]) plan.recv_regions.push_back(b);
  // Sends: the same enumeration seen from the sender's side.
  for (int r = 0; r < size; ++r) {
    const Box tgt = tgt_box(p, r);
    for (const Block& blk : blocks) {
      Box part;
      if (holds(blk, r) || !intersect(tgt, blk.box, &part)) continue;
      if (blk.holders[r % static_cast<int>(blk.holders.size())] != rank) continue;
      plan.send_regions.push_back(part);
      plan.send_counts[r] += static_cast<int>(part.elems());
    }
  }
  for (int i = 1; i < size; ++i) {
    plan.send_displs[i] = plan.send_displs[i - 1] + plan.send_counts[i - 1];
    plan.recv_displs[i] = plan.recv_displs[i - 1] + plan.recv_counts[i - 1];
  }
  return plan;
}

void alltoallv_run(const AlltoallvPlan& plan, const float* src, float* dst, std::vector<float>& sendbuf,
                   std::vector<float>& recvbuf, MPI_Comm comm) {
  const Box& my_src = plan.src_box;
  const Box& my_tgt = plan.tgt_box;
  std::size_t at = 0;
  for (const Box& b : plan.send_regions) {
    copy_region(src, my_src, sendbuf.data() + at, b, b);
    at += b.elems();
  }
  MPI_Alltoallv(sendbuf.data(), plan.send_counts.data(), plan.send_displs.data(), MPI_FLOAT, recvbuf.data(),
                plan.recv_counts.data(), plan.recv_displs.data(), MPI_FLOAT, comm);
  for (const Box& b : plan.local_regions) copy_region(src, my_src, dst, my_tgt, b);
  at = 0;
  for (const Box& b : plan.recv_regions) {
    copy_region(recvbuf.data() + at, b, dst, my_tgt, b);
    at += b.elems();
  }
}

}  // namespace bench
