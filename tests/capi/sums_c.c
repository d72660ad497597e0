/* Pending sums through the C ABI, as a C11 program: each case is a problem
 * given as structs (redist_plan_create_pending_from), planned, checked to
 * plan exactly as the same problem given as strings (equal
 * redist_plan_json), run on MPI_COMM_WORLD, and every element of every rank
 * checked against the sum computed here.
 *
 * Member k of a source pending group (its coordinates on the pending axes,
 * row-major in mesh order, as the model numbers members) contributes
 * c(i, k) at global index i, so that every group sums to the same value
 * g(i) = c(i, 0) + ... + c(i, G-1); the structs' op max (the largest
 * contribution, exact, signed for integers) and avg (f64: g(i) / G within
 * (G + 1) * 2^-53 relative) are checked the same way on their cases.  Integer types: wrapping, exact; a
 * target without pending axes must hold g(i) in every element of every
 * rank; a target with pending axes is checked by adding up, on rank 0, what
 * every target rank holds at i: (target ranks holding i / target group
 * size) * g(i).  f32 and f64: c(i, k) in [0, 1), checked within
 * G * 2^-24 (f32) or G * 2^-53 (f64) of g(i) computed in long double, the
 * bound for G - 1 additions in any order.  A plan by the reducing exchange
 * also answers redist_plan_sum_receives consistently with its boxes.
 *
 * Usage: mpirun -np WORLD sums_c CASE (0 <= CASE < the table's length;
 * `sums_c count` prints the length, `sums_c describe CASE` its world size
 * and the problem, `sums_c refusals` runs the bad-input checks without
 * MPI, one TAP result each: tap.h).  Prints "verified: ..." on rank 0 or
 * what failed; exit 0 only when everything passed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "redist/redist.h"
#include "boxes.h"
#include "tap.h"

enum { max_axes = 3 };

typedef struct {
  int naxes;
  int sizes[max_axes];
  const int* ranks; /* NULL: world ranks 0..devices-1 */
} mesh_case;

typedef struct {
  int naxes[max_dims];
  int axes[max_dims][REDIST_MAX_DIMS];
  int npending;
  int pending[max_axes];
} layout_case;

typedef struct {
  const char *mesh, *to_mesh, *from, *to, *dtype; /* the same problem as strings (to_mesh NULL: one mesh) */
  const char* strategy;                           /* NULL: auto */
  const char* op;                                 /* the structs' op (NULL: sum) */
  int world;
  mesh_case source, target; /* target.naxes 0: one mesh */
  int ndim;
  uint64_t extents[max_dims];
  layout_case from_layout, to_layout;
} sum_case;

static const int ranks_1_to_3[] = {1, 2, 3};
static const int ranks_5_0[] = {5, 0};

