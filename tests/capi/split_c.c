/* Split phase of redist/redist.h (redist_exec_start, _test, _wait), under
 * mpirun -np 4: a plan by the exchange, one by the collectives and one by
 * the reducing exchange, each started, polled with redist_exec_test while
 * the rank computes, then waited for; every element of every rank checked
 * (the reducing exchange's against redist_exec_run's bytes).  Misuse: test
 * and wait with nothing started, a null done, start twice on every rank
 * (code 2 everywhere, the first operation still completes), a second start
 * on rank 0 only while the others start anew (rank 0 code 2, the others
 * code 4, none hangs), run between start and wait, and an executor freed
 * with its operation in flight (completed first).  Each rank prints "ok
 * ..." or "FAIL ..." lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "redist/redist.h"

static int rank;

static void expect(int cond, const char* what, const char* err) {
  printf("%s rank %d: %s%s%s\n", cond ? "ok" : "FAIL", rank, what, err ? ": " : "", err ? err : "");
}

typedef struct {
  redist_plan_t* plan;
  int ndim;
  size_t elem, src_bytes, dst_bytes, ws_bytes;
  size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
  unsigned char *src, *dst, *ws;
} problem;

static size_t box_bytes(const size_t* ext, int ndim, size_t elem) {
  size_t n = elem;
  for (int d = 0; d < ndim; ++d) n *= ext[d];
  return n;
}

/* Plans, allocates and fills this rank's source box. */
static int open_problem(const char* mesh, const char* from, const char* to, const char* strategy, problem* p) {
  char err[512] = "";
  memset(p, 0, sizeof *p);
  if (redist_plan_create_with(mesh, NULL, from, to, "u32", strategy, &p->plan, err, sizeof err) != REDIST_OK) {
    expect(0, "plan", err);
    return 0;
  }
  p->ndim = redist_plan_ndim(p->plan);
  p->elem = redist_plan_elem_bytes(p->plan);
  redist_plan_src_box(p->plan, rank, p->src_off, p->src_ext, err, sizeof err);
  redist_plan_tgt_box(p->plan, rank, p->dst_off, p->dst_ext, err, sizeof err);
  p->src_bytes = box_bytes(p->src_ext, p->ndim, p->elem);
  p->dst_bytes = box_bytes(p->dst_ext, p->ndim, p->elem);
  p->ws_bytes = redist_plan_workspace_bytes(p->plan);
  p->src = malloc(p->src_bytes + 1);
  p->dst = malloc(p->dst_bytes + 1);
  p->ws = malloc(p->ws_bytes + 1);
  walk_box(p->src_off, p->src_ext, p->ndim, p->elem, p->src, 0);
  return 1;
}

static void close_problem(problem* p) {
  free(p->src);
  free(p->dst);
  free(p->ws);
  redist_plan_free(p->plan);
}

static int start(redist_exec_t* exec, problem* p, char* err, size_t errlen) {
  memset(p->dst, 0xA5, p->dst_bytes);
  return redist_exec_start(exec, p->src, p->src_bytes, p->dst, p->dst_bytes, p->ws, p->ws_bytes, err, errlen);
}

static size_t wrong_elements(const problem* p) {
  return walk_box(p->dst_off, p->dst_ext, p->ndim, p->elem, p->dst, 1);
}

/* Computation between start and wait that polls redist_exec_test; returns
 * how many polls it made before done (or -1 on an error). */
static long compute_and_poll(redist_exec_t* exec, char* err, size_t errlen) {
  volatile double acc = 0;
  for (long poll = 0; poll < 100000000; ++poll) {
    for (int i = 0; i < 1000; ++i) acc = acc + (double)i * 0.5;
    int done = 0;
    if (redist_exec_test(exec, &done, err, errlen) != REDIST_OK) return -1;
    if (done) return poll;
  }
  return -1;
}

