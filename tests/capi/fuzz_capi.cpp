// A fuzz of the C ABI's entry points (redist/redist.h), built with
// -fsanitize=address,undefined against an ASan build of libredist_plan: one
// property over COUNT inputs from a seeded generator, each a call of
// redist_plan_create, _create_with, _create_pending_from (random and mutated
// structs), redist_plan_check (mutated plan files, many via lines, many
// steps) or redist_plan_from_json (mutated `redist plan --json` reports,
// deep nesting), starting from the valid problems of SEED_DIR (fuzz.sh
// writes them: problems.txt, and K.plan and K.json for problem K).
//
// Every call must return a code and, where it fails, one NUL-terminated line
// (within any errlen, including tiny ones), never crash (ASan and UBSan abort
// on any memory or undefined-behaviour error); the planners and the checker
// answer 0, 1 (rejected plans only) or 2, never 3 (internal error) or 4.
// Every plan is queried: texts, figures, boxes of ranks in and out of range,
// steps, receives and contributions into arrays of exactly the size passed.
//
// Usage: fuzz_capi SEED_DIR COUNT [SEED] [--only N]   (--only: input N alone)
// Prints "N inputs: ... planned, ... rejected, ... refused" or the first
// failure (its input index, to rerun with --only).
#include <sanitizer/common_interface_defs.h>

#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "redist/redist.h"

