// Host emulation of the subset of NCCL that the backend calls, over MPI:
// communicators are MPI communicators, ncclAllGather is MPI_Allgather,
// ncclReduceScatter and ncclAllReduce (ncclSum, ncclProd, ncclMax, ncclMin,
// ncclAvg, numbered as redist::Op) gather every rank's array and reduce on
// the host in rank order (the runtime's local::reduce_blocks), and
// the sends and receives of an ncclGroupStart/End group are posted together
// as nonblocking MPI operations at ncclGroupEnd (so, as in NCCL, a group
// cannot deadlock on its own ordering).  Only byte-typed data (ncclUint8),
// as the backend uses.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>
#include <nccl.h>

#include <climits>
#include <cstring>
#include <vector>

#include "redist/reduce.hpp"

struct ncclComm {
  MPI_Comm comm;
};

namespace {

struct PendingOp {
  bool send;
  void* buf;
  size_t count;
  int peer;
  MPI_Comm comm;
};

int group_depth = 0;
std::vector<PendingOp> pending;

bool fits(size_t count, ncclDataType_t type) { return type == ncclUint8 && count <= INT_MAX; }

// Requests of the group being run, kept between groups so that a group no
// larger than an earlier one allocates nothing (the backend's run() is
// checked for allocations through this emulation).
std::vector<MPI_Request> requests;

ncclResult_t run_ops(const std::vector<PendingOp>& ops) {
  requests.clear();
  // Receives first, so that every send finds its receive posted.
  for (int pass = 0; pass < 2; ++pass)
    for (const PendingOp& op : ops) {
      if (op.send != (pass == 1)) continue;
      MPI_Request r;
      const int rc = op.send ? MPI_Isend(op.buf, static_cast<int>(op.count), MPI_BYTE, op.peer, 0, op.comm, &r)
                             : MPI_Irecv(op.buf, static_cast<int>(op.count), MPI_BYTE, op.peer, 0, op.comm, &r);
      if (rc != MPI_SUCCESS) return ncclSystemError;
      requests.push_back(r);
    }
  if (requests.empty()) return ncclSuccess;
  return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE) == MPI_SUCCESS
             ? ncclSuccess
             : ncclSystemError;
}

ncclResult_t p2p(bool send, const void* buf, size_t count, ncclDataType_t type, int peer,
                 ncclComm_t comm) {
  if (!fits(count, type) || comm == nullptr) return ncclInvalidArgument;
  int size = 0;
  MPI_Comm_size(comm->comm, &size);
  if (peer < 0 || peer >= size) return ncclInvalidArgument;
  PendingOp op{send, const_cast<void*>(buf), count, peer, comm->comm};
  if (group_depth > 0) {
    pending.push_back(op);
    return ncclSuccess;
  }
  return run_ops({op});
}

}  // namespace

extern "C" {

const char* ncclGetErrorString(ncclResult_t result) {
  return result == ncclSuccess ? "no error (emulated)" : "error (emulated NCCL)";
}

const char* ncclGetLastError(ncclComm_t) { return ""; }

ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  std::memset(id, 0, sizeof *id);
  return ncclSuccess;
}

// The emulation supports meshes over all of MPI_COMM_WORLD, which is what
// the tests create.
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId, int rank) {
  int size = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (nranks != size || rank != me) return ncclInvalidUsage;
  auto* c = new ncclComm{MPI_COMM_NULL};
  MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
  *comm = c;
  return ncclSuccess;
}

ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm, ncclConfig_t*) {
  auto* c = new ncclComm{MPI_COMM_NULL};
  if (MPI_Comm_split(comm->comm, color, key, &c->comm) != MPI_SUCCESS) {
    delete c;
    return ncclSystemError;
  }
  *newcomm = c;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&comm->comm);
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t, ncclResult_t* error) {
  *error = ncclSuccess;
  return ncclSuccess;
}

ncclResult_t ncclAllGather(const void* send, void* recv, size_t count, ncclDataType_t type,
                           ncclComm_t comm, cudaStream_t) {
  if (!fits(count, type) || group_depth > 0) return ncclInvalidUsage;
  const int n = static_cast<int>(count);
  return MPI_Allgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, comm->comm) == MPI_SUCCESS
             ? ncclSuccess
             : ncclSystemError;
}

