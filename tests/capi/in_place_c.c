/* The C ABI's in-place plans (redist_plan_create_in_place,
 * redist_exec_run_in_place) under mpirun, run by tests/capi/in_place.sh.
 *
 *   in_place_c random COUNT SEED: COUNT random problems on this world (one
 *   mesh or two, placed at random ranks, uneven extents, 1 to 3
 *   dimensions, element types of 1 to 16 bytes, staging of one element, a
 *   few, a random count or unbounded), each planned on every rank, every
 *   element of every rank's buffer checked against the global array after
 *   the run, and the heap measured during the run.  One test per problem.
 *
 *   The heap, with the run made twice (the buffer refilled with the source
 *   in between, both results checked): in both runs nothing is allocated
 *   outside the MPI calls the run makes (MPI_Allreduce, MPI_Isend,
 *   MPI_Irecv, MPI_Waitall), and the program's own code (the runtime,
 *   linked statically: the executable's text) allocates nothing, by malloc
 *   or operator new: the executor allocates at bind, and no memory beyond
 *   the caller's buffer and staging holds the data.  What Open MPI
 *   allocates inside its calls (a temporary of the reduced words in the
 *   allreduce that agrees on the ranks' buffer checks, 104 bytes; its free
 *   lists for messages that arrive before their receive is posted, grown
 *   on demand and kept) is measured as the peak growth of the live heap
 *   during the second run and reported, the most over ranks and problems
 *   on the closing comment line.
 *
 *   in_place_c within: redist_plan_create_within on 4 ranks (within_suite).
 *
 *   in_place_c misuse: the refusals, each one line and a non-zero code on
 *   every rank, none waiting: a plain plan run in place and an in-place
 *   plan run or started as a plain one, a buffer or a staging one byte
 *   short on one rank, buffer and staging overlapping, staging below one
 *   element and pending sums at creation.
 *
 * The heap: this program defines malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc and memalign over glibc's, so that every
 * allocation of the process (the runtime's, MPI's) is seen while the
 * window is open, and the MPI calls of a run over their PMPI_ versions (the
 * profiling interface), so that allocations inside them are told apart. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"
#include "tap.h"

/* ---- the heap window ---------------------------------------------------- */

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void __libc_free(void*);
extern void* __libc_memalign(size_t, size_t);

static atomic_int window_open, in_mpi;
/* live: bytes allocated less bytes freed since the window opened; peak: its
 * most; outside: bytes allocated outside MPI calls; own: bytes the
 * executable's code allocated. */
static atomic_llong window_live, window_peak, window_outside, window_own;
extern char __executable_start, etext;

#define IN_MPI(call)              \
  do {                            \
    atomic_fetch_add(&in_mpi, 1); \
    const int rc_ = (call);       \
    atomic_fetch_sub(&in_mpi, 1); \
    return rc_;                   \
  } while (0)
int MPI_Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  IN_MPI(PMPI_Allreduce(send, recv, count, type, op, comm));
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  IN_MPI(PMPI_Isend(buf, count, type, dest, tag, comm, req));
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* req) {
  IN_MPI(PMPI_Irecv(buf, count, type, source, tag, comm, req));
}
int MPI_Waitall(int count, MPI_Request* reqs, MPI_Status* statuses) { IN_MPI(PMPI_Waitall(count, reqs, statuses)); }

static void note_alloc(void* p, const void* caller) {
  if (p == NULL || !atomic_load_explicit(&window_open, memory_order_relaxed)) return;
  const long long n = (long long)malloc_usable_size(p);
  if ((const char*)caller >= &__executable_start && (const char*)caller < &etext) atomic_fetch_add(&window_own, n);
  if (atomic_load(&in_mpi) == 0) atomic_fetch_add(&window_outside, n);
  const long long live = atomic_fetch_add(&window_live, n) + n;
  long long peak = atomic_load(&window_peak);
  while (live > peak && !atomic_compare_exchange_weak(&window_peak, &peak, live)) {
  }
}

static void note_free(void* p) {
  if (p != NULL && atomic_load_explicit(&window_open, memory_order_relaxed))
    atomic_fetch_sub(&window_live, (long long)malloc_usable_size(p));
}

