/* Ranks that disagree, through the C ABI (tests/e2e/disagree.sh): every
 * rank plans problem A with redist_plan_create_with, except rank ODD,
 * which plans problem B, then all call redist_plan_execute.  With B != A
 * every rank must fail with one line naming what differs and the odd rank;
 * with B == A (the control) every rank must succeed.  Usage:
 *   disagree_capi NAME ODD EXPECT  MESH FROM TO DTYPE STRATEGY  MESH FROM TO DTYPE STRATEGY
 * EXPECT: "refused" or "ok".  Rank 0 prints one line "ok NAME" or "FAIL NAME". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

enum { kMessage = 400 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 14) {
    if (rank == 0) fprintf(stderr, "usage: disagree_capi NAME ODD EXPECT and two problems of 5 words\n");
    MPI_Finalize();
    return 2;
  }
  const char* name = argv[1];
  const int odd = atoi(argv[2]);
  const int expect_ok = strcmp(argv[3], "ok") == 0;
  char* const* p = argv + (rank == odd ? 9 : 4);
  char message[kMessage] = "ok";
  redist_plan_t* plan = NULL;
  int rc = redist_plan_create_with(p[0], NULL, p[1], p[2], p[3], p[4], &plan, message, sizeof message);
  if (rc == REDIST_OK) {
    const size_t src = redist_plan_src_bytes(plan), dst = redist_plan_dst_bytes(plan),
                 ws = redist_plan_workspace_bytes(plan);
    void* a = calloc(1, src + 1);
    void* b = calloc(1, dst + 1);
    void* w = calloc(1, ws + 1);
    rc = redist_plan_execute(plan, MPI_COMM_WORLD, a, src, b, dst, w, ws, message, sizeof message);
    if (rc == REDIST_OK) snprintf(message, sizeof message, "ok");
    free(a);
    free(b);
    free(w);
    redist_plan_free(plan);
  }
  char* all = rank == 0 ? calloc((size_t)size, kMessage) : NULL;
  MPI_Gather(message, kMessage, MPI_CHAR, all, kMessage, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int good = 1;
    char odd_named[64];
    if (odd != 0) snprintf(odd_named, sizeof odd_named, ": rank %d differs from rank 0", odd);
    else snprintf(odd_named, sizeof odd_named, "differ from rank 0");
    for (int r = 0; r < size; ++r) {
      const char* m = all + (size_t)r * kMessage;
      if (expect_ok ? strcmp(m, "ok") != 0 : (strcmp(m, all) != 0 || strstr(m, odd_named) == NULL)) good = 0;
    }
    printf("%s %s: %s\n", good ? "ok  " : "FAIL", name, expect_ok ? "every rank ran" : all);
    if (!good)
      for (int r = 0; r < size; ++r) printf("        rank %d: %s\n", r, all + (size_t)r * kMessage);
    free(all);
  }
  MPI_Finalize();
  return 0;
}
