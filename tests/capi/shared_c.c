/* Single copy on a host through redist/redist.h (redist_alloc, redist_free,
 * redist_exec_direct_bytes), under mpirun -np 4 (every rank on this host):
 * a plan by the exchange run on arrays from redist_alloc (both, the source
 * only, the destination only), each twice on the same arrays with new values
 * the second time, and split phase; plans by the collectives (a transpose,
 * a pending sum, and 12 random problems on a 2x2 mesh) on such arrays, every
 * all_gather, all_to_all and all_permute read straight out of the peers'
 * arrays when source, destination and workspace all come from redist_alloc,
 * and by MPI when the workspace does not; a plan by the reducing exchange against its run on malloc'ed
 * arrays; a hybrid of two exchanges with its source and its workspace (the
 * second part's source) from redist_alloc or not; every element of every
 * rank checked, and the bytes moved with one copy equal to the received
 * bytes exactly when the sources are shared.
 * Misuse on rank 3 (a pointer not from redist_alloc, a double free, a null
 * out) is code 2 there and code 4 elsewhere; pointers of different
 * allocations and a null communicator are code 2.  Rank 0 prints one TAP
 * result per case for the whole world (tap.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "redist/redist.h"
#include "tap.h"

static int rank, culprit;

/* One result for the whole world: passed on every rank. */
static void result(int passed, const char* what, const char* err) {
  int all = 0;
  MPI_Allreduce(&passed, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!passed) fprintf(stderr, "rank %d: %s: %s\n", rank, what, err ? err : "wrong result");
  if (rank == 0) tap_result(all, "%s", what);
}

typedef struct {
  redist_plan_t* plan;
  int ndim;
  size_t elem, src_bytes, dst_bytes, kept_bytes;
  size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
} problem;

static int open_problem(const char* mesh, const char* from, const char* to, const char* strategy, problem* p) {
  char err[512] = "";
  memset(p, 0, sizeof *p);
  /* A strategy with a via line is a hybrid plan of one's own, checked. */
  const int rc = strstr(strategy, "\nvia ") != NULL
                     ? redist_plan_check(mesh, NULL, from, to, "u32", strategy, &p->plan, err, sizeof err)
                     : redist_plan_create_with(mesh, NULL, from, to, "u32", strategy, &p->plan, err, sizeof err);
  if (rc != REDIST_OK) {
    result(0, "plan", err);
    return 0;
  }
  p->ndim = redist_plan_ndim(p->plan);
  p->elem = redist_plan_elem_bytes(p->plan);
  redist_plan_src_box(p->plan, rank, p->src_off, p->src_ext, err, sizeof err);
  redist_plan_tgt_box(p->plan, rank, p->dst_off, p->dst_ext, err, sizeof err);
  p->src_bytes = p->dst_bytes = p->kept_bytes = p->elem;
  for (int d = 0; d < p->ndim; ++d) {
    const size_t lo = p->src_off[d] > p->dst_off[d] ? p->src_off[d] : p->dst_off[d];
    const size_t src_hi = p->src_off[d] + p->src_ext[d], dst_hi = p->dst_off[d] + p->dst_ext[d];
    const size_t hi = src_hi < dst_hi ? src_hi : dst_hi;
    p->src_bytes *= p->src_ext[d];
    p->dst_bytes *= p->dst_ext[d];
    p->kept_bytes *= hi > lo ? hi - lo : 0;
  }
  return 1;
}

/* An array of `bytes` from redist_alloc (shared) or malloc; NULL on failure. */
static unsigned char* array(int shared, size_t bytes) {
  char err[512] = "";
  void* p = NULL;
  if (!shared) return malloc(bytes);
  return redist_alloc(MPI_COMM_WORLD, bytes, &p, err, sizeof err) == REDIST_OK ? p : NULL;
}

static void release(int shared, unsigned char* p) {
  char err[512] = "";
  if (!shared) free(p);
  else if (redist_free(MPI_COMM_WORLD, p, err, sizeof err) != REDIST_OK) result(0, "redist_free", err);
}

/* Runs the plan `rounds` times (split: start, test until done, wait) on
 * arrays placed as asked (the workspace, where the plan has one, from
 * redist_alloc when `shared_ws`), the source's values changed (a salt in
 * its last byte of each element) after each round: every element right
 * each time, and the bytes moved with one copy. */