#define CALLER __builtin_return_address(0)
__attribute__((noinline)) void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  note_alloc(p, CALLER);
  return p;
}
__attribute__((noinline)) void* calloc(size_t n, size_t size) {
  void* p = __libc_calloc(n, size);
  note_alloc(p, CALLER);
  return p;
}
__attribute__((noinline)) void* realloc(void* old, size_t n) {
  note_free(old);
  void* p = __libc_realloc(old, n);
  note_alloc(p != NULL ? p : (n > 0 ? old : NULL), CALLER);
  return p;
}
void free(void* p) {
  note_free(p);
  __libc_free(p);
}
__attribute__((noinline)) void* memalign(size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  note_alloc(p, CALLER);
  return p;
}
__attribute__((noinline)) void* aligned_alloc(size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  note_alloc(p, CALLER);
  return p;
}
__attribute__((noinline)) int posix_memalign(void** out, size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  note_alloc(p, CALLER);
  if (p == NULL) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
/* C++'s operator new and delete (the runtime's), by their mangled names. */
static void* new_bytes(size_t n, const void* caller) {
  void* p = __libc_malloc(n > 0 ? n : 1);
  if (p == NULL) abort();
  note_alloc(p, caller);
  return p;
}
__attribute__((noinline)) void* _Znwm(size_t n) { return new_bytes(n, CALLER); }
__attribute__((noinline)) void* _Znam(size_t n) { return new_bytes(n, CALLER); }
void _ZdlPv(void* p) { free(p); }
void _ZdaPv(void* p) { free(p); }
void _ZdlPvm(void* p, size_t n) {
  (void)n;
  free(p);
}
void _ZdaPvm(void* p, size_t n) {
  (void)n;
  free(p);
}

static void open_window(void) {
  atomic_store(&window_live, 0);
  atomic_store(&window_peak, 0);
  atomic_store(&window_outside, 0);
  atomic_store(&window_own, 0);
  atomic_store(&window_open, 1);
}
static void close_window(void) { atomic_store(&window_open, 0); }

/* ---- problems ----------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t mix(uint64_t x) { /* splitmix64's finaliser */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
static int below(int n) { return (int)((rng_state = mix(rng_state)) % (uint64_t)n); }

/* Byte j of the element of global index g. */
static unsigned char value_byte(uint64_t g, size_t j) { return (unsigned char)(mix(g * 16 + j) >> 17); }

typedef struct {
  char mesh[160], to_mesh[160], from[160], to[160];
  int two_meshes;
  const char* dtype;
  size_t elem_bytes, staging_bytes;
  int within; /* staging_bytes is a budget for redist_plan_create_within, whose choice must be in place */
} problem_t;

/* A mesh of 1 or 2 axes named by `names` (at most `world` devices), placed
 * on distinct random world ranks; its axis count and sizes in *naxes, sizes. */
static void random_mesh(int world, const char* names, char* out, int* naxes, int sizes[2]) {
  static const int choices[] = {1, 2, 2, 3, 4};
  int devices;
  do {
    *naxes = 1 + below(2);
    devices = 1;
    for (int a = 0; a < *naxes; ++a) devices *= sizes[a] = choices[below(5)];
  } while (devices > world);
  int ranks[64];
  for (int r = 0; r < world; ++r) ranks[r] = r;
  for (int r = world - 1; r > 0; --r) {
    const int k = below(r + 1), t = ranks[r];
    ranks[r] = ranks[k], ranks[k] = t;
  }
  int n = sprintf(out, "{");
  for (int a = 0; a < *naxes; ++a) n += sprintf(out + n, "%s%c:%d", a ? ", " : "", names[a], sizes[a]);
  n += sprintf(out + n, "} @ [");
  for (int r = 0; r < devices; ++r) n += sprintf(out + n, "%s%d", r ? ", " : "", ranks[r]);
  sprintf(out + n, "]");
}

/* A type over a mesh's axes: each axis shards a random dimension, or none. */
static void random_type(int ndim, const int* extents, int naxes, const char* names, char* out) {
  char dims[3][16] = {"", "", ""};
  for (int a = 0; a < naxes; ++a) {
    const int d = below(ndim + 1) - 1;
    if (d >= 0) sprintf(dims[d] + strlen(dims[d]), "%s%c", dims[d][0] ? "," : "", names[a]);
  }
  int n = sprintf(out, "[");
  for (int d = 0; d < ndim; ++d)
    n += dims[d][0] ? sprintf(out + n, "%s{%s}%d", d ? ", " : "", dims[d], extents[d])
                    : sprintf(out + n, "%s%d", d ? ", " : "", extents[d]);
  sprintf(out + n, "]");
}

static void random_problem(int world, int k, problem_t* p) {
  static const struct {
    const char* name;
    size_t bytes;
  } dtypes[] = {{"u8", 1}, {"i16", 2}, {"f32", 4}, {"f64", 8}, {"c128", 16}};
  int naxes = 0, sizes[2], to_naxes = 0, to_sizes[2], extents[3];
  const int ndim = 1 + below(3);
  for (int d = 0; d < ndim; ++d) extents[d] = 1 + below(ndim == 1 ? 40 : ndim == 2 ? 14 : 9);
  random_mesh(world, "ab", p->mesh, &naxes, sizes);
  p->within = 0;
  p->two_meshes = below(2);
  if (p->two_meshes) random_mesh(world, "cd", p->to_mesh, &to_naxes, to_sizes);
  random_type(ndim, extents, naxes, "ab", p->from);
  if (p->two_meshes)
    random_type(ndim, extents, to_naxes, "cd", p->to);
  else /* the same type moves nothing: drawn again, a few times */
    for (int tries = 0; tries < 8 && (tries == 0 || strcmp(p->from, p->to) == 0); ++tries)
      random_type(ndim, extents, naxes, "ab", p->to);
  const int t = below(5);
  p->dtype = dtypes[t].name;
  p->elem_bytes = dtypes[t].bytes;
  /* Staging: one element (plus a partial one), two, a random few, unbounded. */
  switch (k % 4) {
    case 0: p->staging_bytes = p->elem_bytes + p->elem_bytes / 2; break;
    case 1: p->staging_bytes = 2 * p->elem_bytes; break;
    case 2: p->staging_bytes = (size_t)(3 + below(30)) * p->elem_bytes; break;
    default: p->staging_bytes = SIZE_MAX; break;
  }
}

static size_t box_elements(int ndim, const size_t* extent) {
  size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= extent[d];
  return n;
}

/* Calls f on every element of a box, row-major: its local position and global index. */
static void for_box(int ndim, const size_t* shape, const size_t* offset, const size_t* extent,
                    void (*f)(void* ctx, size_t local, uint64_t global), void* ctx) {
  const size_t n = box_elements(ndim, extent);
  size_t index[REDIST_MAX_DIMS] = {0};
  for (size_t i = 0; i < n; ++i) {
    uint64_t g = 0;
    for (int d = 0; d < ndim; ++d) g = g * shape[d] + offset[d] + index[d];
    f(ctx, i, g);
    for (int d = ndim - 1; d >= 0 && ++index[d] == extent[d]; --d) index[d] = 0;
  }
}

typedef struct {
  unsigned char* buf;
  size_t elem_bytes;
  long wrong;
} fill_t;

static void fill_one(void* ctx, size_t local, uint64_t global) {
  fill_t* f = ctx;
  for (size_t j = 0; j < f->elem_bytes; ++j) f->buf[local * f->elem_bytes + j] = value_byte(global, j);
}
static void check_one(void* ctx, size_t local, uint64_t global) {
  fill_t* f = ctx;
  for (size_t j = 0; j < f->elem_bytes; ++j)
    if (f->buf[local * f->elem_bytes + j] != value_byte(global, j)) {
      ++f->wrong;
      return;
    }
}

/* The global shape: the upper corner of every rank's source box. */
static void global_shape(const redist_plan_t* plan, int devices, size_t* shape) {
  const int ndim = redist_plan_ndim(plan);
  size_t offset[REDIST_MAX_DIMS], extent[REDIST_MAX_DIMS];
  for (int d = 0; d < ndim; ++d) shape[d] = 0;
  for (int r = 0; r < devices; ++r) {
    redist_plan_src_box(plan, r, offset, extent, NULL, 0);
    for (int d = 0; d < ndim; ++d)
      if (extent[d] > 0 && offset[d] + extent[d] > shape[d]) shape[d] = offset[d] + extent[d];
  }
}

/* One problem; on failure *why says what (this rank's view).  *rounds: the plan's. */
static int run_problem(const problem_t* p, int rank, size_t* rounds, long long* heap_peak, char* why, size_t whylen) {
  char err[512];
  redist_plan_t* plan = NULL;
  const char* to_mesh = p->two_meshes ? p->to_mesh : NULL;
  int rc = p->within ? redist_plan_create_within(p->mesh, to_mesh, p->from, p->to, p->dtype, p->staging_bytes, &plan,
                                                 err, sizeof err)
                     : redist_plan_create_in_place(p->mesh, to_mesh, p->from, p->to, p->dtype, p->staging_bytes, &plan,
                                                   err, sizeof err);
  if (rc != REDIST_OK) return snprintf(why, whylen, "create: code %d: %s", rc, err), 0;
  if (p->within && (redist_plan_by_exchange(plan) != 4 || redist_plan_alloc_bytes(plan) > p->staging_bytes)) {
    snprintf(why, whylen, "within %zu B: plan kind %d allocating %llu B, not in place within the budget",
             p->staging_bytes, redist_plan_by_exchange(plan), (unsigned long long)redist_plan_alloc_bytes(plan));
    redist_plan_free(plan);
    return 0;
  }
  *rounds = redist_plan_num_steps(plan);
  const int ndim = redist_plan_ndim(plan), devices = redist_plan_devices(plan);
  size_t shape[REDIST_MAX_DIMS], src_off[REDIST_MAX_DIMS], src_ext[REDIST_MAX_DIMS], tgt_off[REDIST_MAX_DIMS],
      tgt_ext[REDIST_MAX_DIMS];
  global_shape(plan, devices, shape);
  redist_plan_src_box(plan, rank, src_off, src_ext, NULL, 0);
  redist_plan_tgt_box(plan, rank, tgt_off, tgt_ext, NULL, 0);
  const size_t src_n = box_elements(ndim, src_ext), tgt_n = box_elements(ndim, tgt_ext);
  const size_t buf_bytes = (size_t)redist_plan_buffer_bytes(plan, rank);
  const size_t staging_bytes = (size_t)redist_plan_workspace_bytes(plan);
  const size_t larger = (src_n > tgt_n ? src_n : tgt_n) * p->elem_bytes;
  int ok = 1;
  if (buf_bytes != larger)
    ok = 0, snprintf(why, whylen, "buffer of %zu bytes, max(source, target) is %zu", buf_bytes, larger);
  if (ok && (staging_bytes > p->staging_bytes / p->elem_bytes * p->elem_bytes ||
             redist_plan_live_bytes(plan) < staging_bytes + buf_bytes))
    ok = 0, snprintf(why, whylen, "staging of %zu bytes beyond the %zu allowed, or live bytes below buffer + staging",
                     staging_bytes, p->staging_bytes);
  unsigned char* buf = malloc(buf_bytes + 1);
  unsigned char* staging = malloc(staging_bytes + 1);
  memset(buf, 0xEE, buf_bytes);
  fill_t f = {buf, p->elem_bytes, 0};
  for_box(ndim, shape, src_off, src_ext, fill_one, &f);
  /* Every rank makes the same collective calls whatever it found so far;
   * only a failed bind or run, whose verdict the ranks agree on, stops them. */
  redist_exec_t* exec = NULL;
  if ((rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err)) != REDIST_OK)
    ok = 0, snprintf(why, whylen, "bind: code %d: %s", rc, err);
  for (int run = 1; exec != NULL && run <= 2; ++run) {
    if (run == 2) memset(buf, 0xEE, buf_bytes), for_box(ndim, shape, src_off, src_ext, fill_one, &f);
    open_window();
    rc = redist_exec_run_in_place(exec, buf_bytes ? buf : NULL, buf_bytes, staging_bytes ? staging : NULL,
                                  staging_bytes, err, sizeof err);
    close_window();
    *heap_peak = atomic_load(&window_peak);
    const long long own = atomic_load(&window_own), outside = atomic_load(&window_outside);
    if (rc != REDIST_OK) {
      if (ok) ok = 0, snprintf(why, whylen, "run %d: code %d: %s", run, rc, err);
      break;
    }
    f.wrong = 0;
    for_box(ndim, shape, tgt_off, tgt_ext, check_one, &f);
    if (ok && f.wrong > 0)
      ok = 0, snprintf(why, whylen, "run %d: %ld of %zu target elements wrong on rank %d", run, f.wrong, tgt_n, rank);
    else if (ok && (own != 0 || outside != 0))
      ok = 0, snprintf(why, whylen, "run %d: %lld bytes allocated outside MPI calls, %lld by the runtime, on rank %d",
                       run, outside, own, rank);
  }
  redist_exec_free(exec);
  free(buf);
  free(staging);
  redist_plan_free(plan);
  return ok;
}