namespace {

// splitmix64, one stream per input: input N is regenerated alone from the
// seed and N.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  bool one_in(std::size_t n) { return below(n) == 0; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

// MESH, TO_MESH, FROM, TO, DTYPE, STRATEGY; a plan file and a JSON report.
struct Seed {
  std::array<std::string, 6> fields;
  std::string plan, json;
};
std::vector<Seed> seeds;

const std::vector<std::string> kTokens = {
    "{", "}", "[", "]", ",", ":", "@", " @ ", "sum{", "x", "y", "a", "b", "p", "x.0", "0", "1", "2", "3", "-1",
    "65536", "65537", "2147483648", "1125899906842624", "18446744073709551616", "99999999999999999999", "1e999",
    "-0", "0.5", "via ", "via [4]\n", "exchange\n", "all_gather(0)\n", "dyn_slice(0, x)\n", "all_to_all(0, 1)\n",
    "all_permute([", "refine x = x.0:2 * x.1:2\n", "reduce_scatter(0, y)\n", "all_reduce(x)\n", "add_pending(x)\n",
    "\n", "#", "\"", "\\", "\\u0000", "null", "true", "{\"", "\":", "\xff", "\xc3\xa9", "\t", "f32", "c128", "i64"};

const std::vector<std::string> kNumbers = {"0", "1", "2", "7", "-1", "65536", "65537", "2147483647", "4294967296",
                                           "1125899906842623", "1125899906842624", "4611686018427387904",
                                           "99999999999999999999", "1.5", "1e3", ""};

// What the generator made, kept to print a failing input.
struct Input {
  std::string entry;
  std::vector<std::string> strings;
};

std::string random_bytes(Rng& r, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(1 + r.below(255));
  return s;
}

const std::string& seed_text(Rng& r, int which) {
  const Seed& s = r.pick(seeds);
  return which < 6 ? s.fields[which] : which == 6 ? s.plan : s.json;
}

// One mutation of s: bytes replaced, tokens inserted, ranges deleted,
// duplicated or repeated, numbers replaced, pieces of other seeds spliced in.
void mutate_once(Rng& r, std::string& s) {
  const std::size_t n = s.size();
  auto at = [&] { return r.below(n + 1); };
  switch (r.below(9)) {
    case 0:
      if (n > 0) s[r.below(n)] = static_cast<char>(1 + r.below(255));
      break;
    case 1:
    case 2:
      s.insert(at(), r.pick(kTokens));
      break;
    case 3:
      if (n > 0) {
        const std::size_t i = r.below(n);
        s.erase(i, 1 + r.below(std::min<std::size_t>(n - i, 16)));
      }
      break;
    case 4:
      if (n > 0) {
        const std::size_t i = r.below(n), len = 1 + r.below(std::min<std::size_t>(n - i, 64));
        s.insert(at(), s.substr(i, len));
      }
      break;
    case 5: {  // a run of digits replaced by a number near a limit
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < n; ++i)
        if (s[i] >= '0' && s[i] <= '9' && (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')) digits.push_back(i);
      if (digits.empty()) break;
      const std::size_t i = r.pick(digits);
      std::size_t j = i;
      while (j < n && s[j] >= '0' && s[j] <= '9') ++j;
      s.replace(i, j - i, r.pick(kNumbers));
      break;
    }
    case 6: {  // a piece of another seed's field, plan or report
      const std::string& other = seed_text(r, static_cast<int>(r.below(8)));
      if (other.empty()) break;
      const std::size_t i = r.below(other.size()), len = 1 + r.below(std::min<std::size_t>(other.size() - i, 200));
      s.insert(at(), other.substr(i, len));
      break;
    }
    case 7:
      s.insert(at(), random_bytes(r, 1 + r.below(8)));
      break;
    default:
      if (n > 0 && r.one_in(40)) {  // a piece repeated: long inputs, up to about 2 MB
        const std::size_t i = r.below(n), len = 1 + r.below(std::min<std::size_t>(n - i, 32));
        const std::string piece = s.substr(i, len);
        std::string many;
        for (std::size_t k = 1 + r.below(2000000 / len); k > 0; --k) many += piece;
        s.insert(i, many);
      } else if (n > 0) {
        s.erase(r.below(n));
      }
  }
}

std::string mutated(Rng& r, std::string s) {
  for (std::size_t k = 1 + r.below(4); k > 0; --k) mutate_once(r, s);
  return s;
}

// A field of a seed: as it is, mutated, or from another seed.
std::string field(Rng& r, const Seed& s, int k, std::size_t mutate_one_in) {
  if (r.one_in(12)) return seed_text(r, k);
  return r.one_in(mutate_one_in) ? mutated(r, s.fields[k]) : s.fields[k];
}

// ---- checking the answers ----

long failures = 0;
const Input* current = nullptr;
long current_index = -1;

std::string excerpt(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && out.size() < 300; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') out += "\\n";
    else if (c < 32 || c >= 127) { char b[8]; std::snprintf(b, sizeof b, "\\x%02x", c); out += b; }
    else out += static_cast<char>(c);
  }
  if (s.size() > 300) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

void print_input(const Input& in) {
  std::printf("  entry %s\n", in.entry.c_str());
  for (std::size_t k = 0; k < in.strings.size(); ++k) std::printf("  [%zu] '%s'\n", k, excerpt(in.strings[k]).c_str());
}

void fail(const std::string& why) {
  if (failures++ == 0) {
    std::printf("FAILED on input %ld: %s\n", current_index, why.c_str());
    if (current) print_input(*current);
  }
}

// ASan and UBSan abort on an error; say which input it was.
void on_death() {
  std::printf("CRASHED on input %ld (rerun it alone with --only %ld)\n", current_index, current_index);
  if (current) print_input(*current);
  std::fflush(stdout);
}

// An error buffer of exactly errlen bytes on the heap (ASan sees a write past
// it): usually 512 bytes, sometimes a few, sometimes none (NULL, 0).
struct ErrBuf {
  std::unique_ptr<char[]> bytes;
  std::size_t len;
  explicit ErrBuf(Rng& r) : len(r.one_in(20) ? 0 : r.one_in(10) ? 1 + r.below(12) : 512) {
    if (len > 0 || r.one_in(2)) {
      bytes.reset(new char[len + (len == 0)]);
      std::memset(bytes.get(), '\x55', len + (len == 0));
    }
  }
  char* ptr() { return bytes.get(); }
};

// A failing call's code is among `allowed` and its message one line,
// NUL-terminated within errlen (not written at all when errlen is 0).
void check_code(const char* call, int rc, std::initializer_list<int> allowed, ErrBuf& err) {
  bool ok = false;
  for (int a : allowed) ok = ok || rc == a;
  if (!ok) {
    fail(std::string(call) + ": code " + std::to_string(rc) +
         (err.len > 0 ? std::string(": ") + std::string(err.ptr(), strnlen(err.ptr(), err.len)) : ""));
    return;
  }
  if (rc == REDIST_OK || err.ptr() == nullptr) return;
  if (err.len == 0) {
    if (err.ptr()[0] != '\x55') fail(std::string(call) + ": wrote into an error buffer of length 0");
    return;
  }
  const std::size_t len = strnlen(err.ptr(), err.len);
  if (len == err.len) fail(std::string(call) + ": message not NUL-terminated within errlen");
  else if (len == 0 && err.len > 1) fail(std::string(call) + ": empty message");
  else if (std::memchr(err.ptr(), '\n', len) != nullptr)
    fail(std::string(call) + ": message of more than one line: " + excerpt(std::string(err.ptr(), len)));
}

// Every query of a plan.
void query(Rng& r, const redist_plan_t* plan) {
  const int devices = redist_plan_devices(plan), ndim = redist_plan_ndim(plan), kind = redist_plan_by_exchange(plan);
  const std::size_t steps = redist_plan_num_steps(plan);
  const char *json = redist_plan_json(plan), *text = redist_plan_text(plan), *guarantees = redist_plan_guarantees(plan);
  if (devices < 1 || ndim < 1 || ndim > REDIST_MAX_DIMS || kind < 0 || kind > 3 || redist_plan_elem_bytes(plan) < 1)
    return fail("a plan with devices " + std::to_string(devices) + ", ndim " + std::to_string(ndim) + ", kind " +
                std::to_string(kind));
  if (json == nullptr || json[0] != '{' || text == nullptr || text[0] == '\0' || guarantees == nullptr)
    return fail("a plan without its JSON, text or guarantees");
  for (std::size_t i = 0; i < steps; ++i)
    if (redist_plan_step_text(plan, i) == nullptr) return fail("step text " + std::to_string(i) + " is NULL");
  if (redist_plan_step_text(plan, steps) != nullptr) fail("a step text past the end");
  (void)(redist_plan_src_bytes(plan) + redist_plan_dst_bytes(plan) + redist_plan_peak_bytes(plan) +
         redist_plan_workspace_bytes(plan) + redist_plan_live_bytes(plan) + redist_plan_recv_max_bytes(plan) +
         redist_plan_lower_bound_recv_bytes(plan));

  const int ranks[] = {0, devices - 1, static_cast<int>(r.below(static_cast<std::size_t>(devices))), devices, -1,
                       INT_MIN, INT_MAX};
  for (int rank : ranks) {
    std::unique_ptr<std::size_t[]> offset(new std::size_t[ndim]), extent(new std::size_t[ndim]);
    for (int which = 0; which < 2; ++which) {
      ErrBuf err(r);
      const int rc = (which ? redist_plan_tgt_box : redist_plan_src_box)(plan, rank, offset.get(), extent.get(),
                                                                         err.ptr(), err.len);
      if (rank < 0) check_code("a box of a negative rank", rc, {REDIST_ERR_BAD_INPUT}, err);
      else check_code("a box", rc, {REDIST_OK}, err);
    }
  }

  const std::size_t indices[] = {0, steps == 0 ? 0 : steps - 1, r.below(steps + 1), steps, SIZE_MAX};
  for (std::size_t i : indices) {
    redist_step_info_t info;
    ErrBuf err(r);
    const int rc = redist_plan_step(plan, i, &info, err.ptr(), err.len);
    if (kind != 0 || i >= steps) { check_code("a step refused", rc, {REDIST_ERR_BAD_INPUT}, err); continue; }
    check_code("a step", rc, {REDIST_OK}, err);
    if (rc != REDIST_OK) continue;
    if (info.ndim != ndim) fail("a step's ndim differs from the plan's");
    if ((info.op == 3) != (info.recv_from != nullptr)) fail("recv_from of a step that is not all_permute");
    long sum = 0;  // read every entry: ASan sees an array shorter than devices
    if (info.recv_from != nullptr)
      for (int k = 0; k < devices; ++k) sum += info.recv_from[k];
    (void)sum;
  }

  for (int rank : ranks) {
    const std::size_t max = r.one_in(3) ? 0 : r.below(40);
    std::unique_ptr<redist_region_t[]> regions(new redist_region_t[max + 1]);
    std::size_t count = 0;
    ErrBuf err(r);
    const int rc = redist_plan_receives(plan, rank, max ? regions.get() : nullptr, max, &count, err.ptr(), err.len);
    check_code("redist_plan_receives", rc,
               {kind == 1 && rank >= 0 && rank < devices ? REDIST_OK : REDIST_ERR_BAD_INPUT}, err);
    std::unique_ptr<redist_contribution_t[]> contributions(new redist_contribution_t[max + 1]);
    int designated = 0, group = 0;
    ErrBuf err2(r);
    const int rc2 = redist_plan_sum_receives(plan, rank, max ? contributions.get() : nullptr, max, &count, &designated,
                                             &group, err2.ptr(), err2.len);
    check_code("redist_plan_sum_receives", rc2,
               {kind == 2 && rank >= 0 && rank < devices ? REDIST_OK : REDIST_ERR_BAD_INPUT}, err2);
  }
}

// ---- the entry points ----

struct Tally {
  long planned = 0, rejected = 0, refused = 0;
  long by_entry[5] = {0, 0, 0, 0, 0};
} tally;

void outcome(Rng& r, const char* call, int rc, redist_plan_t* plan, bool may_reject, ErrBuf& err) {
  if (may_reject) check_code(call, rc, {REDIST_OK, REDIST_ERR_REJECTED, REDIST_ERR_BAD_INPUT}, err);
  else check_code(call, rc, {REDIST_OK, REDIST_ERR_BAD_INPUT}, err);
  if (rc == REDIST_OK) {
    ++tally.planned;
    if (plan == nullptr) fail(std::string(call) + ": code 0 without a plan");
    else query(r, plan);
  } else {
    rc == REDIST_ERR_REJECTED ? ++tally.rejected : ++tally.refused;
    if (plan != nullptr) fail(std::string(call) + ": a plan with code " + std::to_string(rc));
  }
  redist_plan_free(plan);
}

const char* or_null(Rng& r, const std::string& s, std::size_t null_one_in) {
  return r.one_in(null_one_in) ? nullptr : s.c_str();
}

void strings_entry(Rng& r, Input& in) {
  const Seed& s = r.pick(seeds);
  for (int k = 0; k < 6; ++k) in.strings.push_back(field(r, s, k, 3));
  const auto& f = in.strings;
  redist_plan_t* plan = nullptr;
  ErrBuf err(r);
  int rc;
  if (r.one_in(4)) {
    in.entry = "redist_plan_create";
    rc = redist_plan_create(or_null(r, f[0], 200), f[2].c_str(), or_null(r, f[3], 200), or_null(r, f[4], 4),
                            r.one_in(200) ? nullptr : &plan, err.ptr(), err.len);
  } else {
    in.entry = "redist_plan_create_with";
    rc = redist_plan_create_with(f[0].c_str(), or_null(r, f[1], 2), or_null(r, f[2], 200), f[3].c_str(),
                                 or_null(r, f[4], 4), or_null(r, f[5], 4), &plan, err.ptr(), err.len);
  }
  outcome(r, in.entry.c_str(), rc, plan, false, err);
}

// A mesh and layouts as structs: mostly well-formed small problems, then
// counts, sizes, names, axes, extents and pending axes out of range.
struct Mesh {
  std::vector<std::string> names;
  std::unique_ptr<const char*[]> name_ptrs;
  std::unique_ptr<int[]> sizes, ranks;
  redist_mesh_t m{};
};

int wild_int(Rng& r) {
  static const std::vector<int> wild = {-1, 0, 9, 65536, 65537, INT_MAX, INT_MIN};
  return r.pick(wild);
}

void make_mesh(Rng& r, Mesh& mesh, Input& in) {
  int naxes = 1 + static_cast<int>(r.below(3));
  if (r.one_in(30)) naxes = r.one_in(2) ? wild_int(r) : REDIST_MAX_DIMS;
  const std::size_t n = naxes > 0 && naxes <= REDIST_MAX_DIMS ? static_cast<std::size_t>(naxes) : 1;
  static const std::vector<std::string> names = {"x", "y", "z", "a", "b", "x.0", "", "x y", "{", "x:2", "@", "\xc3\xa9", "sum"};
  mesh.name_ptrs.reset(new const char*[n]);
  mesh.sizes.reset(new int[n]);
  long long devices = 1;
  for (std::size_t a = 0; a < n; ++a) {
    mesh.names.push_back(r.one_in(15) ? r.pick(names) : r.one_in(40) ? random_bytes(r, 1 + r.below(6))
                                                                     : std::string(1, static_cast<char>('p' + a)));
    mesh.sizes[a] = r.one_in(40) ? wild_int(r) : 1 + static_cast<int>(r.below(4));
    devices *= mesh.sizes[a] >= 1 && mesh.sizes[a] <= 65536 ? mesh.sizes[a] : 1;
  }
  for (std::size_t a = 0; a < n; ++a) mesh.name_ptrs[a] = r.one_in(60) ? nullptr : mesh.names[a].c_str();
  // Ranks: exactly `devices` entries (the contract), a permutation of an
  // offset range, sometimes with a wrong entry.
  if (r.one_in(3) && devices <= 65536) {
    mesh.ranks.reset(new int[devices]);
    const int offset = static_cast<int>(r.below(8));
    for (long long p = 0; p < devices; ++p) mesh.ranks[p] = offset + static_cast<int>(devices - 1 - p);
    if (r.one_in(5)) mesh.ranks[r.below(static_cast<std::size_t>(devices))] = wild_int(r);
  }
  mesh.m = {naxes, r.one_in(60) ? nullptr : mesh.name_ptrs.get(), r.one_in(60) ? nullptr : mesh.sizes.get(),
            mesh.ranks.get()};
  std::string text = "mesh naxes " + std::to_string(naxes) + ":";
  for (std::size_t a = 0; a < n; ++a) text += " " + excerpt(mesh.names[a]) + "=" + std::to_string(mesh.sizes[a]);
  if (mesh.ranks) text += " ranks from " + std::to_string(mesh.ranks[0]);
  in.strings.push_back(text);
}

struct Layout {
  std::unique_ptr<std::uint64_t[]> extents;
  std::unique_ptr<int[]> naxes, pending;
  std::unique_ptr<int[][REDIST_MAX_DIMS]> axes;
  redist_pending_layout_t l{};
};

void make_layout(Rng& r, const Mesh& mesh, Layout& layout, Input& in) {
  int ndim = 1 + static_cast<int>(r.below(3));
  if (r.one_in(30)) ndim = r.one_in(2) ? wild_int(r) : REDIST_MAX_DIMS;
  const std::size_t n = ndim > 0 && ndim <= REDIST_MAX_DIMS ? static_cast<std::size_t>(ndim) : 1;
  const int mesh_axes = mesh.m.naxes > 0 && mesh.m.naxes <= REDIST_MAX_DIMS ? mesh.m.naxes : 1;
  layout.extents.reset(new std::uint64_t[n]);
  layout.naxes.reset(new int[n]);
  layout.axes.reset(new int[n][REDIST_MAX_DIMS]);
  std::vector<bool> used(REDIST_MAX_DIMS, false);
  std::string text = "layout ndim " + std::to_string(ndim) + ":";
  for (std::size_t d = 0; d < n; ++d) {
    std::uint64_t shards = 1;
    layout.naxes[d] = 0;
    for (int k = 0; k < REDIST_MAX_DIMS; ++k) layout.axes[d][k] = -1;
    for (int a = 0; a < mesh_axes; ++a)
      if (!used[a] && r.one_in(3)) {
        used[a] = true;
        layout.axes[d][layout.naxes[d]++] = a;
        shards *= mesh.sizes[a] >= 1 && mesh.sizes[a] <= 65536 ? static_cast<std::uint64_t>(mesh.sizes[a]) : 1;
      }
    if (r.one_in(40)) layout.naxes[d] = wild_int(r) % (REDIST_MAX_DIMS + 2);
    if (r.one_in(40)) layout.axes[d][0] = wild_int(r);
    static const std::vector<std::uint64_t> wild = {0, 1, 7, 1ULL << 50, (1ULL << 50) - 1, 1ULL << 63, UINT64_MAX};
    layout.extents[d] = r.one_in(30) ? r.pick(wild) : shards * (1 + r.below(5));
    text += " " + std::to_string(layout.extents[d]) + "/" + std::to_string(layout.naxes[d]);
  }
  int npending = r.one_in(4) ? 1 + static_cast<int>(r.below(2)) : 0;
  if (r.one_in(40)) npending = wild_int(r) % (REDIST_MAX_DIMS + 2);
  const std::size_t np = npending > 0 && npending <= REDIST_MAX_DIMS ? static_cast<std::size_t>(npending) : 1;
  layout.pending.reset(new int[np]);
  for (std::size_t k = 0; k < np; ++k) layout.pending[k] = r.one_in(30) ? wild_int(r) : static_cast<int>(r.below(mesh_axes));
  // The pending operation: null (a sum), each name, and names that are not one.
  static const char* const ops[] = {nullptr, "sum", "prod", "max", "min", "avg", "", "mean", "max ", "xor\n"};
  const char* op = ops[r.below(sizeof ops / sizeof ops[0])];
  layout.l = {{ndim, r.one_in(80) ? nullptr : layout.extents.get(), r.one_in(80) ? nullptr : layout.naxes.get(),
               r.one_in(80) ? nullptr : layout.axes.get()},
              npending,
              r.one_in(80) ? nullptr : layout.pending.get(),
              op};
  in.strings.push_back(text + " pending " + std::to_string(npending) + " op " + (op ? op : "null"));
}

void structs_entry(Rng& r, Input& in) {
  Mesh mesh, to_mesh;
  Layout from, to;
  const bool two = r.one_in(4);
  make_mesh(r, mesh, in);
  if (two) make_mesh(r, to_mesh, in);
  make_layout(r, mesh, from, in);
  make_layout(r, two ? to_mesh : mesh, to, in);
  static const std::vector<std::string> dtypes = {"f32", "i32", "u8", "c128", "f8e4m3", "q1", "", "bf16"};
  static const std::vector<std::string> strategies = {"auto", "collectives", "exchange", "fastest", ""};
  const std::string dtype = r.pick(dtypes), strategy = r.pick(strategies);
  redist_plan_t* plan = nullptr;
  ErrBuf err(r);
  int rc;
  if (r.one_in(3)) {
    in.entry = "redist_plan_create_from";
    rc = redist_plan_create_from(&mesh.m, two ? &to_mesh.m : nullptr, r.one_in(100) ? nullptr : &from.l.layout,
                                 &to.l.layout, or_null(r, dtype, 2), or_null(r, strategy, 2), &plan, err.ptr(), err.len);
  } else {
    in.entry = "redist_plan_create_pending_from";
    rc = redist_plan_create_pending_from(r.one_in(100) ? nullptr : &mesh.m, two ? &to_mesh.m : nullptr, &from.l,
                                         &to.l, or_null(r, dtype, 2), or_null(r, strategy, 2), &plan, err.ptr(),
                                         err.len);
  }
  outcome(r, in.entry.c_str(), rc, plan, false, err);
}

// A plan file: the seed's mutated, or lines of the plan-file syntax drawn at
// random, or a giant (many via lines, many steps: the input limits).
std::string plan_text(Rng& r, const Seed& s, bool giant) {
  static const std::vector<std::string> lines = {
      "all_gather(0)", "all_gather(1)", "dyn_slice(0, x)", "dyn_slice(1, y)", "all_to_all(0, 1)", "all_to_all(1, 0)",
      "all_permute([3{x}6])", "exchange", "via [6]", "via [{x}6]", "via [4] sum{x}", "via f32[6]", "refine y = y.0:2 * y.1:2",
      "reduce_scatter(0, y)", "all_reduce(x)", "add_pending(y)", "# a comment", "", "via [16{b}64, 64]", "via [{a}64, 64]"};
  if (giant) {  // the limits: via lines (through the target type) and steps, at and far past them
    static const std::vector<std::size_t> counts = {63, 64, 65, 100001, 150000};
    const std::string via = "via " + s.fields[3] + "\n";
    const std::vector<std::string> lines = {via, "exchange\n" + via, "all_gather(0)\n"};
    const std::string line = r.pick(lines);
    std::string t;
    for (std::size_t k = r.pick(counts); k > 0; --k) t += line;
    return t;
  }
  if (r.one_in(3)) {
    std::string t;
    for (std::size_t k = r.below(8); k > 0; --k) t += r.pick(lines) + "\n";
    return r.one_in(3) ? mutated(r, t) : t;
  }
  return r.one_in(4) ? s.plan : mutated(r, s.plan);
}

void check_entry(Rng& r, Input& in) {
  in.entry = "redist_plan_check";
  const Seed& s = r.pick(seeds);
  // A giant plan file on the seed's own problem, which its via lines fit.
  const bool giant = r.one_in(150);
  for (int k = 0; k < 5; ++k) in.strings.push_back(giant ? s.fields[k] : field(r, s, k, 8));
  in.strings.push_back(plan_text(r, s, giant));
  const auto& f = in.strings;
  redist_plan_t* plan = nullptr;
  ErrBuf err(r);
  const int rc = redist_plan_check(f[0].c_str(), or_null(r, f[1], 1000), f[2].c_str(), f[3].c_str(),
                                   or_null(r, f[4], 4), or_null(r, f[5], 1000), &plan, err.ptr(), err.len);
  outcome(r, in.entry.c_str(), rc, plan, true, err);
}

// A JSON report mutated as text, a value of a field replaced by one of
// another JSON type, or wrapped in deep nesting.
std::string json_text(Rng& r, const Seed& s) {
  std::string j = s.json;
  if (r.one_in(100)) {
    static const std::vector<std::size_t> depths = {63, 64, 65, 200000};
    const std::size_t depth = r.pick(depths);
    const std::string open = r.one_in(2) ? "[" : "{\"a\":";
    std::string deep;
    for (std::size_t k = 0; k < depth; ++k) deep += open;
    return r.one_in(2) ? deep : j.insert(r.below(j.size() + 1), deep);
  }
  if (r.one_in(2)) {  // the value after a random "key": replaced
    static const std::vector<std::string> values = {"null", "1", "-1", "\"x\"", "[]", "{}", "[1, \"a\"]", "1.5",
                                                    "99999999999999999999", "true", "\"\"", "[[[[[[]]]]]]"};
    std::vector<std::size_t> colons;
    for (std::size_t i = 0; i + 1 < j.size(); ++i)
      if (j[i] == '"' && j[i + 1] == ':') colons.push_back(i + 2);
    if (!colons.empty()) {
      const std::size_t at = r.pick(colons);
      std::size_t end = at;
      int depth = 0;
      bool in_string = false;
      while (end < j.size()) {  // to the end of that value
        const char c = j[end];
        if (in_string) { if (c == '\\') ++end; else if (c == '"') in_string = false; }
        else if (c == '"') in_string = true;
        else if (c == '[' || c == '{') ++depth;
        else if (c == ']' || c == '}') { if (depth-- == 0) break; }
        else if (c == ',' && depth == 0) break;
        ++end;
      }
      j.replace(at, end - at, " " + r.pick(values));
    }
    return r.one_in(4) ? mutated(r, j) : j;
  }
  return mutated(r, j);
}

void json_entry(Rng& r, Input& in) {
  in.entry = "redist_plan_from_json";
  const Seed& s = r.pick(seeds);
  in.strings.push_back(json_text(r, s));
  redist_plan_t* plan = nullptr;
  ErrBuf err(r);
  const int rc = redist_plan_from_json(or_null(r, in.strings[0], 1000), &plan, err.ptr(), err.len);
  outcome(r, in.entry.c_str(), rc, plan, true, err);
}

void run_one(std::uint64_t seed, long index) {
  Rng r{seed ^ (0xd1b54a32d192ed03ULL * static_cast<std::uint64_t>(index + 1))};
  Input in;
  current = &in;
  current_index = index;
  const std::size_t entry = r.below(16);
  // Weights: strings 4, structs 4, check 4, JSON 4.
  if (entry < 4) strings_entry(r, in);
  else if (entry < 8) structs_entry(r, in);
  else if (entry < 12) check_entry(r, in);
  else json_entry(r, in);
  ++tally.by_entry[entry / 4];
  current = nullptr;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_capi SEED_DIR COUNT [SEED] [--only N]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const long count = std::atol(argv[2]);
  std::uint64_t seed = 20240611;
  long only = -1;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = std::atol(argv[++i]);
    else seed = std::strtoull(argv[i], nullptr, 10);
  }
  std::ifstream problems(dir + "/problems.txt");
  std::string line;
  for (int k = 0; std::getline(problems, line); ++k) {
    Seed s;
    std::istringstream fields(line);
    for (auto& f : s.fields) std::getline(fields, f, '|');
    s.plan = slurp(dir + "/" + std::to_string(k) + ".plan");
    s.json = slurp(dir + "/" + std::to_string(k) + ".json");
    seeds.push_back(s);
  }
  if (seeds.empty()) {
    std::printf("FAILED: no seeds in %s/problems.txt\n", dir.c_str());
    return 1;
  }
  __sanitizer_set_death_callback(on_death);
  std::printf("seed %llu, %zu seed problems\n", static_cast<unsigned long long>(seed), seeds.size());
  std::fflush(stdout);
  long ran = 0;
  for (long i = only >= 0 ? only : 0; i < (only >= 0 ? only + 1 : count) && failures == 0; ++i, ++ran) run_one(seed, i);
  if (failures > 0) return 1;
  std::printf("%ld inputs (%ld strings, %ld structs, %ld plan files, %ld JSON reports): %ld planned, %ld rejected, "
              "%ld refused; no crash, every failure one line\n",
              ran, tally.by_entry[0], tally.by_entry[1], tally.by_entry[2], tally.by_entry[3], tally.planned,
              tally.rejected, tally.refused);
  return 0;
}