static const sum_case cases[] = {
    /* reduce_scatter */
    {"{x:2, y:3}", NULL, "[{x}6, 12] sum{y}", "[{x}6, {y}12]", "i32", NULL, NULL, 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {6, 12},
     {{1, 0}, {{0}, {0}}, 1, {1}}, {{1, 1}, {{0}, {1}}, 0, {0}}},
    /* all_reduce: the target is replicated over y */
    {"{x:2, y:3}", NULL, "[{x}6, 12] sum{y}", "[{x}6, 12]", "u64", NULL, NULL, 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {6, 12},
     {{1, 0}, {{0}, {0}}, 1, {1}}, {{1, 0}, {{0}, {0}}, 0, {0}}},
    /* two pending axes, reduced on the way to a sharded target */
    {"{x:2, y:2, z:2}", NULL, "[8, 4] sum{x,z}", "[{x,z}8, {y}4]", "i16", "collectives", NULL, 8, {3, {2, 2, 2}, NULL}, {0, {0}, NULL}, 2,
     {8, 4}, {{0, 0}, {{0}, {0}}, 2, {0, 2}}, {{2, 1}, {{0, 2}, {1}}, 0, {0}}},
    /* pending on both sides: sum{x,y} -> sum{y} */
    {"{x:2, y:2}", NULL, "[8, 8] sum{x,y}", "[8, {x}8] sum{y}", "i64", NULL, NULL, 4, {2, {2, 2}, NULL}, {0, {0}, NULL}, 2, {8, 8},
     {{0, 0}, {{0}, {0}}, 2, {0, 1}}, {{0, 1}, {{0}, {0}}, 1, {1}}},
    /* add_pending: a plain source to a pending target */
    {"{x:4}", NULL, "[{x}8]", "[8] sum{x}", "u32", "collectives", NULL, 4, {1, {4}, NULL}, {0, {0}, NULL}, 1, {8}, {{1}, {{0}}, 0, {0}},
     {{0}, {{0}}, 1, {0}}},
    /* uneven: the reducing exchange */
    {"{x:2, y:3}", NULL, "[7, 8] sum{x}", "[{y}7, 8]", "u8", NULL, NULL, 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {7, 8},
     {{0, 0}, {{0}, {0}}, 1, {0}}, {{1, 0}, {{1}, {0}}, 0, {0}}},
    /* two placed meshes: the reducing exchange */
    {"{x:2, y:2}", "{p:3} @ [1, 2, 3]", "[{x}5, 3] sum{y}", "[{p}5, 3]", "i8", NULL, NULL, 4, {2, {2, 2}, NULL},
     {1, {3}, ranks_1_to_3}, 2, {5, 3}, {{1, 0}, {{0}, {0}}, 1, {1}}, {{1, 0}, {{0}, {0}}, 0, {0}}},
    /* two placed meshes, pending on the target too */
    {"{x:2, y:2}", "{p:2} @ [5, 0]", "[{x}5, 3] sum{y}", "[5, 3] sum{p}", "u16", NULL, NULL, 6, {2, {2, 2}, NULL},
     {1, {2}, ranks_5_0}, 2, {5, 3}, {{1, 0}, {{0}, {0}}, 1, {1}}, {{0, 0}, {{0}, {0}}, 1, {0}}},
    /* floating point, within the stated tolerance */
    {"{x:2, y:2}", NULL, "[{x}8, 6] sum{y}", "[{x,y}8, 6]", "f32", NULL, NULL, 4, {2, {2, 2}, NULL}, {0, {0}, NULL}, 2, {8, 6},
     {{1, 0}, {{0}, {0}}, 1, {1}}, {{2, 0}, {{0, 1}, {0}}, 0, {0}}},
    {"{x:2, y:3}", NULL, "[12, 5] sum{x,y}", "[{y}12, 5]", "f64", NULL, NULL, 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {12, 5},
     {{0, 0}, {{0}, {0}}, 2, {0, 1}}, {{1, 0}, {{1}, {0}}, 0, {0}}},
    {"{x:2, y:3}", NULL, "[7, 5] sum{x}", "[{y}7, 5]", "f32", NULL, NULL, 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {7, 5},
     {{0, 0}, {{0}, {0}}, 1, {0}}, {{1, 0}, {{1}, {0}}, 0, {0}}},
    /* max (integers compare signed), avg (floats), and max by the reducing exchange */
    {"{x:2, y:3}", NULL, "[{x}6, 12] max{y}", "[{x}6, {y}12]", "i32", NULL, "max", 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2,
     {6, 12}, {{1, 0}, {{0}, {0}}, 1, {1}}, {{1, 1}, {{0}, {1}}, 0, {0}}},
    {"{x:2, y:3}", NULL, "[12, 5] avg{x,y}", "[{y}12, 5]", "f64", NULL, "avg", 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2,
     {12, 5}, {{0, 0}, {{0}, {0}}, 2, {0, 1}}, {{1, 0}, {{1}, {0}}, 0, {0}}},
    {"{x:2, y:3}", NULL, "[7, 5] max{x}", "[{y}7, 5]", "f32", NULL, "max", 6, {2, {2, 3}, NULL}, {0, {0}, NULL}, 2, {7, 5},
     {{0, 0}, {{0}, {0}}, 1, {0}}, {{1, 0}, {{1}, {0}}, 0, {0}}},
};
enum { case_count = sizeof cases / sizeof cases[0] };

static const char* const source_names[] = {"x", "y", "z"};
static const char* const target_names[] = {"p", "q", "r"};

static int devices(const mesh_case* m) {
  int n = 1;
  for (int a = 0; a < m->naxes; ++a) n *= m->sizes[a];
  return n;
}

