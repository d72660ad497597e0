#include "redist/nccl_reduce.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "nccl/calls.hpp"
#include "nccl/reduce_kernels.hpp"

namespace redist::nccl {

using namespace backend;
using detail::nccl_status;

namespace {

// NCCL counts are size_t: no message limit of its own.
constexpr std::size_t kMaxMessage = SIZE_MAX;

// NCCL's type for a dtype and how many of its elements make one element
// (2 for complex numbers); invalid_argument for the 16-bit integers.
Status nccl_type(Dtype dtype, ncclDataType_t* type, std::size_t* parts) {
  *parts = 1;
  switch (dtype) {
    case Dtype::i8: *type = ncclInt8; return {};
    case Dtype::u8: *type = ncclUint8; return {};
    case Dtype::i32: *type = ncclInt32; return {};
    case Dtype::u32: *type = ncclUint32; return {};
    case Dtype::i64: *type = ncclInt64; return {};
    case Dtype::u64: *type = ncclUint64; return {};
    case Dtype::f16: *type = ncclFloat16; return {};
    case Dtype::bf16: *type = ncclBfloat16; return {};
    case Dtype::f32: *type = ncclFloat32; return {};
    case Dtype::f64: *type = ncclFloat64; return {};
    case Dtype::c64: *type = ncclFloat32, *parts = 2; return {};
    case Dtype::c128: *type = ncclFloat64, *parts = 2; return {};
    case Dtype::i16:
    case Dtype::u16: break;
  }
  return {Errc::invalid_argument, std::string("NCCL has no ") + dtype_name(dtype) +
                                      " sum (no 16-bit integer type); use the MPI backend"};
}

// NCCL's operation: its own ncclSum, ncclProd, ncclMax and ncclMin; avg is
// ncclSum then one division (launch_divide), not ncclAvg, which divides in
// every call its own way (premultiplying floats), where a plan divides once
// at the end.  NCCL works part by part, which is the complex product's rule
// for neither part: invalid_argument there.
Status nccl_op(Dtype dtype, Op op, ncclRedOp_t* red) {
  const bool complex = dtype == Dtype::c64 || dtype == Dtype::c128;
  switch (op) {
    case Op::sum: *red = ncclSum; return {};
    case Op::prod:
      if (complex) break;
      *red = ncclProd;
      return {};
    case Op::max: *red = ncclMax; return {};
    case Op::min: *red = ncclMin; return {};
    case Op::avg: *red = ncclSum; return {};
  }
  return {Errc::invalid_argument, std::string("NCCL has no ") + dtype_name(dtype) + " " + op_name(op) +
                                      " (it reduces complex numbers part by part); use the MPI backend"};
}

// The group checks and NCCL's type and operation, before the arguments' checks.
Status setup(const Mesh& mesh, Group g, Dtype dtype, Op op, ncclComm_t* comm, ncclDataType_t* type,
             std::size_t* parts, ncclRedOp_t* red) {
  *comm = nullptr;
  if (Status st = mesh.check_group(g); !st.ok()) return st;
  if (g.size > 1)
    if (Status st = mesh.group_comm(g, comm); !st.ok()) return st;
  if (Status st = nccl_type(dtype, type, parts); !st.ok()) return st;
  return nccl_op(dtype, op, red);
}

Status device_copy(void* dst, const void* src, std::size_t n, cudaStream_t stream, const char* what) {
  const cudaError_t rc = cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream);
  if (rc == cudaSuccess) return {};
  return {Errc::backend_error, std::string(what) + ": cudaMemcpyAsync: " + cudaGetErrorString(rc)};
}

}  // namespace

Status reduce_scatter(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, int dim,
                      const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                      void* scratch, std::size_t scratch_bytes) {
  constexpr const char* what = "reduce_scatter";
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  ncclComm_t comm;
  ncclDataType_t type;
  std::size_t parts;
  ncclRedOp_t red;
  Status local = setup(mesh, g, dtype, op, &comm, &type, &parts, &red);
  const auto size = static_cast<std::size_t>(g.size);
  if (local.ok())
    local = check_reduce_scatter(layout, dim, size, dtype, op, src, src_bytes, dst, dst_bytes, scratch,
                                 scratch_bytes, reduce_scatter_scratch_bytes(layout, dim, size),
                                 kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_dims(dim),
                           agreed_reduction(dtype, op)};
  if (Status st = verdict(std::move(local), what, mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  const std::size_t total = bytes(layout);
  if (g.size == 1) return device_copy(dst, src, total, mesh.stream(), what);
  const void* send = src;
  if (outer_count(layout, dim) > 1) {
    if (Status st = cuda::pack_chunks(layout, dim, size, src, total, scratch, total, mesh.stream());
        !st.ok())
      return prefixed(what, st);
    send = scratch;
  }
  const std::size_t count = total / size / layout.elem_bytes * parts;
  if (Status st = nccl_status(ncclReduceScatter(send, dst, count, type, red, comm, mesh.stream()), comm,
                              "reduce_scatter: ncclReduceScatter");
      !st.ok() || op != Op::avg)
    return st;
  return divide(mesh, dtype, dst, total / size / layout.elem_bytes, size);
}

Status all_reduce(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  constexpr const char* what = "all_reduce";
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  ncclComm_t comm;
  ncclDataType_t type;
  std::size_t parts;
  ncclRedOp_t red;
  Status local = setup(mesh, g, dtype, op, &comm, &type, &parts, &red);
  const auto size = static_cast<std::size_t>(g.size);
  if (local.ok())
    local = check_all_reduce(layout, size, dtype, op, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, 0, kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_reduction(dtype, op)};
  if (Status st = verdict(std::move(local), what, mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  const std::size_t total = bytes(layout);
  if (g.size == 1) return device_copy(dst, src, total, mesh.stream(), what);
  if (Status st = nccl_status(ncclAllReduce(src, dst, num_elements(layout) * parts, type, red, comm, mesh.stream()),
                              comm, "all_reduce: ncclAllReduce");
      !st.ok() || op != Op::avg)
    return st;
  return divide(mesh, dtype, dst, num_elements(layout), size);
}

Status divide(const Mesh& mesh, Dtype dtype, void* data, std::size_t elems, std::size_t divisor) {
  if (!op_computes(dtype, Op::avg))
    return {Errc::invalid_argument, std::string("divide: element type ") + dtype_name(dtype) + " has no operation avg"};
  return prefixed("divide", cuda::detail::launch_divide(dtype, data, elems, divisor, mesh.stream()));
}

Status fill_identity(const Mesh& mesh, Dtype dtype, Op op, void* data, std::size_t elems) {
  if (!op_computes(dtype, op))
    return {Errc::invalid_argument, std::string("fill_identity: element type ") + dtype_name(dtype) +
                                        " has no operation " + op_name(op)};
  return prefixed("fill_identity", cuda::detail::launch_fill_identity(dtype, op, data, elems, mesh.stream()));
}

}  // namespace redist::nccl