namespace {

// The redist::Dtype that sums NCCL's type the way this emulation does (the
// runtime's host kernel: ascending rank order, f16/bf16 in f32), and false
// for a type the backend never sums.
bool summed_as(ncclDataType_t type, redist::Dtype* dtype) {
  switch (type) {
    case ncclInt8: *dtype = redist::Dtype::i8; return true;
    case ncclUint8: *dtype = redist::Dtype::u8; return true;
    case ncclInt32: *dtype = redist::Dtype::i32; return true;
    case ncclUint32: *dtype = redist::Dtype::u32; return true;
    case ncclInt64: *dtype = redist::Dtype::i64; return true;
    case ncclUint64: *dtype = redist::Dtype::u64; return true;
    case ncclFloat16: *dtype = redist::Dtype::f16; return true;
    case ncclBfloat16: *dtype = redist::Dtype::bf16; return true;
    case ncclFloat32: *dtype = redist::Dtype::f32; return true;
    case ncclFloat64: *dtype = redist::Dtype::f64; return true;
    default: return false;
  }
}

// op over the communicator: every rank's `count` elements of `send`
// gathered, then element j of `recv` (count_out of them, from element
// `first`) is the reduction over ranks.
ncclResult_t reduce_over_ranks(const void* send, size_t count, void* recv, size_t first, size_t count_out,
                               ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm) {
  redist::Dtype dtype;
  if (op < ncclSum || op > ncclAvg || !summed_as(type, &dtype) || comm == nullptr || group_depth > 0)
    return ncclInvalidUsage;
  const auto rop = static_cast<redist::Op>(op);
  if (!redist::op_computes(dtype, rop)) return ncclInvalidUsage;
  const size_t elem = redist::dtype_bytes(dtype);
  if (count * elem > INT_MAX) return ncclInvalidUsage;
  int n = 0;
  MPI_Comm_size(comm->comm, &n);
  std::vector<unsigned char> all(static_cast<size_t>(n) * count * elem + 1), mine(count * elem + 1);
  std::memcpy(mine.data(), send, count * elem);  // send may be recv
  const int bytes = static_cast<int>(count * elem);
  if (MPI_Allgather(mine.data(), bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm->comm) != MPI_SUCCESS)
    return ncclSystemError;
  // Rank k's elements first .. first + count_out, as blocks one after another.
  std::vector<unsigned char> blocks(static_cast<size_t>(n) * count_out * elem + 1);
  for (int k = 0; k < n; ++k)
    std::memcpy(&blocks[static_cast<size_t>(k) * count_out * elem], &all[(static_cast<size_t>(k) * count + first) * elem],
                count_out * elem);
  redist::local::reduce_blocks(dtype, rop, blocks.data(), count_out, static_cast<size_t>(n), recv);
  return ncclSuccess;
}

}  // namespace

ncclResult_t ncclReduceScatter(const void* send, void* recv, size_t recvcount, ncclDataType_t type,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t) {
  int me = 0, n = 0;
  if (comm == nullptr) return ncclInvalidArgument;
  MPI_Comm_rank(comm->comm, &me);
  MPI_Comm_size(comm->comm, &n);
  return reduce_over_ranks(send, recvcount * static_cast<size_t>(n), recv, recvcount * static_cast<size_t>(me),
                        recvcount, type, op, comm);
}

ncclResult_t ncclAllReduce(const void* send, void* recv, size_t count, ncclDataType_t type,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t) {
  // The exchange's agreement (a 64-bit minimum) runs in run(), which
  // allocates nothing: MPI's own reduction, no gathered copy.
  if (type == ncclUint64 && op == ncclMin && count <= INT_MAX && group_depth == 0 && comm != nullptr)
    return MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, static_cast<int>(count), MPI_UINT64_T, MPI_MIN,
                         comm->comm) == MPI_SUCCESS
               ? ncclSuccess
               : ncclSystemError;
  return reduce_over_ranks(send, count, recv, 0, count, type, op, comm);
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  return MPI_Comm_size(comm->comm, count) == MPI_SUCCESS ? ncclSuccess : ncclSystemError;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  return MPI_Comm_rank(comm->comm, rank) == MPI_SUCCESS ? ncclSuccess : ncclSystemError;
}

ncclResult_t ncclSend(const void* buf, size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                      cudaStream_t) {
  return p2p(true, buf, count, type, peer, comm);
}

ncclResult_t ncclRecv(void* buf, size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                      cudaStream_t) {
  return p2p(false, buf, count, type, peer, comm);
}

ncclResult_t ncclGroupStart() {
  ++group_depth;
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd() {
  if (group_depth == 0) return ncclInvalidUsage;
  if (--group_depth > 0) return ncclSuccess;
  const ncclResult_t rc = run_ops(pending);
  pending.clear();  // keeps its capacity for the next group
  return rc;
}

}  // extern "C"
