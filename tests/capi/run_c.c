/* A C11 program that plans at run time through redist/redist.h and runs the
 * plan on MPI_COMM_WORLD: every rank fills its source box with a hash of
 * each element's global index and checks every element of its target box.
 * Usage: mpirun -np N run_c MESH FROM TO [DTYPE [TO_MESH|- [STRATEGY]]]
 * (redist_plan_create_with; "-": one mesh; a STRATEGY "@FILE": the plan in
 * FILE through redist_plan_check; "%FILE": the plan of the `redist plan
 * --json` report in FILE through redist_plan_from_json).  Ranks outside a layout's mesh
 * hold an empty box and pass NULL and 0.  Rank 0 prints
 * "verified: STEPS steps, N elements checked" or what failed; exit 0 only
 * when every element of every rank is right, the planner's code when
 * redist_plan_create fails (its message on one line). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "redist/redist.h"
#include "boxes.h"

int main(int argc, char** argv) {
  if (argc < 4 || argc > 7) {
    fprintf(stderr, "usage: run_c MESH FROM TO [DTYPE [TO_MESH|- [STRATEGY]]]\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char err[512];
  redist_plan_t* plan = NULL;
  const char* to_mesh = argc > 5 && strcmp(argv[5], "-") != 0 ? argv[5] : NULL;
  const char* dtype = argc > 4 ? argv[4] : NULL;
  int rc;
  if (argc > 6 && (argv[6][0] == '@' || argv[6][0] == '%')) {
    static char text[1 << 20];
    FILE* file = fopen(argv[6] + 1, "r");
    const size_t n = file ? fread(text, 1, sizeof text - 1, file) : 0;
    if (file) fclose(file);
    text[n] = '\0';
    rc = argv[6][0] == '@' ? redist_plan_check(argv[1], to_mesh, argv[2], argv[3], dtype, text, &plan, err, sizeof err)
                           : redist_plan_from_json(text, &plan, err, sizeof err);
  } else {
    rc = redist_plan_create_with(argv[1], to_mesh, argv[2], argv[3], dtype, argc > 6 ? argv[6] : NULL, &plan, err,
                                 sizeof err);
  }
  if (rc != REDIST_OK) {
    if (rank == 0) printf("redist_plan_create: code %d: %s\n", rc, err);
    MPI_Finalize();
    return rc;
  }
  const int ndim = redist_plan_ndim(plan);
  const size_t elem = redist_plan_elem_bytes(plan), ws_bytes = redist_plan_workspace_bytes(plan);
  size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
  if (redist_plan_src_box(plan, rank, src_off, src_ext, err, sizeof err) != REDIST_OK ||
      redist_plan_tgt_box(plan, rank, dst_off, dst_ext, err, sizeof err) != REDIST_OK) {
    printf("rank %d: box: %s\n", rank, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t src_bytes = elem, dst_bytes = elem;
  for (int d = 0; d < ndim; ++d) src_bytes *= src_ext[d], dst_bytes *= dst_ext[d];
  unsigned char* src = src_bytes ? malloc(src_bytes) : NULL;
  unsigned char* dst = dst_bytes ? malloc(dst_bytes) : NULL;
  unsigned char* ws = ws_bytes ? malloc(ws_bytes) : NULL;
  walk_box(src_off, src_ext, ndim, elem, src, 0);
  if (dst) memset(dst, 0xA5, dst_bytes);
  redist_exec_t* exec = NULL;
  size_t bad = 0;
  rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  if (rc == REDIST_OK) rc = redist_exec_run(exec, src, src_bytes, dst, dst_bytes, ws, ws_bytes, err, sizeof err);
  if (rc == REDIST_OK) bad = walk_box(dst_off, dst_ext, ndim, elem, dst, 1);
  else printf("rank %d: code %d: %s\n", rank, rc, err);
  unsigned long long totals[2] = {bad, dst_bytes / elem}, sums[2];
  MPI_Reduce(totals, sums, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int failed = rc != REDIST_OK || bad != 0, any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  static const char* const kinds[] = {"collectives", "exchange", "reducing exchange", "hybrid"};
  if (rank == 0) {
    if (any_failed) printf("FAILED: %llu of %llu elements wrong\n", sums[0], sums[1]);
    else
      printf("verified: %s, %zu steps, %llu elements checked on %d ranks\n", kinds[redist_plan_by_exchange(plan)],
             redist_plan_num_steps(plan), sums[1], size);
  }
  redist_exec_free(exec);
  free(src);
  free(dst);
  free(ws);
  redist_plan_free(plan);
  MPI_Finalize();
  return any_failed;
}