/* Start, poll, wait; every element checked. */
static void overlapped(const char* what, problem* p) {
  char err[512] = "", line[256];
  redist_exec_t* exec = NULL;
  if (redist_plan_bind(p->plan, MPI_COMM_WORLD, &exec, err, sizeof err) != REDIST_OK) {
    expect(0, "bind", err);
    return;
  }
  int rc = start(exec, p, err, sizeof err);
  long polls = rc == REDIST_OK ? compute_and_poll(exec, err, sizeof err) : -1;
  if (polls >= 0) rc = redist_exec_wait(exec, err, sizeof err);
  snprintf(line, sizeof line, "%s: start, test until done, wait: every element right", what);
  expect(polls >= 0 && rc == REDIST_OK && wrong_elements(p) == 0, line, polls < 0 || rc ? err : NULL);
  redist_exec_free(exec);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char err[512] = "";
  int rc;
  problem x, c, r;
  if (!open_problem("{x:4}", "[{x}4096, 33]", "[4096, {x}33]", "exchange", &x) ||
      !open_problem("{x:2, y:2}", "[{x}64, {y}32]", "[{y}64, {x}32]", "collectives", &c) ||
      !open_problem("{x:2, y:2}", "[{x}30, 7] sum{y}", "[{y}30, 7]", "exchange", &r)) {
    MPI_Finalize();
    return 1;
  }
  expect(redist_plan_by_exchange(x.plan) == 1 && redist_plan_by_exchange(c.plan) == 0 &&
             redist_plan_by_exchange(r.plan) == 2,
         "the three plans are an exchange, collectives, a reducing exchange", NULL);
  overlapped("exchange", &x);
  overlapped("collectives", &c);

  /* The reducing exchange: start/test/wait gives redist_exec_run's bytes. */
  redist_exec_t* exec = NULL;
  rc = redist_plan_bind(r.plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  unsigned char* by_run = malloc(r.dst_bytes + 1);
  rc = rc ? rc : redist_exec_run(exec, r.src, r.src_bytes, by_run, r.dst_bytes, r.ws, r.ws_bytes, err, sizeof err);
  rc = rc ? rc : start(exec, &r, err, sizeof err);
  long polls = rc ? -1 : compute_and_poll(exec, err, sizeof err);
  rc = rc ? rc : redist_exec_wait(exec, err, sizeof err);
  expect(rc == REDIST_OK && polls >= 0 && memcmp(by_run, r.dst, r.dst_bytes) == 0,
         "reducing exchange: start, test until done, wait: redist_exec_run's bytes", rc ? err : NULL);
  free(by_run);
  redist_exec_free(exec);

  /* Misuse, on the exchange. */
  rc = redist_plan_bind(x.plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  expect(rc == REDIST_OK, "bind", rc ? err : NULL);
  int done = 7;
  rc = redist_exec_wait(exec, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "redist_exec_wait: nothing started") != NULL,
         "wait without start: code 2", err);
  rc = redist_exec_test(exec, &done, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && done == 0 && strstr(err, "redist_exec_test: nothing started") != NULL,
         "test without start: code 2", err);
  rc = redist_exec_test(exec, NULL, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "null executor or done") != NULL, "null done: code 2", err);
  rc = redist_exec_wait(NULL, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT, "wait on a null executor: code 2", err);

  rc = start(exec, &x, err, sizeof err);
  expect(rc == REDIST_OK, "start", rc ? err : NULL);
  rc = redist_exec_start(exec, x.src, x.src_bytes, x.dst, x.dst_bytes, x.ws, x.ws_bytes, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "already started") != NULL, "start twice: code 2", err);
  rc = redist_exec_run(exec, x.src, x.src_bytes, x.dst, x.dst_bytes, x.ws, x.ws_bytes, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "already started") != NULL, "run between start and wait: code 2",
         err);
  rc = redist_exec_wait(exec, err, sizeof err);
  expect(rc == REDIST_OK && wrong_elements(&x) == 0, "the first operation completes: every element right",
         rc ? err : NULL);
  rc = redist_exec_wait(exec, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT, "a second wait: code 2", err);

  /* Rank 0 starts again without waiting; the others wait, then start anew:
   * their second starts meet rank 0's, which every rank refuses. */
  rc = start(exec, &x, err, sizeof err);
  if (rank != 0) rc = rc ? rc : redist_exec_wait(exec, err, sizeof err);
  expect(rc == REDIST_OK, "start (and wait, on ranks other than 0)", rc ? err : NULL);
  rc = redist_exec_start(exec, x.src, x.src_bytes, x.dst, x.dst_bytes, x.ws, x.ws_bytes, err, sizeof err);
  if (rank == 0)
    expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "already started") != NULL, "here a second start: code 2", err);
  else
    expect(rc == REDIST_ERR_RUNTIME && strstr(err, "remote_error") != NULL, "rank 0's second start: code 4 here",
           err);
  if (rank == 0) {
    rc = redist_exec_wait(exec, err, sizeof err);
    expect(rc == REDIST_OK && wrong_elements(&x) == 0, "rank 0's first operation completes", rc ? err : NULL);
  }
  rc = redist_exec_run(exec, x.src, x.src_bytes, x.dst, x.dst_bytes, x.ws, x.ws_bytes, err, sizeof err);
  expect(rc == REDIST_OK && wrong_elements(&x) == 0, "then a run works on every rank", rc ? err : NULL);

  /* The same misuse on a plan by the collectives, which runs whole in start. */
  redist_exec_t* cexec = NULL;
  rc = redist_plan_bind(c.plan, MPI_COMM_WORLD, &cexec, err, sizeof err);
  rc = rc ? rc : start(cexec, &c, err, sizeof err);
  rc = rc ? rc : redist_exec_test(cexec, &done, err, sizeof err);
  expect(rc == REDIST_OK && done == 1 && wrong_elements(&c) == 0, "collectives: done at once after start",
         rc ? err : NULL);
  rc = redist_exec_start(cexec, c.src, c.src_bytes, c.dst, c.dst_bytes, c.ws, c.ws_bytes, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "redist_exec_start: an operation is already started") != NULL,
         "collectives: start twice: code 2", err);
  rc = redist_exec_wait(cexec, err, sizeof err);
  expect(rc == REDIST_OK, "collectives: wait after done returns", rc ? err : NULL);
  redist_exec_free(cexec);

  /* Freed in flight: the operation is completed first. */
  rc = start(exec, &x, err, sizeof err);
  redist_exec_free(exec);
  expect(rc == REDIST_OK && wrong_elements(&x) == 0, "freed in flight: completed first, every element right",
         rc ? err : NULL);

  close_problem(&x);
  close_problem(&c);
  close_problem(&r);
  MPI_Finalize();
  return 0;
}
