// doctest under MPI: every rank runs every test case.  Rank 0 prints the
// results in the tests' one protocol (TAP 13, tests/tap_count.sh) on stdout;
// doctest's console report, with each failure's account, goes to
// $REDIST_TEST_OUT.rank<r> for rank r when REDIST_TEST_OUT is set, else
// rank 0's to stdout too.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>

#include "support.hpp"

namespace test {

std::vector<unsigned char> source(int rank, const Index& ext, std::size_t elem, unsigned salt) {
  const std::size_t n = count(ext);
  std::vector<unsigned char> v(n * elem + kCanary, kPoison);
  for (std::size_t e = 0; e < n; ++e)
    for (std::size_t b = 0; b < elem; ++b) v[e * elem + b] = label(rank, e, b, salt);
  return v;
}

void Tally::canary(const std::vector<unsigned char>& buf, std::size_t used, const std::string& what) {
  for (std::size_t i = used; i < buf.size(); ++i)
    if (buf[i] != kPoison) {
      fail(what + ": wrote past its result, at byte " + std::to_string(i));
      return;
    }
}

void Tally::finish() {
  long total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (bad > 0) {
    INFO("rank " << world_rank() << ": " << bad << " failures, first: " << first);
    CHECK(bad == 0);
  }
  CHECK_MESSAGE(total == 0, "failures summed over all ranks");
}

std::vector<redist::Group> all_groups(int n) {
  std::vector<redist::Group> gs;
  for (int stride = 1; stride <= n; ++stride)
    for (int size = 1; stride * size <= n; ++size)
      if (n % (stride * size) == 0) gs.push_back({stride, size});
  return gs;
}

namespace {
// Created by the first test that uses it (flat_mesh), so that a run of a
// subset of the tests that never does has nothing to create or free.
redist::Mesh g_flat_mesh;
}  // namespace

redist::Mesh& flat_mesh() {
  if (g_flat_mesh.size() == 0) {
    const int axes[] = {world_size()};
    const redist::Status st = redist::Mesh::create(MPI_COMM_WORLD, axes, 1, &g_flat_mesh);
    REQUIRE_MESSAGE(st.ok(), st.message());
    const std::vector<redist::Group> gs = all_groups(world_size());
    const redist::Status sp = g_flat_mesh.prepare(gs.data(), gs.size());
    REQUIRE_MESSAGE(sp.ok(), sp.message());
  }
  return g_flat_mesh;
}

std::string describe(const Index& ext, std::size_t elem) {
  std::string s = "shape [";
  for (std::size_t i = 0; i < ext.size(); ++i) s += (i ? "," : "") + std::to_string(ext[i]);
  return s + "] elem " + std::to_string(elem);
}

// One result per test case for the whole world: failed when it failed on
// any rank, agreed by one allreduce at the case's end (every rank runs every
// case, in the same order).
struct TapReporter : doctest::IReporter {
  explicit TapReporter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {
    if (world_rank() == 0) std::printf("TAP version 13\n");
  }
  void test_run_end(const doctest::TestRunStats&) override {
    if (world_rank() == 0) std::printf("1..%d\n", number_);
    std::fflush(stdout);
  }
  void test_case_start(const doctest::TestCaseData& tc) override { name_ = tc.m_name; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    int failed_here = stats.testCaseSuccess ? 0 : 1, failed_anywhere = 0;
    MPI_Allreduce(&failed_here, &failed_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ++number_;
    if (world_rank() == 0) {
      std::printf("%s %d - %s (%d ranks)\n", failed_anywhere ? "not ok" : "ok", number_, name_.c_str(),
                  world_size());
      std::fflush(stdout);
    }
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  int number_ = 0;
  std::string name_;
};
REGISTER_REPORTER("tap", 1, TapReporter);

}  // namespace test

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = test::world_rank();
  int result = 0;
  {
    doctest::Context ctx;
    ctx.setOption("reporters", "console,tap");
    ctx.applyCommandLine(argc, argv);
    std::ofstream file;
    if (const char* out = std::getenv("REDIST_TEST_OUT")) {
      file.open(std::string(out) + ".rank" + std::to_string(rank));
      ctx.setCout(&file);
    } else if (rank != 0) {
      ctx.setOption("out", "/dev/null");
    }
    result = ctx.run();
    // The flat mesh's communicators must be freed before MPI_Finalize.
    test::g_flat_mesh = redist::Mesh();
  }
  MPI_Finalize();
  return result;
}