/* The member index of world rank r in its source pending group; -1 outside the source mesh. */
static int member_of(const sum_case* c, int r) {
  const mesh_case* m = &c->source;
  int position = -1;
  for (int p = 0; p < devices(m); ++p)
    if ((m->ranks ? m->ranks[p] : p) == r) position = p;
  if (position < 0) return -1;
  int k = 0, stride = devices(m);
  for (int a = 0; a < m->naxes; ++a) {
    stride /= m->sizes[a];
    const int coord = (position / stride) % m->sizes[a];
    for (int j = 0; j < c->from_layout.npending; ++j)
      if (c->from_layout.pending[j] == a) k = k * m->sizes[a] + coord;
  }
  return k;
}

static int group_size(const mesh_case* m, const layout_case* l) {
  int g = 1;
  for (int j = 0; j < l->npending; ++j) g *= m->sizes[l->pending[j]];
  return g;
}

static int is_float(const char* dtype) { return strcmp(dtype, "f32") == 0 || strcmp(dtype, "f64") == 0; }

static int is_op(const sum_case* c, const char* op) { return strcmp(c->op ? c->op : "sum", op) == 0; }

/* The contribution's bits of a signed integer type of `elem` bytes, sign-extended. */
static int64_t signed_value(uint64_t bits, size_t elem) {
  const unsigned shift = (unsigned)(64 - 8 * elem);
  return (int64_t)(bits << shift) >> shift;
}

/* c(i, k): integers, a hash of the index and the member; floats, in [0, 1). */
static uint64_t contribution_bits(const size_t* index, int ndim, int k) {
  return element_hash(index, ndim) * 0x9e3779b97f4a7c15u + (uint64_t)k * 0xbf58476d1ce4e5b9u;
}
static long double contribution_real(const size_t* index, int ndim, int k) {
  return (long double)(contribution_bits(index, ndim, k) >> 11) / 9007199254740992.0L;
}

static void store(unsigned char* at, const char* dtype, size_t elem, uint64_t bits, long double real) {
  if (strcmp(dtype, "f32") == 0) {
    const float f = (float)real;
    memcpy(at, &f, sizeof f);
  } else if (strcmp(dtype, "f64") == 0) {
    const double d = (double)real;
    memcpy(at, &d, sizeof d);
  } else {
    for (size_t b = 0; b < elem; ++b) at[b] = (unsigned char)(bits >> (8 * b));
  }
}

static uint64_t load_bits(const unsigned char* at, size_t elem) {
  uint64_t v = 0;
  for (size_t b = 0; b < elem; ++b) v |= (uint64_t)at[b] << (8 * b);
  return v;
}

static long double load_real(const unsigned char* at, const char* dtype) {
  if (strcmp(dtype, "f32") == 0) {
    float f;
    memcpy(&f, at, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, at, sizeof d);
  return d;
}

static uint64_t mask_of(size_t elem) { return elem >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * elem)) - 1); }

/* Visits a box row-major: global index of element i in `global`. */
static size_t box_count(const size_t* extent, int ndim) {
  size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= extent[d];
  return n;
}
static void box_index(const size_t* offset, const size_t* extent, int ndim, size_t i, size_t* global) {
  for (int d = ndim - 1; d >= 0; --d) {
    global[d] = offset[d] + i % extent[d];
    i /= extent[d];
  }
}
static size_t linear(const uint64_t* extents, int ndim, const size_t* global) {
  size_t l = 0;
  for (int d = 0; d < ndim; ++d) l = l * extents[d] + global[d];
  return l;
}

static int plan_case(const sum_case* c, redist_plan_t** plan, char* err, size_t errlen) {
  const redist_mesh_t mesh = {c->source.naxes, source_names, c->source.sizes, c->source.ranks};
  const redist_mesh_t to_mesh = {c->target.naxes, target_names, c->target.sizes, c->target.ranks};
  const redist_pending_layout_t from = {{c->ndim, c->extents, c->from_layout.naxes, c->from_layout.axes},
                                        c->from_layout.npending, c->from_layout.pending, c->op};
  const redist_pending_layout_t to = {{c->ndim, c->extents, c->to_layout.naxes, c->to_layout.axes},
                                      c->to_layout.npending, c->to_layout.pending, c->op};
  int rc = redist_plan_create_pending_from(&mesh, c->target.naxes ? &to_mesh : NULL, &from, &to, c->dtype, c->strategy,
                                           plan, err, errlen);
  if (rc != REDIST_OK) return rc;
  redist_plan_t* by_strings = NULL;
  rc = redist_plan_create_with(c->mesh, c->to_mesh, c->from, c->to, c->dtype, c->strategy, &by_strings, err, errlen);
  if (rc == REDIST_OK && strcmp(redist_plan_json(*plan), redist_plan_json(by_strings)) != 0) {
    snprintf(err, errlen, "the structs plan differently from the strings");
    rc = REDIST_ERR_INTERNAL;
  }
  redist_plan_free(by_strings);
  return rc;
}

