// The driver that `redist run` compiles next to the generated header
// problem.hpp (namespace redist_gen::problem) and verify.hpp; for a direct
// exchange (-DREDIST_RUN_EXCHANGE) also model.hpp, the Coq model's boxes
// and lower bounds per world rank; for a hybrid (-DREDIST_RUN_HYBRID)
// model.hpp with the proven peak as well; for pending sums (-DREDIST_RUN_SUMS)
// model.hpp, the header as a SumsProblem with its proven peak; for composed
// cuts (-DREDIST_RUN_REGIONS) model.hpp, the layouts as written and the
// count each rank receives (with pending axes, -DREDIST_RUN_REDUCING too, and
// the pending axes); in place (-DREDIST_RUN_IN_PLACE) model.hpp with
// the boxes of the exchange.
// argv[1]: timed repeats; argv[2]: the file rank 0 writes its measurements
// to, one JSON object that redist reads as data: {"error": MESSAGE} or the
// fields of redist_verify::Outcome.
#define REDIST_VERIFY_MAIN
#include "problem.hpp"
#include "verify.hpp"

#ifdef REDIST_RUN_EXCHANGE
#include "model.hpp"

namespace {

redist::Status run_exchange(redist::Exchange& ex, const void* src, std::size_t src_bytes, void* dst,
                            std::size_t dst_bytes) {
  using T = redist_gen::problem::value_type;
  return redist_gen::problem::run(ex, static_cast<const T*>(src), src_bytes, static_cast<T*>(dst), dst_bytes);
}

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_exchange(REDIST_VERIFY_EXCHANGE(redist_gen::problem, redist_model, run_exchange), comm,
                                        repeats);
}

}  // namespace
#elif defined(REDIST_RUN_HYBRID)
#include "model.hpp"

namespace {

namespace hybrid = redist_gen::problem;

redist::Status run_hybrid(hybrid::Plan& plan, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                          void* workspace, std::size_t workspace_bytes) {
  using T = hybrid::value_type;
  return hybrid::run(plan, static_cast<const T*>(src), src_bytes, static_cast<T*>(dst), dst_bytes, workspace,
                     workspace_bytes);
}

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_hybrid<hybrid::Plan>(
      REDIST_VERIFY_HYBRID(redist_gen::problem, redist_model, redist_model::kPeakElems), &hybrid::create, &run_hybrid,
      comm, repeats);
}

}  // namespace
#elif defined(REDIST_RUN_REGIONS)
#include "model.hpp"

namespace {

redist::Status run_regions(redist::RegionExchange& ex, const void* src, std::size_t src_bytes, void* dst,
                           std::size_t dst_bytes) {
  using T = redist_gen::problem::value_type;
  return redist_gen::problem::run(ex, static_cast<const T*>(src), src_bytes, static_cast<T*>(dst), dst_bytes);
}

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
#ifdef REDIST_RUN_REDUCING
  return redist_verify::verify_regions(
      REDIST_VERIFY_REDUCING_REGIONS(redist_gen::problem, redist_model, run_regions), comm, repeats);
#else
  return redist_verify::verify_regions(REDIST_VERIFY_REGIONS(redist_gen::problem, redist_model, run_regions), comm,
                                       repeats);
#endif
}

}  // namespace
#elif defined(REDIST_RUN_IN_PLACE)
#include "model.hpp"

namespace {

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_in_place(REDIST_VERIFY_IN_PLACE(redist_gen::problem, redist_model), comm, repeats);
}

}  // namespace
#elif defined(REDIST_RUN_SUMS)
#include "model.hpp"

namespace {

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify_sums(redist_model::sums_problem(), comm, repeats);
}

}  // namespace
#else
namespace {

redist_verify::Outcome verify(MPI_Comm comm, int repeats) {
  return redist_verify::verify(REDIST_VERIFY_PROBLEM(redist_gen::problem), comm, repeats);
}

}  // namespace
#endif

namespace {

// A JSON string literal: the runtime's messages are ASCII, but quote and
// escape every byte that JSON does not allow raw.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

bool write_outcome(const char* path, const redist_verify::Outcome& o) {
  std::FILE* f = std::fopen(path, "w");
  if (f == nullptr) return false;
  if (!o.error.empty())
    std::fprintf(f, "{\"error\": %s}\n", json_string(o.error).c_str());
  else
    std::fprintf(f,
                 "{\"checked\": %ld, \"mismatches\": %ld, \"box_disagreements\": %ld, \"off_bound\": %ld, "
                 "\"recv_max\": %zu, \"guards_intact\": %s, \"news\": %ld, \"own_mallocs\": %ld, \"mallocs\": %ld, "
                 "\"median_s\": %.9e, \"peak_bytes\": %zu, \"used_ping\": %zu, \"used_pong\": %zu, "
                 "\"used_scratch\": %zu, \"heap_growth\": %zu}\n",
                 o.checked, o.mismatches, o.box_disagreements, o.off_bound, o.recv_max,
                 o.guards_intact ? "true" : "false", o.news, o.own_mallocs, o.mallocs, o.median_s, o.peak_bytes,
                 o.used_ping, o.used_pong, o.used_scratch, o.heap_growth);
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s REPEATS RESULT_FILE\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int repeats = std::atoi(argv[1]);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const redist_verify::Outcome o = verify(MPI_COMM_WORLD, repeats);
  int rc = 0;
  if (me == 0 && !write_outcome(argv[2], o)) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
