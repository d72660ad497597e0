// The collectives on a mesh over MPI_COMM_WORLD (one GPU per rank), against
// the CPU reference of local.hpp applied to every member's source, which
// each rank can compute since sources are labels; and whole
// redistributions whose results are checked against the global array.
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"
#include "redist/local.hpp"

namespace gputest {

namespace {

using redist::Group;
using redist::Layout;

std::vector<Group> all_groups(int n) {
  std::vector<Group> gs;
  for (int stride = 1; stride <= n; ++stride)
    for (int size = 1; stride * size <= n; ++size)
      if (n % (stride * size) == 0) gs.push_back({stride, size});
  return gs;
}

std::string group_text(Group g) {
  return "group (" + std::to_string(g.stride) + ", " + std::to_string(g.size) + ")";
}

bool make_mesh(const std::vector<int>& axes, cudaStream_t stream, redist::nccl::Mesh* mesh,
               Tally& t) {
  if (redist::Status st = redist::nccl::Mesh::create(MPI_COMM_WORLD, axes.data(),
                                                     static_cast<int>(axes.size()), stream, mesh);
      !st.ok()) {
    t.fail(st.message());
    return false;
  }
  const std::vector<Group> groups = all_groups(world_size());
  if (redist::Status st = mesh->prepare(groups.data(), groups.size()); !st.ok()) {
    t.fail(st.message());
    return false;
  }
  return true;
}

// Buffers of one call: source uploaded, destination and scratch poisoned.
struct CallBuffers {
  DeviceBuffer src, dst, scratch;
  CallBuffers(const std::vector<unsigned char>& source, std::size_t dst_bytes,
              std::size_t scratch_bytes, Tally& t)
      : src(source.size(), t), dst(dst_bytes + kCanary, t), scratch(scratch_bytes + kCanary, t) {
    ok = src && dst && scratch && upload(src.get(), source, t) &&
         poison(dst.get(), dst.bytes(), t) && poison(scratch.get(), scratch.bytes(), t);
  }
  bool ok = false;
};

// Finishes a call: synchronizes, then compares dst with want and checks
// that scratch was not used past what the call asked for.
void finish(const redist::nccl::Mesh& mesh, const redist::Status& st, CallBuffers& b,
            const std::vector<unsigned char>& want, std::size_t scratch_bytes, Tally& t,
            const std::string& what) {
  if (!st.ok()) return t.fail(what + ": " + st.message());
  if (redist::Status s = mesh.synchronize(); !s.ok()) return t.fail(what + ": " + s.message());
  expect_bytes(download(b.dst.get(), want.size() + kCanary, t), want, t, what);
  const std::vector<unsigned char> scratch = download(b.scratch.get(), b.scratch.bytes(), t);
  for (std::size_t i = scratch_bytes; i < scratch.size(); ++i)
    if (scratch[i] != kPoison) return t.fail(what + ": wrote past the scratch it asked for");
}

const std::vector<std::vector<std::size_t>> kShapes = {{6}, {2, 6}, {3, 2, 4}};

void group_collectives(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_mesh({world_size()}, stream.get(), &mesh, t)) return;
  const int me = mesh.rank();
  unsigned salt = 0;
  for (Group g : all_groups(mesh.size())) {
    const auto size = static_cast<std::size_t>(g.size);
    const auto index = static_cast<std::size_t>(mesh.index_in(g));
    for (const auto& shape : kShapes) {
      for (std::size_t elem : {1, 4, 16}) {
        const Layout l = layout_of(shape, elem);
        const std::size_t total = redist::bytes(l);
        ++salt;
        std::vector<std::vector<unsigned char>> members;
        for (std::size_t k = 0; k < size; ++k)
          members.push_back(labelled(redist::group_member(me, g, static_cast<int>(k)), total, salt));
        const std::vector<unsigned char>& mine = members[index];

        for (int d = 0; d < l.ndim; ++d) {
          const std::string at = describe(l) + " dim " + std::to_string(d) + " " + group_text(g);
          // all_gather: the members' arrays concatenated along d.
          {
            std::vector<unsigned char> all, want(total * size);
            for (const auto& m : members) all.insert(all.end(), m.begin(), m.end());
            (void)redist::local::concat_blocks(l, d, size, all.data(), all.size(), want.data(),
                                               want.size());
            const std::size_t sb = redist::all_gather_scratch_bytes(l, d, size);
            CallBuffers b(mine, want.size(), sb, t);
            if (!b.ok) return;
            finish(mesh,
                   redist::nccl::all_gather(mesh, g, l, d, b.src.get(), total, b.dst.get(),
                                            want.size(), b.scratch.get(), sb),
                   b, want, sb, t, "all_gather " + at);
          }
          // dyn_slice: chunk index_in(g) along d.
          if (shape[d] % size == 0) {
            std::vector<unsigned char> want(total / size);
            (void)redist::local::slice(l, d, size, index, mine.data(), total, want.data(),
                                       want.size());
            CallBuffers b(mine, want.size(), 0, t);
            if (!b.ok) return;
            finish(mesh,
                   redist::nccl::dyn_slice(mesh, g, l, d, b.src.get(), total, b.dst.get(),
                                           want.size()),
                   b, want, 0, t, "dyn_slice " + at);
          }
          // all_to_all(s = d, t = e): chunk `index` along e of every member,
          // concatenated along d.
          for (int e = 0; e < l.ndim; ++e) {
            if (e == d || shape[e] % size != 0) continue;
            const Layout block = redist::dyn_slice_out(l, e, size);
            const std::size_t chunk = total / size;
            std::vector<unsigned char> chunks(total), want(total);
            for (std::size_t k = 0; k < size; ++k)
              (void)redist::local::slice(l, e, size, index, members[k].data(), total,
                                         chunks.data() + k * chunk, chunk);
            (void)redist::local::concat_blocks(block, d, size, chunks.data(), total, want.data(),
                                               total);
            const std::size_t sb = redist::all_to_all_scratch_bytes(l, d, e, size);
            CallBuffers b(mine, total, sb, t);
            if (!b.ok) return;
            finish(mesh,
                   redist::nccl::all_to_all(mesh, g, l, d, e, b.src.get(), total, b.dst.get(),
                                            total, b.scratch.get(), sb),
                   b, want, sb, t, "all_to_all " + at + " <- dim " + std::to_string(e));
          }
        }
      }
    }
  }
}

void permutations(Tally& t) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_mesh({world_size()}, stream.get(), &mesh, t)) return;
  const int n = mesh.size(), me = mesh.rank();
  std::vector<std::vector<int>> tables(4, std::vector<int>(n));
  for (int r = 0; r < n; ++r) {
    tables[0][r] = r;               // everyone keeps its own
    tables[1][r] = n - 1 - r;       // reversal
    tables[2][r] = (r + 1) % n;     // rotation
    tables[3][r] = 0;               // everyone reads rank 0
  }
  unsigned salt = 100;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Layout l = layout_of({3, 5}, 8);
    const std::size_t total = redist::bytes(l);
    ++salt;
    const std::vector<unsigned char> want = labelled(tables[i][me], total, salt);
    CallBuffers b(labelled(me, total, salt), total, 0, t);
    if (!b.ok) return;
    finish(mesh,
           redist::nccl::all_permute(mesh, tables[i].data(), tables[i].size(), l, b.src.get(),
                                     total, b.dst.get(), total),
           b, want, 0, t, "all_permute table " + std::to_string(i));
  }
}