static int random_suite(int count, uint64_t seed, int rank, int world) {
  long long mpi_peak = 0;
  for (int k = 0; k < count; ++k) {
    problem_t p;
    rng_state = mix(seed * 1000003u + (uint64_t)world * 7919u + (uint64_t)k);
    random_problem(world, k, &p);
    char why[600] = "";
    size_t rounds = 0;
    long long peak = 0, peak_max = 0;
    int ok = run_problem(&p, rank, &rounds, &peak, why, sizeof why);
    MPI_Allreduce(&peak, &peak_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (peak_max > mpi_peak) mpi_peak = peak_max;
    /* Every rank's verdict; the first failing rank says why. */
    int all_ok = 0, first_bad = world;
    const int mine_bad = ok ? world : rank;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine_bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok && first_bad != 0) {
      if (rank == first_bad) MPI_Send(why, sizeof why, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      if (rank == 0) MPI_Recv(why, sizeof why, MPI_CHAR, first_bad, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
      char staging[32];
      if (p.staging_bytes == SIZE_MAX)
        snprintf(staging, sizeof staging, "unbounded");
      else
        snprintf(staging, sizeof staging, "%zu B", p.staging_bytes);
      tap_result(all_ok, "in place on %d ranks: %s%s%s, %s to %s, %s, staging %s: %s", world, p.mesh,
                 p.two_meshes ? " to " : "", p.two_meshes ? p.to_mesh : "", p.from, p.to, p.dtype, staging,
                 all_ok ? "" : why);
      if (all_ok)
        printf("#   %zu rounds, every element of every rank right in both runs, 0 bytes allocated outside MPI "
               "calls; run 2's peak heap growth inside them %lld bytes\n",
               rounds, peak_max);
    }
  }
  if (rank == 0)
    printf("# %d problems on %d ranks: 0 bytes allocated outside MPI calls during the runs; the most Open MPI "
           "took inside them (run 2's peak heap growth, any rank) %lld bytes\n",
           count, world, mpi_peak);
  return rank == 0 ? tap_end() : 0;
}

/* ---- within a budget ------------------------------------------------------ */

/* redist_plan_create_within on 4 ranks, rows to columns of 8 x 8 f32 (64 B
 * of source and of target per rank): at 128 B, source + destination, a
 * plan out of place within it; one byte less only in place fits (kind 4),
 * run in place and every element checked; below the largest buffer and
 * one element (68 B) code 2 naming both least figures; composed cuts and
 * null arguments code 2. */
static int within_suite(int rank, int world) {
  const char* mesh = "{x:4}";
  const char* from = "[{x}8, 8]";
  const char* to = "[8, {x}8]";
  char err[512] = "";
  redist_plan_t* plan = NULL;
  if (world != 4) {
    if (rank == 0) tap_result(0, "within: needs 4 ranks, has %d", world);
    return rank == 0 ? tap_end() : 1;
  }
  int rc = redist_plan_create_within(mesh, NULL, from, to, "f32", 128, &plan, err, sizeof err);
  int ok = rc == REDIST_OK && redist_plan_by_exchange(plan) != 4 && redist_plan_alloc_bytes(plan) <= 128 &&
           redist_plan_alloc_bytes(plan) == redist_plan_src_bytes(plan) + redist_plan_dst_bytes(plan) +
                                                redist_plan_workspace_bytes(plan);
  if (rank == 0)
    tap_result(ok, "within 128 B: out of place (kind %d), allocating %llu B: %s", plan ? redist_plan_by_exchange(plan) : -1,
               plan ? (unsigned long long)redist_plan_alloc_bytes(plan) : 0ull, rc == REDIST_OK ? "" : err);
  redist_plan_free(plan);

  problem_t p = {.two_meshes = 0, .dtype = "f32", .elem_bytes = 4, .staging_bytes = 127, .within = 1};
  strcpy(p.mesh, mesh), strcpy(p.from, from), strcpy(p.to, to);
  char why[600] = "";
  size_t rounds = 0;
  long long peak = 0;
  ok = run_problem(&p, rank, &rounds, &peak, why, sizeof why);
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0)
    tap_result(all_ok, "within 127 B: in place (kind 4, %zu rounds), every element of every rank right: %s", rounds,
               ok ? "" : why);

  plan = NULL;
  rc = redist_plan_create_within(mesh, NULL, from, to, "f32", 67, &plan, err, sizeof err);
  ok = rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, "below 128") != NULL && strstr(err, "below 68") != NULL;
  if (rank == 0) tap_result(ok, "within 67 B: code 2, \"%s\"", err);
  rc = redist_plan_create_within("{x:2, y:2}", NULL, "[{x}{y}8, 4]", "[{y}{x}8, 4]", "f32", 1 << 20, &plan, err,
                                 sizeof err);
  ok = rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, "composed cuts") != NULL;
  if (rank == 0) tap_result(ok, "within, composed cuts: code 2, \"%s\"", err);
  rc = redist_plan_create_within(mesh, NULL, NULL, to, "f32", 128, &plan, err, sizeof err);
  ok = rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, "null") != NULL;
  if (rank == 0) tap_result(ok, "within, a null from: code 2, \"%s\"", err);
  return rank == 0 ? tap_end() : 0;
}