static void run_on(problem* p, int shared_src, int shared_dst, int shared_ws, int split, size_t want_direct,
                   const char* what) {
  char err[512] = "";
  redist_exec_t* exec = NULL;
  const size_t ws_bytes = redist_plan_workspace_bytes(p->plan);
  unsigned char* src = array(shared_src, p->src_bytes);
  unsigned char* dst = array(shared_dst, p->dst_bytes);
  unsigned char* ws = array(shared_ws, ws_bytes + 1);
  int passed = src != NULL && dst != NULL && ws != NULL &&
               redist_plan_bind(p->plan, MPI_COMM_WORLD, &exec, err, sizeof err) == 0;
  for (int round = 0; passed && round < 2; ++round) {
    walk_box(p->src_off, p->src_ext, p->ndim, p->elem, src, 0);
    for (size_t e = 0; e < p->src_bytes / p->elem; ++e) src[e * p->elem + p->elem - 1] ^= (unsigned char)round;
    memset(dst, 0xA5, p->dst_bytes);
    int rc;
    if (split) {
      int done = 0;
      rc = redist_exec_start(exec, src, p->src_bytes, dst, p->dst_bytes, ws, ws_bytes, err, sizeof err);
      while (rc == REDIST_OK && !done) rc = redist_exec_test(exec, &done, err, sizeof err);
      rc = rc ? rc : redist_exec_wait(exec, err, sizeof err);
    } else {
      rc = redist_exec_run(exec, src, p->src_bytes, dst, p->dst_bytes, ws, ws_bytes, err, sizeof err);
    }
    for (size_t e = 0; rc == REDIST_OK && e < p->dst_bytes / p->elem; ++e) dst[e * p->elem + p->elem - 1] ^= (unsigned char)round;
    passed = rc == REDIST_OK && walk_box(p->dst_off, p->dst_ext, p->ndim, p->elem, dst, 1) == 0 &&
             redist_exec_direct_bytes(exec) == want_direct;
    if (rc == REDIST_OK && !passed)
      snprintf(err, sizeof err, "round %d: wrong elements or %zu bytes by one copy, expected %zu", round,
               redist_exec_direct_bytes(exec), want_direct);
  }
  redist_exec_free(exec);
  release(shared_src, src);
  release(shared_dst, dst);
  release(shared_ws, ws);
  result(passed, what, err);
}

/* A plan by the reducing exchange run on arrays placed as asked against the
 * same run on malloc'ed arrays (by MPI, no byte by one copy): the same
 * bytes (the sums added in the same order), and the bytes moved with one
 * copy. */
static void reduce_on(problem* p, int shared_src, int shared_dst, size_t want_direct, const char* what) {
  char err[512] = "";
  redist_exec_t* exec = NULL;
  const size_t ws_bytes = redist_plan_workspace_bytes(p->plan);
  unsigned char* src = array(shared_src, p->src_bytes);
  unsigned char* dst = array(shared_dst, p->dst_bytes);
  unsigned char* ws = array(0, ws_bytes + 1);
  unsigned char* heap_src = array(0, p->src_bytes);
  unsigned char* by_mpi = array(0, p->dst_bytes);
  int passed = src && dst && ws && heap_src && by_mpi &&
               redist_plan_bind(p->plan, MPI_COMM_WORLD, &exec, err, sizeof err) == REDIST_OK;
  if (passed) {
    walk_box(p->src_off, p->src_ext, p->ndim, p->elem, heap_src, 0);
    memcpy(src, heap_src, p->src_bytes);
    memset(dst, 0xA5, p->dst_bytes);
    int rc = redist_exec_run(exec, heap_src, p->src_bytes, by_mpi, p->dst_bytes, ws, ws_bytes, err, sizeof err);
    const size_t heap_direct = redist_exec_direct_bytes(exec);
    rc = rc ? rc : redist_exec_run(exec, src, p->src_bytes, dst, p->dst_bytes, ws, ws_bytes, err, sizeof err);
    passed = rc == REDIST_OK && heap_direct == 0 && memcmp(dst, by_mpi, p->dst_bytes) == 0 &&
             redist_exec_direct_bytes(exec) == want_direct;
    if (rc == REDIST_OK && !passed)
      snprintf(err, sizeof err, "bytes differ from the run by MPI, or %zu bytes by one copy (%zu by MPI), expected %zu",
               redist_exec_direct_bytes(exec), heap_direct, want_direct);
  }
  redist_exec_free(exec);
  release(shared_src, src);
  release(shared_dst, dst);
  release(0, ws);
  release(0, heap_src);
  release(0, by_mpi);
  result(passed, what, err);
}

/* The bytes a plan by the collectives moves into this rank from other
 * ranks in its all_gather, all_to_all and all_permute steps (its
 * reductions go by MPI): what single copy reads out of the peers' arrays. */
static size_t collective_bytes_in(const problem* p) {
  char err[512] = "";
  size_t in = 0;
  for (size_t i = 0; i < redist_plan_num_steps(p->plan); ++i) {
    redist_step_info_t step;
    if (redist_plan_step(p->plan, i, &step, err, sizeof err) != REDIST_OK) return (size_t)-1;
    size_t local = p->elem;
    for (int d = 0; d < step.ndim; ++d) local *= step.shape[d];
    const size_t others = (size_t)step.group_size - 1;
    if (step.op == 1) in += local * others;
    else if (step.op == 2) in += local / (size_t)step.group_size * others;
    else if (step.op == 3 && step.recv_from[rank] != rank) in += local;
  }
  return in;
}