// ---- whole redistributions ------------------------------------------------------

// A distributed type: per dimension, mesh axes major to minor.
using Type = std::vector<std::vector<int>>;

// Element bytes of the global array at global position `pos`.
void global_element(const std::vector<std::size_t>& pos, const std::vector<std::size_t>& global,
                    std::size_t elem, unsigned char* out) {
  std::size_t lin = 0;
  for (std::size_t d = 0; d < global.size(); ++d) lin = lin * global[d] + pos[d];
  for (std::size_t b = 0; b < elem; ++b) out[b] = label(-1, lin, b, 7);
}

// The local array that `rank` holds under `type` (docs/model.md: the box at
// off_d = n_d * idx_d(c)), computed from the global array.
std::vector<unsigned char> box(const std::vector<int>& axes, const Type& type,
                               const std::vector<std::size_t>& global, std::size_t elem, int rank) {
  const std::size_t nd = global.size();
  std::vector<int> coord(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    coord[i] = rank % axes[i];
    rank /= axes[i];
  }
  std::vector<std::size_t> local(nd), off(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    std::size_t parts = 1, idx = 0;
    for (int a : type[d]) {
      parts *= axes[a];
      idx = idx * axes[a] + coord[a];
    }
    local[d] = global[d] / parts;
    off[d] = local[d] * idx;
  }
  std::size_t count = 1;
  for (std::size_t e : local) count *= e;
  std::vector<unsigned char> out(count * elem);
  std::vector<std::size_t> pos(nd);
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t rest = i;
    for (std::size_t d = nd; d-- > 0;) {
      pos[d] = off[d] + rest % local[d];
      rest /= local[d];
    }
    global_element(pos, global, elem, out.data() + i * elem);
  }
  return out;
}

