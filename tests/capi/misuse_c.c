/* Misuse of redist/redist.h, under mpirun -np 6 (the collectives): the first plan leaves the
 * host's SIGSEGV handler (Open MPI's) in place; a negative rank, null arguments, an unknown
 * strategy and an uneven problem for the collectives give code 2
 * and a message, queries of a null plan answer 0 or NULL, and a destination
 * one byte short on rank 3 only makes every rank's redist_exec_run fail
 * (rank 3: buffer_too_small, code 2; the others: remote_error, code 4), none
 * hangs, and the next correct run works.  Each rank prints "ok ..." or
 * "FAIL ..." lines. */
#define _POSIX_C_SOURCE 200809L  /* sigaction */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

static int rank;

static void expect(int cond, const char* what, const char* err) {
  printf("%s rank %d: %s%s%s\n", cond ? "ok" : "FAIL", rank, what, err ? ": " : "", err ? err : "");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char err[256] = "";
  redist_plan_t* plan = NULL;
  int rc = redist_plan_create(NULL, "[3{x}6]", "[2{y}6]", NULL, &plan, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, "null") != NULL, "null mesh: code 2", err);
  rc = redist_plan_create_with("{x:2, y:3}", NULL, "[{x}7]", "[7]", NULL, "fast", &plan, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "unknown strategy") != NULL, "unknown strategy: code 2", err);
  rc = redist_plan_create_with("{x:2, y:3}", NULL, "[{x}7]", "[7]", NULL, "collectives", &plan, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "the collectives need an even problem") != NULL,
         "uneven by the collectives: code 2", err);
  expect(redist_plan_num_steps(NULL) == 0 && redist_plan_json(NULL) == NULL && redist_plan_workspace_bytes(NULL) == 0 &&
             redist_plan_alloc_bytes(NULL) == 0,
         "queries of a null plan answer 0 or NULL", NULL);
  struct sigaction before, after;
  sigaction(SIGSEGV, NULL, &before);
  rc = redist_plan_create_with("{x:2, y:3}", NULL, "[3{x}6]", "[2{y}6]", NULL, "collectives", &plan, err, sizeof err);
  sigaction(SIGSEGV, NULL, &after);
  expect(before.sa_handler == after.sa_handler && before.sa_flags == after.sa_flags,
         "the host's SIGSEGV handler is kept", NULL);
  if (rc != REDIST_OK) {
    expect(0, "redist_plan_create", err);
    MPI_Finalize();
    return 1;
  }
  size_t off[1], ext[1];
  rc = redist_plan_src_box(plan, -1, off, ext, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "rank -1 is negative") != NULL, "box of rank -1: code 2", err);
  rc = redist_plan_src_box(plan, 6, off, ext, err, sizeof err);
  expect(rc == REDIST_OK && ext[0] == 0, "box of rank 6, outside the mesh: empty", NULL);
  float src[3] = {0, 0, 0}, dst[2];
  size_t ws_bytes = redist_plan_workspace_bytes(plan);
  unsigned char* ws = malloc(ws_bytes);
  redist_exec_t* exec = NULL;
  rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  expect(rc == REDIST_OK, "bind", rc ? err : NULL);
  rc = redist_exec_run(exec, src, sizeof src, dst, rank == 3 ? sizeof dst - 1 : sizeof dst, ws, ws_bytes, err, sizeof err);
  if (rank == 3)
    expect(rc == REDIST_ERR_BAD_INPUT && strstr(err, "buffer_too_small") != NULL, "short dst here: code 2", err);
  else
    expect(rc == REDIST_ERR_RUNTIME && strstr(err, "remote_error") != NULL, "short dst on rank 3: code 4", err);
  rc = redist_exec_run(exec, src, sizeof src, dst, sizeof dst, ws, ws_bytes, err, sizeof err);
  expect(rc == REDIST_OK, "the next correct run works", rc ? err : NULL);
  rc = redist_exec_run(NULL, src, sizeof src, dst, sizeof dst, ws, ws_bytes, err, sizeof err);
  expect(rc == REDIST_ERR_BAD_INPUT, "null executor: code 2", err);
  redist_exec_free(exec);
  free(ws);
  redist_plan_free(plan);
  MPI_Finalize();
  return 0;
}
