// Argument errors, which are found on the host before anything touches the
// GPU: the device kernels report exactly what the CPU kernels of local.hpp
// report, and the mesh and collectives fail cleanly when misused.
#include <functional>
#include <string>
#include <vector>

#include "check.hpp"
#include "redist/local.hpp"

namespace gputest {

namespace {

using redist::Errc;
using redist::Layout;
using redist::Status;

void same_status(const Status& got, const Status& want, Tally& t, const std::string& what) {
  t.expect(!want.ok(), what + ": the reference accepts these arguments");
  t.expect(got.code() == want.code() && got.message() == want.message(),
           what + ": got " + redist::errc_name(got.code()) + " \"" + got.message() + "\", local.hpp gives " +
               redist::errc_name(want.code()) + " \"" + want.message() + "\"");
}

// Bad calls of each kernel; host buffers are fine since none gets that far.
void kernels_reject_like_local(Tally& t) {
  std::vector<unsigned char> a(1024), b(1024);
  const Layout ok = layout_of({4, 6}, 4);
  Layout bad_rank = ok;
  bad_rank.ndim = 9;
  Layout bad_elem = ok;
  bad_elem.elem_bytes = 3;
  Layout zero_extent = ok;
  zero_extent.extent[1] = 0;
  struct Call {
    std::string what;
    Layout l;
    int dim;
    std::size_t parts, index;
    const void* src;
    std::size_t src_bytes;
    void* dst;
    std::size_t dst_bytes;
  };
  const std::vector<Call> calls = {
      {"rank 9", bad_rank, 0, 2, 0, a.data(), 96, b.data(), 96},
      {"element size 3", bad_elem, 0, 2, 0, a.data(), 96, b.data(), 96},
      {"zero extent", zero_extent, 0, 2, 0, a.data(), 96, b.data(), 96},
      {"dim -1", ok, -1, 2, 0, a.data(), 96, b.data(), 96},
      {"dim 2", ok, 2, 2, 0, a.data(), 96, b.data(), 96},
      {"zero parts", ok, 1, 0, 0, a.data(), 96, b.data(), 96},
      {"parts do not divide", ok, 1, 4, 0, a.data(), 96, b.data(), 96},
      {"index past parts", ok, 1, 2, 2, a.data(), 96, b.data(), 96},
      {"null source", ok, 1, 2, 0, nullptr, 96, b.data(), 96},
      {"null destination", ok, 1, 2, 0, a.data(), 96, nullptr, 96},
      {"short source", ok, 1, 2, 0, a.data(), 95, b.data(), 96},
      {"short destination", ok, 1, 2, 0, a.data(), 96, b.data(), 40},
      {"overlap", ok, 1, 2, 0, a.data(), 96, a.data() + 50, 96},
  };
  for (const Call& c : calls) {
    // Which calls are errors differs between kernels (concat has no
    // divisibility or index rule, and its source is `parts` blocks), so
    // compare only where local.hpp rejects.
    auto compare = [&](const Status& want, const std::function<Status()>& device,
                       const std::string& kernel) {
      if (!want.ok()) same_status(device(), want, t, kernel + ", " + c.what);
    };
    compare(redist::local::slice(c.l, c.dim, c.parts, c.index, c.src, c.src_bytes, c.dst,
                                 c.dst_bytes),
            [&] {
              return redist::cuda::slice(c.l, c.dim, c.parts, c.index, c.src, c.src_bytes, c.dst,
                                         c.dst_bytes, nullptr);
            },
            "slice");
    compare(redist::local::pack_chunks(c.l, c.dim, c.parts, c.src, c.src_bytes, c.dst, c.dst_bytes),
            [&] {
              return redist::cuda::pack_chunks(c.l, c.dim, c.parts, c.src, c.src_bytes, c.dst,
                                               c.dst_bytes, nullptr);
            },
            "pack");
    compare(redist::local::concat_blocks(c.l, c.dim, c.parts, c.src, c.src_bytes, c.dst,
                                         c.dst_bytes),
            [&] {
              return redist::cuda::concat_blocks(c.l, c.dim, c.parts, c.src, c.src_bytes, c.dst,
                                                 c.dst_bytes, nullptr);
            },
            "concat");
  }
}

void mesh_create_rejects_bad_arguments(Tally& t) {
  const int n = world_size();
  redist::nccl::Mesh mesh;
  const int good[] = {n};
  const int zero[] = {n, 0};
  const int wrong[] = {n + 1};
  const int nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, n};
  struct Bad {
    const char* what;
    MPI_Comm comm;
    const int* axes;
    int naxes;
    redist::nccl::Mesh* out;
    Errc code;
  };
  const Bad bad[] = {
      {"null output mesh", MPI_COMM_WORLD, good, 1, nullptr, Errc::invalid_argument},
      {"MPI_COMM_NULL", MPI_COMM_NULL, good, 1, &mesh, Errc::invalid_argument},
      {"no axes", MPI_COMM_WORLD, good, 0, &mesh, Errc::invalid_argument},
      {"nine axes", MPI_COMM_WORLD, nine, 9, &mesh, Errc::invalid_argument},
      {"null axis sizes", MPI_COMM_WORLD, nullptr, 1, &mesh, Errc::invalid_argument},
      {"axis of size 0", MPI_COMM_WORLD, zero, 2, &mesh, Errc::invalid_argument},
      {"mesh larger than the communicator", MPI_COMM_WORLD, wrong, 1, &mesh, Errc::mesh_mismatch},
  };
  for (const Bad& b : bad)
    t.expect_code(redist::nccl::Mesh::create(b.comm, b.axes, b.naxes, nullptr, b.out), b.code,
                  b.what);
  t.expect(mesh.size() == 0, "a failed create left the mesh non-empty");
}

void empty_mesh_is_refused(Tally& t) {
  const redist::nccl::Mesh mesh;
  std::vector<unsigned char> a(256), b(256), s(256);
  const Layout l = layout_of({4, 4}, 4);
  const int table[] = {0};
  auto expect_empty = [&](const Status& st, const std::string& what) {
    t.expect_code(st, Errc::invalid_argument, what);
    t.expect(st.message().find("mesh is empty") != std::string::npos,
             what + ": message \"" + st.message() + "\" does not say the mesh is empty");
  };
  expect_empty(redist::nccl::dyn_slice(mesh, {1, 1}, l, 0, a.data(), 64, b.data(), 64), "dyn_slice");
  expect_empty(redist::nccl::all_gather(mesh, {1, 1}, l, 0, a.data(), 64, b.data(), 64, s.data(), 64),
               "all_gather");
  expect_empty(
      redist::nccl::all_to_all(mesh, {1, 1}, l, 0, 1, a.data(), 64, b.data(), 64, s.data(), 64),
      "all_to_all");
  expect_empty(redist::nccl::all_permute(mesh, table, 1, l, a.data(), 64, b.data(), 64),
               "all_permute");
  redist::nccl::Mesh other;
  expect_empty(other.prepare(nullptr, 0), "prepare");
  expect_empty(other.synchronize(), "synchronize");
}

// Without a usable device, creating a mesh is an error, not a crash, and a
// kernel launch reports CUDA's error.
void no_device_is_an_error(Tally& t) {
  const int axes[] = {world_size()};
  redist::nccl::Mesh mesh;
  const Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes, 1, nullptr, &mesh);
  t.expect_code(st, Errc::backend_error, "Mesh::create without a device");
  t.expect(st.message().rfind("Mesh::create: ", 0) == 0,
           "message \"" + st.message() + "\" does not name Mesh::create");
  t.expect(mesh.size() == 0, "the mesh was created");
  std::vector<unsigned char> a(96), b(96);
  const Status pack = redist::cuda::pack_chunks(layout_of({4, 6}, 4), 1, 2, a.data(), 96, b.data(),
                                                96, nullptr);
  t.expect_code(pack, Errc::backend_error, "pack kernel without a device");
  t.expect(pack.message().rfind("copy kernel launch: ", 0) == 0,
           "message \"" + pack.message() + "\" does not name the kernel launch");
}

}  // namespace

void add_argument_cases(std::vector<Case>& cases) {
  cases.push_back({"device kernels reject bad arguments like local.hpp", Needs::anything,
                   kernels_reject_like_local});
  cases.push_back({"Mesh::create rejects bad arguments", Needs::anything,
                   mesh_create_rejects_bad_arguments});
  cases.push_back({"an empty mesh is refused by every call", Needs::anything, empty_mesh_is_refused});
  cases.push_back({"no device: create and launch report CUDA errors", Needs::no_gpu,
                   no_device_is_an_error});
}

}  // namespace gputest