Layout layout_of_type(const std::vector<int>& axes, const Type& type,
                      const std::vector<std::size_t>& global, std::size_t elem) {
  std::vector<std::size_t> local(global);
  for (std::size_t d = 0; d < global.size(); ++d)
    for (int a : type[d]) local[d] /= axes[a];
  return layout_of(local, elem);
}

// One step of a plan, run on the workspace: from buffer `in` to `out`.
struct Step {
  enum Kind { slice, gather, to_all, permute } kind;
  Group group;
  int dim, dim2;        // dim2: all_to_all's t
  std::vector<int> table;
  Type result;
};

// Runs `steps` from `start` with the workspace rule of redist.hpp and
// compares every intermediate local array with its box of the global array.
void run_plan(const std::vector<int>& axes, const std::vector<std::size_t>& global,
              std::size_t elem, const Type& start, const std::vector<Step>& steps, Tally& t,
              const std::string& name) {
  Stream stream(t);
  redist::nccl::Mesh mesh;
  if (stream.get() == nullptr || !make_mesh(axes, stream.get(), &mesh, t)) return;
  const int me = mesh.rank();
  std::size_t peak = redist::bytes(layout_of_type(axes, start, global, elem)), scratch = 0;
  {
    Type type = start;
    for (const Step& s : steps) {
      const Layout l = layout_of_type(axes, type, global, elem);
      const auto size = static_cast<std::size_t>(s.group.size);
      if (s.kind == Step::gather) scratch = std::max(scratch, redist::all_gather_scratch_bytes(l, s.dim, size));
      if (s.kind == Step::to_all)
        scratch = std::max(scratch, redist::all_to_all_scratch_bytes(l, s.dim, s.dim2, size));
      type = s.result;
      peak = std::max(peak, redist::bytes(layout_of_type(axes, type, global, elem)));
    }
  }
  DeviceBuffer work(2 * peak + scratch + kCanary, t);
  if (!work || !poison(work.get(), work.bytes(), t)) return;
  unsigned char* buf[2] = {work.get(), work.get() + peak};
  unsigned char* scratch_ptr = work.get() + 2 * peak;
  if (!upload(buf[0], box(axes, start, global, elem, me), t)) return;

  Type type = start;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const Layout l = layout_of_type(axes, type, global, elem);
    unsigned char* in = buf[i % 2];
    unsigned char* out = buf[(i + 1) % 2];
    redist::Status st;
    switch (s.kind) {
      case Step::slice: st = redist::nccl::dyn_slice(mesh, s.group, l, s.dim, in, peak, out, peak); break;
      case Step::gather:
        st = redist::nccl::all_gather(mesh, s.group, l, s.dim, in, peak, out, peak, scratch_ptr, scratch);
        break;
      case Step::to_all:
        st = redist::nccl::all_to_all(mesh, s.group, l, s.dim, s.dim2, in, peak, out, peak,
                                      scratch_ptr, scratch);
        break;
      case Step::permute:
        st = redist::nccl::all_permute(mesh, s.table.data(), s.table.size(), l, in, peak, out, peak);
        break;
    }
    const std::string what = name + " step " + std::to_string(i);
    if (!st.ok()) return t.fail(what + ": " + st.message());
    if (redist::Status sync = mesh.synchronize(); !sync.ok()) return t.fail(what + ": " + sync.message());
    type = s.result;
    const std::vector<unsigned char> want = box(axes, type, global, elem, me);
    const std::vector<unsigned char> got = download(out, want.size(), t);
    t.expect(got == want, what + ": local array is not the box of the global array");
  }
  const std::vector<unsigned char> tail = download(work.get() + 2 * peak + scratch, kCanary, t);
  for (unsigned char c : tail)
    if (c != kPoison) return t.fail(name + ": wrote past the workspace");
}