static int run_case(const sum_case* c, int rank, int world) {
  char err[512] = "";
  redist_plan_t* plan = NULL;
  int rc = plan_case(c, &plan, err, sizeof err);
  if (rc != REDIST_OK) {
    if (rank == 0) printf("FAILED: plan: code %d: %s\n", rc, err);
    return 1;
  }
  const int ndim = c->ndim;
  const size_t elem = redist_plan_elem_bytes(plan), ws_bytes = redist_plan_workspace_bytes(plan);
  const int members = group_size(&c->source, &c->from_layout);
  const mesh_case* tmesh = c->target.naxes ? &c->target : &c->source;
  const int target_group = group_size(tmesh, &c->to_layout);
  size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
  if (redist_plan_src_box(plan, rank, src_off, src_ext, err, sizeof err) != REDIST_OK ||
      redist_plan_tgt_box(plan, rank, dst_off, dst_ext, err, sizeof err) != REDIST_OK) {
    printf("rank %d: box: %s\n", rank, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const size_t src_n = box_count(src_ext, ndim), dst_n = box_count(dst_ext, ndim);
  unsigned char* src = src_n ? malloc(src_n * elem) : NULL;
  unsigned char* dst = dst_n ? malloc(dst_n * elem) : NULL;
  unsigned char* ws = ws_bytes ? malloc(ws_bytes) : NULL;
  const int k = member_of(c, rank);
  size_t global[max_dims];
  for (size_t i = 0; i < src_n; ++i) {
    box_index(src_off, src_ext, ndim, i, global);
    store(src + i * elem, c->dtype, elem, contribution_bits(global, ndim, k), contribution_real(global, ndim, k));
  }
  if (dst) memset(dst, 0xA5, dst_n * elem);
  rc = redist_plan_execute(plan, MPI_COMM_WORLD, src, src_n * elem, dst, dst_n * elem, ws, ws_bytes, err, sizeof err);
  if (rc != REDIST_OK) printf("rank %d: run: code %d: %s\n", rank, rc, err);
  /* g(i): the sum over the members of their contributions. */
  size_t bad = 0, global_n = 1;
  for (int d = 0; d < ndim; ++d) global_n *= c->extents[d];
  uint64_t* held = calloc(global_n, sizeof *held);    /* what the target ranks hold at i, added up */
  uint64_t* holders = calloc(global_n, sizeof *holders);
  for (size_t i = 0; rc == REDIST_OK && i < dst_n; ++i) {
    box_index(dst_off, dst_ext, ndim, i, global);
    uint64_t sum_bits = 0, max_bits = 0;
    long double sum_real = 0, max_real = -1;
    for (int m = 0; m < members; ++m) {
      const uint64_t bits = contribution_bits(global, ndim, m) & mask_of(elem);
      const long double real = (long double)(strcmp(c->dtype, "f32") == 0 ? (float)contribution_real(global, ndim, m)
                                                                           : (double)contribution_real(global, ndim, m));
      sum_bits += bits;
      sum_real += real;
      if (m == 0 || signed_value(bits, elem) > signed_value(max_bits, elem)) max_bits = bits;
      if (real > max_real) max_real = real;
    }
    /* max: exact, the largest contribution (signed integers); avg: the sum's bound divided by the group */
    if (is_op(c, "max")) {
      bad += is_float(c->dtype) ? load_real(dst + i * elem, c->dtype) != max_real
                                : load_bits(dst + i * elem, elem) != max_bits;
    } else if (is_op(c, "avg")) {
      const long double ulp = strcmp(c->dtype, "f32") == 0 ? 5.9604644775390625e-8L : 1.1102230246251565e-16L;
      bad += fabsl(load_real(dst + i * elem, c->dtype) - sum_real / members) > (members + 1) * ulp * sum_real / members;
    } else if (is_float(c->dtype)) {
      const long double ulp = strcmp(c->dtype, "f32") == 0 ? 5.9604644775390625e-8L : 1.1102230246251565e-16L;
      bad += fabsl(load_real(dst + i * elem, c->dtype) - sum_real) > members * ulp * sum_real;
    } else if (target_group == 1) {
      bad += load_bits(dst + i * elem, elem) != (sum_bits & mask_of(elem));
    } else {
      held[linear(c->extents, ndim, global)] += load_bits(dst + i * elem, elem);
      holders[linear(c->extents, ndim, global)] += 1;
    }
  }
  if (target_group > 1 && !is_float(c->dtype)) {
    MPI_Allreduce(MPI_IN_PLACE, held, (int)global_n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, holders, (int)global_n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    for (size_t l = 0; rank == 0 && l < global_n; ++l) {
      size_t rest = l;
      for (int d = ndim - 1; d >= 0; --d) {
        global[d] = rest % c->extents[d];
        rest /= c->extents[d];
      }
      uint64_t g = 0;
      for (int m = 0; m < members; ++m) g += contribution_bits(global, ndim, m) & mask_of(elem);
      bad += ((held[l] - (holders[l] / (uint64_t)target_group) * g) & mask_of(elem)) != 0 ||
             holders[l] % (uint64_t)target_group != 0 || holders[l] == 0;
    }
  }
  /* The reducing exchange's contributions (redist_plan_sum_receives): a
   * designated rank's cover its target box once per member, from the
   * source group of that member count; the others' are none. */
  if (redist_plan_by_exchange(plan) == 2) {
    size_t count = 0, covered = 0;
    int designated = 0, group = 0;
    rc = redist_plan_sum_receives(plan, rank, NULL, 0, &count, &designated, &group, err, sizeof err);
    redist_contribution_t* found = count ? malloc(count * sizeof *found) : NULL;
    if (rc == REDIST_OK)
      rc = redist_plan_sum_receives(plan, rank, found, count, &count, &designated, &group, err, sizeof err);
    for (size_t j = 0; rc == REDIST_OK && j < count; ++j) covered += box_count(found[j].extent, ndim);
    if (rc != REDIST_OK || group != members || covered != (designated ? dst_n * (size_t)members : 0)) {
      printf("rank %d: redist_plan_sum_receives: code %d, %zu contributions covering %zu elements, group %d, "
             "designated %d (%s)\n", rank, rc, count, covered, group, designated, err);
      ++bad;
    }
    free(found);
  }
  /* The stated live bytes cover what a rank holds: its source and
     destination at every step, and for the reducing exchange (no other
     arrays) its staging too, at most the workspace. */
  const size_t live = redist_plan_live_bytes(plan);
  const size_t held_bytes = (src_n + dst_n) * elem + (redist_plan_by_exchange(plan) == 2 ? ws_bytes : 0);
  if (held_bytes > live) printf("rank %d: holds %zu B, above the stated live bytes %zu B\n", rank, held_bytes, live);
  unsigned long long totals[2] = {bad, dst_n}, sums[2];
  MPI_Reduce(totals, sums, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int failed = rc != REDIST_OK || bad != 0 || held_bytes > live, any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    const int kind = redist_plan_by_exchange(plan);
    if (any_failed) printf("FAILED: %llu of %llu elements wrong\n", sums[0], sums[1]);
    else
      printf("verified: %s, %zu steps (%s%s), workspace %llu B, %llu elements checked on %d ranks%s\n",
             kind == 2 ? "reducing exchange" : "collectives", redist_plan_num_steps(plan),
             redist_plan_num_steps(plan) ? redist_plan_step_text(plan, 0) : "none",
             redist_plan_num_steps(plan) > 1 ? ", ..." : "", (unsigned long long)ws_bytes, sums[1], world,
             target_group > 1 ? " (target groups' sums added up on rank 0)" : "");
  }
  free(held);
  free(holders);
  free(src);
  free(dst);
  free(ws);
  redist_plan_free(plan);
  return any_failed;
}

/* Code 2 and one line naming what is wrong. */
static int refusals(void) {
  char err[512];
  redist_plan_t* plan = NULL;
  struct {
    const char *mesh, *from, *to, *dtype, *want;
  } bad[] = {
      {"{x:2, y:2}", "[4{x}8, 8] sum{y}", "[8, 8]", "f8e4m3",
       "from: sum{..} of f8e4m3: the runtime computes sum only of"},
      {"{x:2, y:2}", "[4{x}8, 8] sum{y}", "[8, 8]", "bool", "from: sum{..} of bool: the runtime computes sum only of"},
      {"{x:2, y:2}", "[4{x}8, 8] sum{x}", "[8, 8]", "i32", "from: sum: axis x (column 16) also shards dim 0"},
      {"{x:2, y:2}", "[4{x}8, 8] sum{w}", "[8, 8]", "i32", "from: "},
      {"{x:2, y:2}", "[4{x}8, 8] avg{y}", "[8, 8]", "i32", "from: avg{..} of i32: the runtime computes avg only of"},
      {"{x:2, y:2}", "[4{x}8, 8] max{y}", "[8, 8]", "c64", "from: max{..} of c64: the runtime computes max only of"},
      {"{x:2, y:2}", "[4{x}8, 8] max{y}", "[{x}8, 8] sum{y}", "f32", "from is max{..} but to is sum{..}: one operation per problem"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    const int rc = redist_plan_create(bad[i].mesh, bad[i].from, bad[i].to, bad[i].dtype, &plan, err, sizeof err);
    const int passed = rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, bad[i].want) && !strchr(err, '\n');
    tap_result(passed, "refused %s -> %s %s: code %d: %s", bad[i].from, bad[i].to, bad[i].dtype, rc, err);
  }
  /* The structs: a pending axis outside the mesh. */
  const int sizes[] = {2, 2}, one[] = {1}, none[] = {0};
  const int by_x[][REDIST_MAX_DIMS] = {{0}};
  const uint64_t eight[] = {8};
  const int outside[] = {5};
  const redist_mesh_t mesh = {2, source_names, sizes, NULL};
  const redist_pending_layout_t from = {{1, eight, one, by_x}, 1, outside, NULL},
                                to = {{1, eight, none, by_x}, 0, NULL, NULL};
  int rc = redist_plan_create_pending_from(&mesh, NULL, &from, &to, "i32", NULL, &plan, err, sizeof err);
  int passed = rc == REDIST_ERR_BAD_INPUT && strstr(err, "from: pending[0] = 5 is not an axis of the mesh (0 to 1)");
  tap_result(passed, "refused structs with a pending axis outside the mesh: code %d: %s", rc, err);
  const int axis_y[] = {1};
  const redist_pending_layout_t bitwise = {{1, eight, none, by_x}, 1, axis_y, "xor\n"};
  rc = redist_plan_create_pending_from(&mesh, NULL, &bitwise, &to, "i32", NULL, &plan, err, sizeof err);
  passed = rc == REDIST_ERR_BAD_INPUT && plan == NULL && !strchr(err, '\n') &&
           strstr(err, "from: op \"xor?\" (sum, prod, max, min or avg; NULL: sum)");
  tap_result(passed, "refused structs with an unknown op, in one line: code %d: %s", rc, err);
  return tap_end();
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "count") == 0) {
    printf("%d\n", case_count);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "refusals") == 0) return refusals();
  if (argc == 3 && strcmp(argv[1], "describe") == 0) {
    const sum_case* c = &cases[atoi(argv[2]) % case_count];
    printf("%d %s%s%s %s -> %s %s%s%s\n", c->world, c->mesh, c->to_mesh ? " -> " : "", c->to_mesh ? c->to_mesh : "",
           c->from, c->to, c->dtype, c->strategy ? " --strategy " : "", c->strategy ? c->strategy : "");
    return 0;
  }
  const int which = argc == 2 ? atoi(argv[1]) : -1;
  if (which < 0 || which >= case_count) {
    fprintf(stderr, "usage: sums_c CASE (0 to %d) | count | refusals\n", case_count - 1);
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const int failed = run_case(&cases[which], rank, world);
  MPI_Finalize();
  return failed;
}
