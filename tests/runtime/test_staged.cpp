// redist::Staged (redist/staged.hpp), the executor of a hybrid that
// generated headers and the C ABI run, with two direct exchanges over the
// world: a 1-d array sharded over the ranks is moved to the ranks in
// reverse order (the intermediate, in the workspace's first bytes) and
// back, every element of the intermediate and of the destination checked;
// misuse refused on every rank: a workspace one byte short on rank 0, an
// empty plan, a plan without two parts, a workspace shorter than the
// intermediate.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "exchange_problems.hpp"
#include "redist/staged.hpp"
#include "support.hpp"

namespace {

using redist::Errc;
using namespace exchange_test;

constexpr std::size_t kBox = 8;  // elements per rank

// There (flat_problem: the ranks in reverse) and back again.
std::unique_ptr<redist::StagedPart> there(const Problem& p) {
  return redist::ExchangePart::make(p.source, p.source_layout, p.target, p.target_layout, p.elem_bytes, {});
}
std::unique_ptr<redist::StagedPart> back(const Problem& p) {
  return redist::ExchangePart::make(p.target, p.target_layout, p.source, p.source_layout, p.elem_bytes, {});
}

TEST_CASE("staged plan: two exchanges through the intermediate, every element; misuse refused on every rank") {
  const int n = test::world_size(), me = test::world_rank();
  const Problem p = flat_problem(n, kBox * n);
  const std::size_t mid_bytes = kBox * sizeof(std::int32_t);
  redist::Staged plan;
  REQUIRE(redist::Staged::create(MPI_COMM_WORLD, "test", mid_bytes, mid_bytes, there(p), back(p), &plan).ok());
  CHECK(plan.source_bytes() == mid_bytes);
  CHECK(plan.target_bytes() == mid_bytes);

  std::vector<std::int32_t> src(kBox), dst(kBox, -1), workspace(kBox, -1);
  for (std::size_t i = 0; i < kBox; ++i) src[i] = static_cast<std::int32_t>(me * kBox + i);
  REQUIRE(plan.run(src.data(), mid_bytes, dst.data(), mid_bytes, workspace.data(), mid_bytes, "test").ok());
  // World rank r is the reversed mesh's device n - 1 - r.
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kBox; ++i) {
    wrong += workspace[i] != static_cast<std::int32_t>((n - 1 - me) * kBox + i);
    wrong += dst[i] != src[i];
  }
  CHECK(wrong == 0);

  const redist::Status short_ws =
      plan.run(src.data(), mid_bytes, dst.data(), mid_bytes, workspace.data(), mid_bytes - (me == 0), "test");
  if (me == 0) CHECK_ERROR(short_ws, Errc::buffer_too_small, "test: the workspace has 31 bytes, the plan needs 32");
  else CHECK_ERROR(short_ws, Errc::remote_error, "test: another rank reported an error");

  redist::Staged empty;
  CHECK_ERROR(empty.run(src.data(), mid_bytes, dst.data(), mid_bytes, workspace.data(), mid_bytes, "test"),
              Errc::invalid_argument, "test: the staged plan is empty");
  redist::Staged refused;
  CHECK_ERROR(redist::Staged::create(MPI_COMM_WORLD, "test", mid_bytes, mid_bytes, there(p), nullptr, &refused),
              Errc::invalid_argument, "test: a staged plan without two parts");
  CHECK_ERROR(redist::Staged::create(MPI_COMM_WORLD, "test", mid_bytes, mid_bytes - 1, there(p), back(p), &refused),
              Errc::invalid_argument, "test: a staged plan's workspace is shorter than its intermediate");
}

}  // namespace
