#include <stdio.h>
#include <stdlib.h>
#include <redist/redist.h>

int main(int argc, char** argv) {  /* mpirun -np 6: [3{x}6] -> [2{y}6], element = global index */
  MPI_Init(&argc, &argv);
  char err[256];
  redist_plan_t* plan;
  if (redist_plan_create("{x:2, y:3}", "[3{x}6]", "[2{y}6]", "f32", &plan, err, sizeof err)) return fprintf(stderr, "%s\n", err), 2;
  int rank, rc;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t off[1], ext[1], ws_bytes = redist_plan_workspace_bytes(plan);
  float src[3], dst[2], *ws = malloc(ws_bytes);
  redist_plan_src_box(plan, rank, off, ext, err, sizeof err);
  for (size_t i = 0; i < 3; ++i) src[i] = (float)(off[0] + i);
  rc = redist_plan_execute(plan, MPI_COMM_WORLD, src, sizeof src, dst, sizeof dst, ws, ws_bytes, err, sizeof err);
  redist_plan_tgt_box(plan, rank, off, ext, err, sizeof err);
  if (rc == REDIST_OK && (dst[0] != (float)off[0] || dst[1] != (float)(off[0] + 1))) rc = 1;
  printf("rank %d: [%zu, %zu) = %g %g: %s\n", rank, off[0], off[0] + ext[0], dst[0], dst[1], rc == 1 ? "WRONG" : rc ? err : "ok");
  free(ws), redist_plan_free(plan), MPI_Finalize();
  return rc;
}
