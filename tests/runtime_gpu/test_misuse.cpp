// Misuse on a created mesh: every error is reported on every rank that
// makes the call, and an error only one rank can see (its own buffer) is
// agreed on, so no rank is left waiting inside NCCL.
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"

namespace gputest {

namespace {

using redist::Errc;
using redist::Group;
using redist::Layout;
using redist::Status;

bool make_flat_mesh(cudaStream_t stream, redist::nccl::Mesh* mesh, Tally& t) {
  const int axes[] = {world_size()};
  if (redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes, 1, stream, mesh); !st.ok()) {
    t.fail(st.message());
    return false;
  }
  return true;
}

void bad_groups_and_tables(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_flat_mesh(stream.get(), &mesh, t)) return;
  const int n = mesh.size();
  const Group too_big{1, n + 1};
  t.expect_code(mesh.prepare(&too_big, 1), Errc::invalid_argument, "prepare a group larger than the mesh");
  const Layout l = layout_of({4, 2 * static_cast<std::size_t>(n)}, 4);
  const std::size_t total = redist::bytes(l);
  DeviceBuffer a(total * n, t), b(total * n, t), s(total * n, t);
  if (!a || !b || !s) return;
  const Group whole{1, n};
  if (n > 1) {
    const Status st = redist::nccl::all_gather(mesh, whole, l, 1, a.get(), total, b.get(), total * n,
                                               s.get(), total * n);
    t.expect_code(st, Errc::mesh_mismatch, "all_gather over a group that was not prepared");
  }
  if (Status st = mesh.prepare(&whole, 1); !st.ok()) return t.fail("prepare: " + st.message());
  t.expect_code(redist::nccl::all_gather(mesh, too_big, l, 1, a.get(), total, b.get(), total * n,
                                         s.get(), total * n),
                Errc::invalid_argument, "all_gather over an invalid group");
  if (n > 1)
    t.expect_code(redist::nccl::all_gather(mesh, whole, l, 1, a.get(), total, b.get(), total * n,
                                           s.get(), redist::all_gather_scratch_bytes(l, 1, n) - 1),
                  Errc::buffer_too_small, "all_gather with one byte of scratch too few");
  t.expect_code(redist::nccl::all_to_all(mesh, whole, l, 1, 1, a.get(), total, b.get(), total,
                                         s.get(), total),
                Errc::invalid_argument, "all_to_all with s == t");
  t.expect_code(redist::nccl::all_gather(mesh, whole, l, 0, a.get(), total, a.get() + 8, total * n,
                                         s.get(), total * n),
                Errc::overlap, "all_gather with overlapping source and destination");
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = r;
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n - 1, l, a.get(), total, b.get(), total),
                Errc::mesh_mismatch, "all_permute with a short table");
  table[n - 1] = n;
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, l, a.get(), total, b.get(), total),
                Errc::invalid_argument, "all_permute reading from a rank outside the mesh");
  t.expect_code(mesh.synchronize(), Errc::ok, "synchronize after refused calls");
}

// Only the last rank passes a destination that is too short.
void one_rank_error_is_agreed(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_flat_mesh(stream.get(), &mesh, t)) return;
  const int n = mesh.size(), me = mesh.rank();
  const Group whole{1, n};
  if (Status st = mesh.prepare(&whole, 1); !st.ok()) return t.fail("prepare: " + st.message());
  const Layout l = layout_of({2, 3}, 8);
  const std::size_t total = redist::bytes(l);
  DeviceBuffer a(total * n, t), b(total * n, t), s(total * n, t);
  if (!a || !b || !s) return;
  const bool culprit = me == n - 1;
  const std::size_t dst_bytes = culprit ? total * n - 1 : total * n;
  const Errc want = culprit ? Errc::buffer_too_small : Errc::remote_error;
  t.expect_code(redist::nccl::all_gather(mesh, whole, l, 0, a.get(), total, b.get(), dst_bytes,
                                         s.get(), total * n),
                want, "all_gather, last rank's destination short");
  t.expect_code(redist::nccl::all_to_all(mesh, whole, layout_of({2, 3 * static_cast<std::size_t>(n)}, 8),
                                         0, 1, a.get(), total * n, b.get(), culprit ? 0 : total * n,
                                         s.get(), total * n),
                want, "all_to_all, last rank's destination short");
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = (r + 1) % n;
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, l, a.get(), total, b.get(),
                                          culprit ? total - 1 : total),
                want, "all_permute, last rank's destination short");
  // The mesh still works afterwards.
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, l, a.get(), total, b.get(), total),
                Errc::ok, "all_permute after the refused calls");
  t.expect_code(mesh.synchronize(), Errc::ok, "synchronize");
}