// docs/model.md's worked example on every mesh {x:a, y:b} with a*b ranks:
// [{x}] -> dyn_slice(0, y) -> [{x,y}] -> all_permute -> [{y,x}] -> all_gather(0) -> [{y}],
// with a second, unsharded dimension.
void worked_example(Tally& t) {
  const int n = world_size();
  for (int a = 1; a <= n; ++a) {
    if (n % a != 0) continue;
    const int b = n / a;
    const std::vector<int> axes = {a, b};
    // Under {y,x} device (cx, cy) holds box cy*a + cx, which under {x,y} is
    // held by the rank with that number.
    std::vector<int> table(n);
    for (int cx = 0; cx < a; ++cx)
      for (int cy = 0; cy < b; ++cy) table[cx * b + cy] = cy * a + cx;
    const Group x{b, a}, y{1, b};
    const std::vector<Step> steps = {
        {Step::slice, y, 0, 0, {}, {{0, 1}, {}}},
        {Step::permute, {1, 1}, 0, 0, table, {{1, 0}, {}}},
        {Step::gather, x, 0, 0, {}, {{1}, {}}},
    };
    for (std::size_t elem : {2, 16})
      run_plan(axes, {static_cast<std::size_t>(2 * n), 3}, elem, {{0}, {}}, steps, t,
               "worked example on {x:" + std::to_string(a) + ", y:" + std::to_string(b) + "}");
  }
}

// On {x:n}: [_, {x}, _] -> all_to_all(1, 2) -> [_, _, {x}] -> all_gather(2) -> [_, _, _]
// -> dyn_slice(1, x) -> [_, {x}, _]; both all_to_all and all_gather need
// packing and unpacking here.
void flat_steps(Tally& t) {
  const int n = world_size();
  const std::vector<int> axes = {n};
  const Group x{1, n};
  const std::vector<Step> steps = {
      {Step::to_all, x, 1, 2, {}, {{}, {}, {0}}},
      {Step::gather, x, 2, 0, {}, {{}, {}, {}}},
      {Step::slice, x, 1, 0, {}, {{}, {0}, {}}},
  };
  const auto un = static_cast<std::size_t>(n);
  for (std::size_t elem : {1, 8})
    run_plan(axes, {2, 2 * un, 3 * un}, elem, {{}, {0}, {}}, steps, t,
             "flat steps, " + std::to_string(elem) + "-byte elements");
}

}  // namespace

void add_collective_cases(std::vector<Case>& cases) {
  cases.push_back({"all_gather, all_to_all, dyn_slice over every group", Needs::gpu, group_collectives});
  cases.push_back({"all_permute from tables", Needs::gpu, permutations});
  cases.push_back({"worked example on every 2-axis mesh", Needs::gpu, worked_example});
  cases.push_back({"all_to_all, all_gather, dyn_slice pipeline", Needs::gpu, flat_steps});
}

}  // namespace gputest
