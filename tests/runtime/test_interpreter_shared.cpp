// The plan interpreter's single copy (redist/interpreter.hpp) without the
// C ABI: hand-built programs of one all_gather and one all_to_all over the
// whole world {x:n} (n = 4 in the brief's case, every world size of the
// suite alike), run with src, dst and workspace from redist::shared_alloc
// (peers' pieces read straight out of their arrays, direct_bytes() the
// bytes from the n - 1 peers exactly) and on plain arrays (everything by
// MPI, direct_bytes() 0): every element of every rank, twice on the same
// arrays, so that a second run cannot pass on what the first one left.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "redist/interpreter.hpp"
#include "redist/shared.hpp"
#include "support.hpp"

namespace {

using Element = std::int32_t;
// The element at (row, col) of the global matrix in round `round`.
using Value = std::function<Element(int round, std::size_t row, std::size_t col)>;

redist::Layout matrix(std::size_t rows, std::size_t cols) {
  redist::Layout l{};
  l.ndim = 2;
  l.extent[0] = rows;
  l.extent[1] = cols;
  l.elem_bytes = sizeof(Element);
  return l;
}

// A program of `step` alone, src to dst, over the world as mesh {x:n}.
redist::PlanProgram one_step_program(const redist::PlanStep& step, const redist::Layout& target,
                                     std::size_t scratch_bytes) {
  redist::PlanProgram p;
  p.mesh_sizes = {test::world_size()};
  p.src_layout = step.layout;
  p.tgt_layout = target;
  p.scratch_bytes = scratch_bytes;
  p.groups = {step.group};
  p.steps = {step};
  return p;
}

// Where this rank's arrays lie: in buffers of shared_alloc over the world,
// or in plain memory.
struct Arrays {
  bool shared;
  std::size_t src_bytes, dst_bytes, workspace_bytes;
  void* src = nullptr;
  void* dst = nullptr;
  void* workspace = nullptr;
  std::vector<unsigned char> plain_src, plain_dst, plain_workspace;

  Arrays(bool in_shared, const redist::PlanProgram& p)
      : shared(in_shared),
        src_bytes(redist::bytes(p.src_layout)),
        dst_bytes(redist::bytes(p.tgt_layout)),
        workspace_bytes(p.workspace_bytes()) {
    if (shared) {
      src = allocate(src_bytes);
      dst = allocate(dst_bytes);
      workspace = allocate(workspace_bytes);
    } else {
      // One byte more: a distinct pointer even for an empty workspace.
      plain_src.assign(src_bytes + 1, 0);
      plain_dst.assign(dst_bytes + 1, 0);
      plain_workspace.assign(workspace_bytes + 1, 0);
      src = plain_src.data();
      dst = plain_dst.data();
      workspace = plain_workspace.data();
    }
  }
  Arrays(const Arrays&) = delete;
  Arrays& operator=(const Arrays&) = delete;
  ~Arrays() {
    if (!shared) return;
    CHECK(redist::shared_free(MPI_COMM_WORLD, workspace).ok());
    CHECK(redist::shared_free(MPI_COMM_WORLD, dst).ok());
    CHECK(redist::shared_free(MPI_COMM_WORLD, src).ok());
  }

  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    const redist::Status st = redist::shared_alloc(MPI_COMM_WORLD, bytes, &p);
    REQUIRE_MESSAGE(st.ok(), st.message());
    REQUIRE(p != nullptr);
    return p;
  }
};