// Only rank 0 passes a different (but valid) table, layout, dim pair or
// group, or group list: every rank must refuse (before the arguments were
// agreed, some ranks returned ok and others waited inside NCCL).
void one_rank_different_arguments_are_agreed(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_flat_mesh(stream.get(), &mesh, t)) return;
  const int n = mesh.size();
  if (n == 1) return;
  const bool odd_one = mesh.rank() == 0;
  const Group whole{1, n}, single{1, 1};
  t.expect_code(mesh.prepare(odd_one ? &whole : &single, 1), Errc::invalid_argument,
                "prepare with a group list that differs on rank 0");
  if (Status st = mesh.prepare(&whole, 1); !st.ok()) return t.fail("prepare: " + st.message());
  const auto N = static_cast<std::size_t>(n);
  const Layout l = layout_of({N, 2 * N}, 4);
  const Layout other = layout_of({2 * N, 2 * N}, 4);
  const std::size_t total = redist::bytes(other) * N;
  DeviceBuffer a(total, t), b(total, t), s(total, t);
  if (!a || !b || !s) return;
  auto gather = [&](Group g, const Layout& layout, int dim) {
    return redist::nccl::all_gather(mesh, g, layout, dim, a.get(), total, b.get(), total, s.get(), total);
  };
  auto exchange = [&](Group g, const Layout& layout, int src_dim, int tgt_dim) {
    return redist::nccl::all_to_all(mesh, g, layout, src_dim, tgt_dim, a.get(), total, b.get(), total,
                                    s.get(), total);
  };
  t.expect_code(gather(whole, odd_one ? other : l, 0), Errc::invalid_argument, "all_gather, layout differs");
  t.expect_code(gather(whole, l, odd_one ? 1 : 0), Errc::invalid_argument, "all_gather, dim differs");
  t.expect_code(gather(odd_one ? single : whole, l, 0), Errc::invalid_argument, "all_gather, group differs");
  t.expect_code(exchange(whole, odd_one ? other : l, 0, 1), Errc::invalid_argument, "all_to_all, layout differs");
  t.expect_code(exchange(whole, l, odd_one ? 1 : 0, odd_one ? 0 : 1), Errc::invalid_argument,
                "all_to_all, dims differ");
  t.expect_code(exchange(odd_one ? single : whole, l, 0, 1), Errc::invalid_argument, "all_to_all, group differs");
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = odd_one ? r : (r + 1) % n;
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, l, a.get(), total, b.get(), total),
                Errc::invalid_argument, "all_permute, table differs");
  for (int r = 0; r < n; ++r) table[r] = (r + 1) % n;
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, odd_one ? other : l, a.get(), total, b.get(),
                                          total),
                Errc::invalid_argument, "all_permute, layout differs");
  // The mesh still works afterwards.
  t.expect_code(redist::nccl::all_permute(mesh, table.data(), n, l, a.get(), total, b.get(), total),
                Errc::ok, "all_permute after the refused calls");
  t.expect_code(mesh.synchronize(), Errc::ok, "synchronize");
}

}  // namespace

void add_misuse_cases(std::vector<Case>& cases) {
  cases.push_back({"bad groups, buffers and tables on a created mesh", Needs::gpu, bad_groups_and_tables});
  cases.push_back({"one rank's bad buffer fails every member", Needs::gpu, one_rank_error_is_agreed});
  cases.push_back({"one rank's different arguments fail every member", Needs::gpu,
                   one_rank_different_arguments_are_agreed});
}

}  // namespace gputest