/* ---- misuse --------------------------------------------------------------- */

/* Every rank's code is non-zero and rank `where`'s message contains `expect`
 * (where < 0: every rank's). */
static int all_refused(int rc, const char* err, int where, const char* expect, int rank) {
  int refused = rc != REDIST_OK, all = 0;
  if (refused && (where < 0 || where == rank) && strstr(err, expect) == NULL) refused = 0;
  if (!refused) fprintf(stderr, "rank %d: code %d: %s (expected \"%s\")\n", rank, rc, err, expect);
  MPI_Allreduce(&refused, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

static int misuse_suite(int rank, int world) {
  char err[512] = "";
  /* A transpose on one mesh: its cycles need staging. */
  const char* mesh = "{x:4}";
  const char* from = "[{x}8, 6]";
  const char* to = "[8, {x}6]";
  redist_plan_t *in_place = NULL, *plain = NULL;
  int rc = redist_plan_create_in_place(mesh, NULL, from, to, "f32", 4, &in_place, err, sizeof err);
  int rc2 = redist_plan_create(mesh, from, to, "f32", &plain, err, sizeof err);
  if (rc != REDIST_OK || rc2 != REDIST_OK || world != 4) {
    if (rank == 0) tap_result(0, "misuse: the plans of the misuse cases (on 4 ranks): %s", err);
    return rank == 0 ? tap_end() : 1;
  }
  const size_t buf_bytes = (size_t)redist_plan_buffer_bytes(in_place, rank);
  const size_t staging_bytes = (size_t)redist_plan_workspace_bytes(in_place);
  const size_t plain_src = (size_t)redist_plan_src_bytes(plain), plain_dst = (size_t)redist_plan_dst_bytes(plain);
  unsigned char* buf = calloc(buf_bytes + staging_bytes + 64, 1);
  unsigned char* staging = calloc(staging_bytes + 64, 1);
  unsigned char* src = calloc(plain_src + 64, 1);
  unsigned char* dst = calloc(plain_dst + 64, 1);
  unsigned char* workspace = calloc((size_t)redist_plan_workspace_bytes(plain) + 64, 1);
  redist_exec_t *exec = NULL, *plain_exec = NULL;
  int ok = redist_plan_bind(in_place, MPI_COMM_WORLD, &exec, err, sizeof err) == REDIST_OK &&
           redist_plan_bind(plain, MPI_COMM_WORLD, &plain_exec, err, sizeof err) == REDIST_OK && staging_bytes > 0;
  if (rank == 0) tap_result(ok, "misuse: both plans bind on 4 ranks (the in-place one needs %zu bytes of staging)",
                            staging_bytes);
  if (!ok) return rank == 0 ? tap_end() : 1;

  rc = redist_exec_run(exec, src, plain_src, dst, plain_dst, workspace, 0, err, sizeof err);
  ok = all_refused(rc, err, -1, "call redist_exec_run_in_place", rank);
  if (rank == 0) tap_result(ok, "misuse: an in-place plan given to redist_exec_run: code 2 on every rank");
  rc = redist_exec_start(exec, src, plain_src, dst, plain_dst, workspace, 0, err, sizeof err);
  ok = all_refused(rc, err, -1, "call redist_exec_run_in_place", rank);
  if (rank == 0) tap_result(ok, "misuse: an in-place plan given to redist_exec_start: code 2 on every rank");
  rc = redist_exec_run_in_place(plain_exec, buf, buf_bytes, staging, staging_bytes, err, sizeof err);
  ok = all_refused(rc, err, -1, "the plan is not in place", rank);
  if (rank == 0) tap_result(ok, "misuse: a plain plan given to redist_exec_run_in_place: code 2 on every rank");

  rc = redist_exec_run_in_place(exec, buf, rank == 1 ? buf_bytes - 1 : buf_bytes, staging, staging_bytes, err,
                                sizeof err);
  ok = all_refused(rc, err, 1, "buffer has", rank) && all_refused(rc, err, 0, "another rank", rank);
  if (rank == 0) tap_result(ok, "misuse: rank 1's buffer one byte short: buffer_too_small there, remote_error elsewhere");
  rc = redist_exec_run_in_place(exec, buf, buf_bytes, staging, rank == 3 ? staging_bytes - 1 : staging_bytes, err,
                                sizeof err);
  ok = all_refused(rc, err, 3, "staging has", rank);
  if (rank == 0) tap_result(ok, "misuse: rank 3's staging one byte short: every rank fails");
  rc = redist_exec_run_in_place(exec, buf, buf_bytes, rank == 2 ? buf + buf_bytes - 1 : staging, staging_bytes, err,
                                sizeof err);
  ok = all_refused(rc, err, 2, "overlap", rank);
  if (rank == 0) tap_result(ok, "misuse: rank 2's staging overlapping its buffer: every rank fails");
  rc = redist_exec_run_in_place(exec, NULL, buf_bytes, staging, staging_bytes, err, sizeof err);
  ok = all_refused(rc, err, -1, "buffer is null", rank);
  if (rank == 0) tap_result(ok, "misuse: a null buffer: every rank fails");

  redist_plan_t* refused = NULL;
  rc = redist_plan_create_in_place(mesh, NULL, from, to, "f32", 3, &refused, err, sizeof err);
  ok = all_refused(rc == REDIST_ERR_BAD_INPUT ? rc : REDIST_OK, err, -1, "less than one element", rank) &&
       refused == NULL;
  if (rank == 0) tap_result(ok, "misuse: staging of 3 bytes for f32: code 2, \"%s\"", err);
  rc = redist_plan_create_in_place("{x:2, y:2}", NULL, "[{x}8] sum{y}", "[{x}8]", "f32", 64, &refused, err,
                                   sizeof err);
  ok = all_refused(rc == REDIST_ERR_BAD_INPUT ? rc : REDIST_OK, err, -1, "pending sums", rank) && refused == NULL;
  if (rank == 0) tap_result(ok, "misuse: pending sums in place: code 2, \"%s\"", err);

  /* After the refusals the executor still runs right. */
  size_t shape[REDIST_MAX_DIMS], off[REDIST_MAX_DIMS], ext[REDIST_MAX_DIMS];
  global_shape(in_place, 4, shape);
  redist_plan_src_box(in_place, rank, off, ext, NULL, 0);
  fill_t f = {buf, 4, 0};
  for_box(2, shape, off, ext, fill_one, &f);
  rc = redist_exec_run_in_place(exec, buf, buf_bytes, staging, staging_bytes, err, sizeof err);
  redist_plan_tgt_box(in_place, rank, off, ext, NULL, 0);
  for_box(2, shape, off, ext, check_one, &f);
  int right = rc == REDIST_OK && f.wrong == 0;
  MPI_Allreduce(&right, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) tap_result(ok, "misuse: after the refusals the in-place run moves every element right");

  redist_exec_free(exec);
  redist_exec_free(plain_exec);
  redist_plan_free(in_place);
  redist_plan_free(plain);
  free(buf);
  free(staging);
  free(src);
  free(dst);
  free(workspace);
  return rank == 0 ? tap_end() : 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  int rc = 2;
  if (argc == 4 && strcmp(argv[1], "random") == 0)
    rc = random_suite(atoi(argv[2]), (uint64_t)strtoull(argv[3], NULL, 10), rank, world);
  else if (argc == 2 && strcmp(argv[1], "misuse") == 0)
    rc = misuse_suite(rank, world);
  else if (argc == 2 && strcmp(argv[1], "within") == 0)
    rc = within_suite(rank, world);
  else if (rank == 0)
    fprintf(stderr, "usage: in_place_c random COUNT SEED | in_place_c misuse | in_place_c within\n");
  MPI_Finalize();
  return rc;
}
