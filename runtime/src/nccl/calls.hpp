// Internal to the NCCL/CUDA backend: NCCL calls as Status, shared by the
// collectives (nccl.cpp) and the exchange (exchange.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "internal/backend_common.hpp"
#include "redist/redist.hpp"

namespace redist::nccl::detail {

// backend_error "<what>: <NCCL's error string> (<its last error>)" unless
// rc == ncclSuccess.
Status nccl_status(ncclResult_t rc, ncclComm_t comm, const char* what);

// One byte-typed message each way, for use inside grouped().
Status send_bytes(const void* buf, std::size_t n, int peer, ncclComm_t comm, cudaStream_t stream);
Status recv_bytes(void* buf, std::size_t n, int peer, ncclComm_t comm, cudaStream_t stream);

// Agreement without MPI (backend::AgreeOver): the elementwise minimum of
// n 64-bit words over the ranks of `comm`, by an ncclAllReduce on `stream`
// through `device_words` (kMaxAgreedWords of device memory), then waits for
// the stream.
struct NcclAgreement {
  ncclComm_t comm;
  std::uint64_t* device_words;
  cudaStream_t stream;
};
Status nccl_reduce_min(const void* agreement, std::uint64_t* words, std::size_t n);

// The buffer checks of an exchange's run() (sizes, then pairwise
// disjointness; messages name "source", "destination" or "workspace").
Status check_exchange_buffers(const void* src, std::size_t src_bytes, std::size_t src_need, const void* dst,
                              std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                              std::size_t workspace_bytes, std::size_t workspace_need);

// Opens an NCCL group, enqueues `body` (which stops at its first failure),
// and closes the group whatever happened, as NCCL requires.
template <typename Body>
Status grouped(ncclComm_t comm, const char* what, Body&& body) {
  if (Status st = nccl_status(ncclGroupStart(), comm, "ncclGroupStart"); !st.ok())
    return backend::prefixed(what, st);
  Status inside = body();
  Status end = nccl_status(ncclGroupEnd(), comm, "ncclGroupEnd");
  return backend::prefixed(what, inside.ok() ? end : inside);
}

}  // namespace redist::nccl::detail
