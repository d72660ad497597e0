// RAII for device memory, streams and NCCL communicators in the GPU tests; every CUDA call is
// checked and a failure is recorded in the tally.
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"

namespace gputest {

inline bool cuda_ok(cudaError_t rc, const char* what, Tally& t) {
  if (rc == cudaSuccess) return true;
  t.fail(std::string(what) + ": " + cudaGetErrorString(rc));
  return false;
}

class DeviceBuffer {
 public:
  DeviceBuffer(std::size_t bytes, Tally& t) : bytes_(bytes) {
    if (!cuda_ok(cudaMalloc(&ptr_, bytes == 0 ? 1 : bytes), "cudaMalloc", t)) ptr_ = nullptr;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
  }
  unsigned char* get() const { return static_cast<unsigned char*>(ptr_); }
  std::size_t bytes() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

class Stream {
 public:
  explicit Stream(Tally& t) {
    if (!cuda_ok(cudaStreamCreate(&s_), "cudaStreamCreate", t)) s_ = nullptr;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() {
    if (s_ != nullptr) (void)cudaStreamDestroy(s_);
  }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// An NCCL communicator over MPI_COMM_WORLD set up as an application would.
struct NcclComm {
  ncclComm_t comm = nullptr;
  explicit NcclComm(Tally& t) {
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    if (world_rank() == 0 && ncclGetUniqueId(&id) != ncclSuccess) t.fail("ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (ncclCommInitRank(&comm, world_size(), id, world_rank()) != ncclSuccess) {
      t.fail("ncclCommInitRank");
      comm = nullptr;
    }
  }
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;
  ~NcclComm() {
    if (comm != nullptr) (void)ncclCommDestroy(comm);
  }
};

inline bool upload(unsigned char* dst, const std::vector<unsigned char>& src, Tally& t) {
  return cuda_ok(cudaMemcpy(dst, src.data(), src.size(), cudaMemcpyHostToDevice), "upload", t);
}

inline bool poison(unsigned char* dst, std::size_t bytes, Tally& t) {
  return cuda_ok(cudaMemset(dst, kPoison, bytes), "cudaMemset", t);
}

inline std::vector<unsigned char> download(const unsigned char* src, std::size_t bytes, Tally& t) {
  std::vector<unsigned char> out(bytes);
  if (!cuda_ok(cudaMemcpy(out.data(), src, bytes, cudaMemcpyDeviceToHost), "download", t))
    out.assign(bytes, 0);
  return out;
}

// `got` must start with `want` and be poisoned after it.
inline void expect_bytes(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                         Tally& t, const std::string& what) {
  if (got.size() < want.size()) return t.fail(what + ": short download");
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return t.fail(what + ": first wrong byte at " + std::to_string(i));
  for (std::size_t i = want.size(); i < got.size(); ++i)
    if (got[i] != kPoison) return t.fail(what + ": wrote past its result, at byte " + std::to_string(i));
}

}  // namespace gputest