/* A deterministic generator, the same sequence on every rank. */
static unsigned next_random(unsigned* state) {
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

/* A random layout of a `ndim`-dimensional array of `extents` on the mesh
 * {x:2, y:2}: each axis shards one dimension or none. */
static void random_layout(unsigned* state, int ndim, const unsigned* extents, char* out, size_t len) {
  int axis_dim[2];
  for (int a = 0; a < 2; ++a) axis_dim[a] = (int)(next_random(state) % (unsigned)(ndim + 1)) - 1;
  if (axis_dim[0] == axis_dim[1] && axis_dim[0] >= 0 && next_random(state) % 2) axis_dim[1] = -1;
  size_t used = (size_t)snprintf(out, len, "[");
  for (int d = 0; d < ndim; ++d) {
    const char* by = axis_dim[0] == d && axis_dim[1] == d ? "{x,y}" : axis_dim[0] == d ? "{x}" : axis_dim[1] == d ? "{y}" : "";
    used += (size_t)snprintf(out + used, len - used, "%s%s%u", d ? ", " : "", by, extents[d]);
  }
  snprintf(out + used, len - used, "]");
}

/* 12 random problems by the collectives on 4 ranks, each run with every
 * array from redist_alloc (the collectives' incoming bytes by one copy),
 * and with the workspace from malloc (by MPI, unless the plan needs none). */
static void random_collectives(void) {
  unsigned state = 30;
  for (int i = 0; i < 12; ++i) {
    const int ndim = 2 + (int)(next_random(&state) % 2);
    unsigned extents[3];
    for (int d = 0; d < ndim; ++d) extents[d] = 4 * (1 + next_random(&state) % 6);
    char from[96], to[96], what[320];
    random_layout(&state, ndim, extents, from, sizeof from);
    do random_layout(&state, ndim, extents, to, sizeof to);
    while (strcmp(from, to) == 0);
    problem c;
    if (!open_problem("{x:2, y:2}", from, to, "collectives", &c)) return;
    const size_t in = collective_bytes_in(&c);
    snprintf(what, sizeof what, "collectives %s -> %s (%zu steps), every array from redist_alloc: every element, "
             "the incoming bytes by one copy", from, to, redist_plan_num_steps(c.plan));
    run_on(&c, 1, 1, 1, i % 2, in, what);
    snprintf(what, sizeof what, "collectives %s -> %s, workspace from malloc: every element, by MPI unless the plan "
             "needs no workspace", from, to);
    run_on(&c, 1, 1, 0, 0, redist_plan_workspace_bytes(c.plan) == 0 ? in : 0, what);
    redist_plan_free(c.plan);
  }
}

/* rc and err as a rank expects them: `mine` (code 2 and text) on the
 * culprit, code 4 (remote_error) on the others. */
static int refused(int rc, const char* err, const char* text) {
  if (rank == culprit) return rc == REDIST_ERR_BAD_INPUT && strstr(err, text) != NULL && strchr(err, '\n') == NULL;
  return rc == REDIST_ERR_RUNTIME && strstr(err, "remote_error") != NULL;
}

static void misuse(void) {
  char err[512] = "", text[128];
  void *a = NULL, *b = NULL;
  int on_heap = 0;
  int rc = redist_alloc(MPI_COMM_WORLD, 64, &a, err, sizeof err);
  rc = rc ? rc : redist_alloc(MPI_COMM_WORLD, 64, &b, err, sizeof err);
  result(rc == REDIST_OK, "redist_alloc twice", err);

  rc = redist_free(MPI_COMM_WORLD, rank == culprit ? (void*)&on_heap : a, err, sizeof err);
  snprintf(text, sizeof text, "invalid_argument: redist_free: pointer %p was not allocated by redist_alloc",
           (void*)&on_heap);
  result(refused(rc, err, text), "redist_free of a pointer not from redist_alloc on rank 3: code 2 there, 4 elsewhere",
         err);
  rc = redist_free(MPI_COMM_WORLD, rank == culprit ? b : a, err, sizeof err);
  result(rc == REDIST_ERR_BAD_INPUT && strstr(err, "redist_free: ranks freed buffers of different allocations"),
         "redist_free of different allocations' pointers: code 2 on every rank", err);
  ((unsigned char*)a)[63] = 1; /* still live after refused frees */
  rc = redist_free(MPI_COMM_WORLD, a, err, sizeof err);
  result(rc == REDIST_OK, "after refused frees the buffer is live and frees", err);
  rc = redist_free(MPI_COMM_WORLD, rank == culprit ? a : b, err, sizeof err);
  snprintf(text, sizeof text, "invalid_argument: redist_free: pointer %p was freed already", a);
  result(refused(rc, err, text), "a double free on rank 3: code 2 there, 4 elsewhere", err);
  rc = redist_free(MPI_COMM_WORLD, b, err, sizeof err);
  result(rc == REDIST_OK, "the other buffer frees", err);

  void* out = &out;
  rc = redist_alloc(MPI_COMM_WORLD, 8, rank == culprit ? NULL : &out, err, sizeof err);
  result(refused(rc, err, "invalid_argument: redist_alloc: output pointer is null") && (rank == culprit || out == NULL),
         "redist_alloc with a null out on rank 3: code 2 there, 4 elsewhere", err);
  rc = redist_alloc(MPI_COMM_NULL, 8, &out, err, sizeof err);
  result(rc == REDIST_ERR_BAD_INPUT && strstr(err, "redist_alloc: communicator is MPI_COMM_NULL"),
         "redist_alloc over MPI_COMM_NULL: code 2", err);
  result(redist_exec_direct_bytes(NULL) == 0, "redist_exec_direct_bytes of no executor: 0", NULL);
}

int main(int argc, char** argv) {
  int size = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  culprit = size - 1;
  problem x, c, r, h;
  if (open_problem("{x:4}", "[{x}4096, 33]", "[4096, {x}33]", "exchange", &x) &&
      open_problem("{x:2, y:2}", "[{x}64, {y}32]", "[{y}64, {x}32]", "collectives", &c) &&
      open_problem("{x:2, y:2}", "[{x}30, 7] sum{y}", "[{y}30, 7]", "exchange", &r) &&
      open_problem("{x:4}", "[{x}64, 32]", "[{x}64, 32]", "exchange\nvia [64, {x}32]\nexchange", &h)) {
    const size_t received = x.dst_bytes - x.kept_bytes;
    run_on(&x, 1, 1, 0, 0, received, "exchange, source and destination from redist_alloc, run twice: every element, "
                                     "every received byte by one copy");
    run_on(&x, 1, 0, 0, 0, received, "exchange, source from redist_alloc, destination from malloc: every element, "
                                     "every received byte by one copy");
    run_on(&x, 0, 1, 0, 0, 0, "exchange, source from malloc, destination from redist_alloc: every element, by MPI");
    run_on(&x, 1, 1, 0, 1, received, "exchange from redist_alloc in split phase (start, test until done, wait) twice: "
                                     "every element, by one copy");
    const size_t transposed = collective_bytes_in(&c);
    run_on(&c, 1, 1, 1, 0, transposed, "collectives on arrays from redist_alloc, run twice: every element, every "
                                       "incoming byte by one copy");
    run_on(&c, 1, 0, 1, 0, 0, "collectives, destination from malloc: every element, by MPI");
    run_on(&c, 0, 1, 1, 0, 0, "collectives, source from malloc: every element, by MPI");
    random_collectives();
    /* Rank (x, y) = 2x + y receives the 15x7 u32 of each member of the
     * source group (y, *) other than itself: one when x == y, else two. */
    const size_t contributions = rank / 2 == rank % 2 ? 1 : 2, piece = 15 * 7 * 4;
    reduce_on(&r, 1, 1, contributions * piece, "reducing exchange, source and destination from redist_alloc: the "
                                               "bytes by MPI, every received contribution by one copy");
    reduce_on(&r, 1, 0, contributions * piece, "reducing exchange, source from redist_alloc: the bytes by MPI, "
                                               "every received contribution by one copy");
    reduce_on(&r, 0, 1, 0, "reducing exchange, destination only from redist_alloc: the bytes by MPI, none by one copy");
    /* Each part of the hybrid, an exchange of a 64x32 u32 array over 4
     * ranks, receives 3 of its 4 16x8 pieces: 1536 bytes. */
    const size_t part = 3 * 16 * 8 * 4;
    run_on(&h, 1, 1, 1, 0, 2 * part, "hybrid of two exchanges, source and workspace from redist_alloc, run twice: "
                                     "every element, both parts' received bytes by one copy");
    run_on(&h, 1, 0, 0, 1, part, "hybrid, source only from redist_alloc, split phase: every element, the first "
                                 "part's received bytes by one copy");
    run_on(&h, 0, 0, 1, 0, part, "hybrid, workspace only from redist_alloc: every element, the second part "
                                 "(reading the intermediate) by one copy");
    misuse();
    redist_plan_free(x.plan);
    redist_plan_free(c.plan);
    redist_plan_free(r.plan);
    redist_plan_free(h.plan);
  }
  MPI_Finalize();
  return rank == 0 ? tap_end() : 0;
}
