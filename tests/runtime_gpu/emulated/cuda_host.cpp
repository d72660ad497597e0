// Host emulation of the subset of the CUDA runtime that the NCCL backend
// and its tests call, so that the backend's host logic (collectives,
// buffer choreography, agreement, mesh setup) can be run under mpirun on a
// machine without a GPU.  "Device" memory is host memory, every stream is
// synchronous, and each rank pretends to have as many devices as ranks on
// its node.  Nothing here says anything about real CUDA behaviour.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

// Events record the host clock (work is synchronous, so that is when the
// preceding work finished).
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
};

namespace {

cudaError_t last_error = cudaSuccess;
int current_device = 0;

cudaError_t record(cudaError_t rc) {
  if (rc != cudaSuccess) last_error = rc;
  return rc;
}

// One stream object for all: work runs at once, so streams carry nothing.
struct CUstream_st* fake_stream() {
  static char storage;
  return reinterpret_cast<struct CUstream_st*>(&storage);
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError(void) {
  const cudaError_t rc = last_error;
  last_error = cudaSuccess;
  return rc;
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error (emulated)" : "error (emulated CUDA)";
}

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  *count = local != nullptr ? std::atoi(local) : 1;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  int count = 0;
  cudaGetDeviceCount(&count);
  if (device < 0 || device >= count) return record(cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  *device = current_device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMalloc(void** ptr, size_t size) {
  *ptr = std::malloc(size == 0 ? 1 : size);
  return *ptr == nullptr ? record(cudaErrorMemoryAllocation) : cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind) {
  if (count > 0) std::memcpy(dst, src, count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind,
                                      cudaStream_t) {
  if (count > 0) std::memcpy(dst, src, count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset(void* ptr, int value, size_t count) {
  std::memset(ptr, value, count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t) {
  if (count > 0) std::memset(ptr, value, count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* stream) {
  *stream = fake_stream();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp* prop, int) {
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "emulated device (host memory)", sizeof prop->name - 1);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) {
  *event = new CUevent_st{};
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

}  // extern "C"
