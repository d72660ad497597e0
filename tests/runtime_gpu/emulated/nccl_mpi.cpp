// Host emulation of the subset of NCCL that the backend calls, over MPI:
// communicators are MPI communicators, ncclAllGather is MPI_Allgather,
// ncclAllReduce (64-bit minimum only, as the exchange's agreement uses) is
// MPI_Allreduce, and
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

ncclResult_t ncclAllReduce(const void* send, void* recv, size_t count, ncclDataType_t type,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t) {
  if (type != ncclUint64 || op != ncclMin || count > INT_MAX || group_depth > 0) return ncclInvalidUsage;
  return MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, static_cast<int>(count), MPI_UINT64_T,
                       MPI_MIN, comm->comm) == MPI_SUCCESS
             ? ncclSuccess
             : ncclSystemError;
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
