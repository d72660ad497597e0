// A mesh made from an NCCL communicator the application already has (no
// MPI inside the mesh): its collectives move the right bytes on the stream
// set before each call, its agreement (through NCCL) makes one rank's error
// every rank's, and the communicator stays the caller's.
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"
#include "redist/nccl_exchange.hpp"

namespace gputest {

namespace {

using redist::Errc;
using redist::Group;
using redist::Layout;
using redist::Status;
using redist::nccl::Mesh;

void mesh_from_nccl_comm(Tally& t) {
  Stream first(t), second(t);
  NcclComm nccl(t);
  if (first.get() == nullptr || second.get() == nullptr || nccl.comm == nullptr) return;
  const int me = world_rank(), n = world_size();
  Mesh mesh;
  t.expect_code(Mesh::create(static_cast<ncclComm_t>(nullptr), &n, 1, first.get(), &mesh),
                Errc::invalid_argument, "create from a null communicator");
  const int too_many = n + 1;
  t.expect_code(Mesh::create(nccl.comm, &too_many, 1, first.get(), &mesh), Errc::mesh_mismatch,
                "a mesh larger than the communicator");
  if (n > 1) {
    // The last rank passes {1, n}, the others {n}: every rank refuses.
    const int two_axes[] = {1, n};
    const Status differ = me == n - 1 ? Mesh::create(nccl.comm, two_axes, 2, first.get(), &mesh)
                                      : Mesh::create(nccl.comm, &n, 1, first.get(), &mesh);
    t.expect_code(differ, Errc::invalid_argument, "ranks passing different axis sizes");
  }
  if (Status st = Mesh::create(nccl.comm, &n, 1, first.get(), &mesh); !st.ok()) return t.fail(st.message());
  t.expect(mesh.comm() == MPI_COMM_NULL && mesh.nccl_comm() == nccl.comm && mesh.size() == n &&
               mesh.rank() == me,
           "the mesh is not the communicator's");
  const Group whole{1, n};
  if (Status st = mesh.prepare(&whole, 1); !st.ok()) return t.fail(st.message());

  const Layout l = layout_of({2, 3}, 4);
  const std::size_t b = redist::bytes(l);
  DeviceBuffer src(b, t), dst(b * n + kCanary, t), scratch(b * n, t);
  if (!src || !dst || !scratch || !upload(src.get(), labelled(me, b, 1), t)) return;
  // all_gather along dim 0 on the first stream: the sources in rank order.
  if (!poison(dst.get(), b * n + kCanary, t)) return;
  t.expect_code(redist::nccl::all_gather(mesh, whole, l, 0, src.get(), b, dst.get(), b * n, scratch.get(), b * n),
                Errc::ok, "all_gather");
  if (!cuda_ok(cudaStreamSynchronize(first.get()), "cudaStreamSynchronize", t)) return;
  std::vector<unsigned char> want;
  for (int r = 0; r < n; ++r) {
    const std::vector<unsigned char> part = labelled(r, b, 1);
    want.insert(want.end(), part.begin(), part.end());
  }
  expect_bytes(download(dst.get(), b * n + kCanary, t), want, t, "all_gather from an ncclComm_t mesh");

  // all_permute on the second stream: rank r reads rank r+1's source.
  mesh.set_stream(second.get());
  std::vector<int> recv_from(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) recv_from[static_cast<std::size_t>(r)] = (r + 1) % n;
  if (!poison(dst.get(), b + kCanary, t)) return;
  t.expect_code(redist::nccl::all_permute(mesh, recv_from.data(), recv_from.size(), l, src.get(), b, dst.get(), b),
                Errc::ok, "all_permute");
  if (!cuda_ok(cudaStreamSynchronize(second.get()), "cudaStreamSynchronize", t)) return;
  expect_bytes(download(dst.get(), b + kCanary, t), labelled((me + 1) % n, b, 1), t,
               "all_permute on the stream set before the call");

  // One rank's short destination: that rank names it, the others report remote_error.
  if (n > 1) {
    const bool short_here = me == 0;
    const Status st = redist::nccl::all_gather(mesh, whole, l, 0, src.get(), b, dst.get(),
                                               short_here ? b * n - 1 : b * n, scratch.get(), b * n);
    t.expect_code(st, short_here ? Errc::buffer_too_small : Errc::remote_error, "one rank's short destination");
  }
  mesh = Mesh();
  // The communicator is still the caller's and still works.
  const redist::PlacedMesh world = redist::PlacedMesh::contiguous(&n, 1, 0);
  redist::BlockLayout sharded, replicated;
  sharded.ndim = replicated.ndim = 1;
  sharded.extent[0] = replicated.extent[0] = 10;
  sharded.sharding[0] = {1, {0}};
  redist::nccl::Exchange ex;
  t.expect_code(redist::nccl::Exchange::create(nccl.comm, world, sharded, world, replicated, 4, first.get(), &ex),
                Errc::ok, "the communicator after the mesh is gone");
}

}  // namespace

void add_nccl_comm_cases(std::vector<Case>& cases) {
  cases.push_back({"mesh from an ncclComm_t: collectives, stream per call, agreement through NCCL", Needs::gpu,
                   mesh_from_nccl_comm});
}

}  // namespace gputest