// Runs `p` twice on the same arrays: this rank's source box (its corner at
// (src_row0, src_col0) of the global matrix) filled from `value`, its
// target box (at (dst_row0, dst_col0)) checked element by element, and
// direct_bytes() after each run.
void run_twice(const redist::PlanProgram& p, bool shared, const Value& value, std::size_t src_row0,
               std::size_t src_col0, std::size_t dst_row0, std::size_t dst_col0, std::size_t expect_direct) {
  redist::PlanInterpreter exec;
  const redist::Status bound = redist::PlanInterpreter::bind(&p, MPI_COMM_WORLD, &exec);
  REQUIRE_MESSAGE(bound.ok(), bound.message());
  Arrays a(shared, p);
  auto* src = static_cast<Element*>(a.src);
  auto* dst = static_cast<Element*>(a.dst);
  const std::string arrays = shared ? "shared arrays" : "plain arrays";
  const std::size_t src_cols = p.src_layout.extent[1], dst_cols = p.tgt_layout.extent[1];
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < p.src_layout.extent[0]; ++i)
      for (std::size_t j = 0; j < src_cols; ++j) src[i * src_cols + j] = value(round, src_row0 + i, src_col0 + j);
    std::fill(dst, dst + redist::num_elements(p.tgt_layout), Element{-1});
    const redist::Status st = exec.run(a.src, a.src_bytes, a.dst, a.dst_bytes, a.workspace, a.workspace_bytes);
    REQUIRE_MESSAGE(st.ok(), st.message());
    long wrong = 0;
    for (std::size_t i = 0; i < p.tgt_layout.extent[0]; ++i)
      for (std::size_t j = 0; j < dst_cols; ++j)
        wrong += dst[i * dst_cols + j] != value(round, dst_row0 + i, dst_col0 + j);
    CHECK_MESSAGE(wrong == 0, arrays << ", round " << round << ", rank " << test::world_rank() << ": " << wrong
                                     << " wrong elements");
    CHECK_MESSAGE(exec.direct_bytes() == expect_direct, arrays << ", round " << round << ": direct_bytes "
                                                               << exec.direct_bytes() << ", expected "
                                                               << expect_direct);
  }
}

}  // namespace

TEST_CASE("interpreter single copy: all_gather along columns over {x:n} from shared arrays reads the n - 1 "
          "peers' inputs in place (direct_bytes (n - 1) x the input); plain arrays go by MPI (0)") {
  const int n = test::world_size(), me = test::world_rank();
  const auto size = static_cast<std::size_t>(n);
  // Global matrix [2][3n]; rank r holds columns [3r, 3r + 3), every rank all of it after the step.
  redist::PlanStep gather{};
  gather.op = redist::PlanOp::all_gather;
  gather.group = {1, n};
  gather.layout = matrix(2, 3);
  gather.dim_a = 1;
  gather.input = redist::PlanBuffer::src;
  gather.output = redist::PlanBuffer::dst;
  const redist::Layout target = redist::all_gather_out(gather.layout, 1, size);
  const redist::PlanProgram p =
      one_step_program(gather, target, redist::all_gather_scratch_bytes(gather.layout, 1, size));
  const Value value = [n](int round, std::size_t row, std::size_t col) {
    return static_cast<Element>(1000000 * (round + 1) + row * 3 * static_cast<std::size_t>(n) + col);
  };
  const std::size_t mine = static_cast<std::size_t>(me) * 3;
  run_twice(p, true, value, 0, mine, 0, 0, (size - 1) * redist::bytes(gather.layout));
  run_twice(p, false, value, 0, mine, 0, 0, 0);
}

TEST_CASE("interpreter single copy: all_to_all transpose over {x:n} (rows sharded to columns sharded) from "
          "shared arrays reads (n - 1)/n of the local bytes in place; plain arrays go by MPI (0)") {
  const int n = test::world_size(), me = test::world_rank();
  const auto size = static_cast<std::size_t>(n);
  // Global matrix [2n][2n]: rank r holds rows [2r, 2r + 2) before the step, columns [2r, 2r + 2) after.
  redist::PlanStep transpose{};
  transpose.op = redist::PlanOp::all_to_all;
  transpose.group = {1, n};
  transpose.layout = matrix(2, 2 * size);
  transpose.dim_a = 0;
  transpose.dim_b = 1;
  transpose.input = redist::PlanBuffer::src;
  transpose.output = redist::PlanBuffer::dst;
  const redist::Layout target = redist::all_to_all_out(transpose.layout, 0, 1, size);
  const redist::PlanProgram p =
      one_step_program(transpose, target, redist::all_to_all_scratch_bytes(transpose.layout, 0, 1, size));
  const Value value = [n](int round, std::size_t row, std::size_t col) {
    return static_cast<Element>(1000000 * (round + 1) + row * 2 * static_cast<std::size_t>(n) + col);
  };
  const std::size_t mine = static_cast<std::size_t>(me) * 2;
  run_twice(p, true, value, mine, 0, 0, mine, (size - 1) * redist::bytes(transpose.layout) / size);
  run_twice(p, false, value, mine, 0, 0, mine, 0);
}
