/* redist_plan_step and redist_plan_receives (what the Python adapters run),
 * checked against the plan's own boxes without MPI:
 *  - a plan by the exchange: on every rank the pieces lie in its target box,
 *    do not overlap, cover it exactly (their elements sum to the box's), and
 *    each comes from a rank whose source box holds it;
 *  - a plan by the collectives: step 0's shape is the source box's, a
 *    dyn_slice's group size divides its dimension, an all_permute's table
 *    names a rank of the world for every rank;
 *  - a hybrid (whose parts only redist_exec_run runs): neither steps nor
 *    pieces, code 2 naming it;
 *  - misuse: the other kind of plan, a step or rank out of range, null
 *    arguments: code 2 with a message.
 * Usage: pieces_c MESH TO_MESH|- FROM TO STRATEGY.  Prints "verified: N
 * ranks, P pieces" or "FAIL: ..."; exit 0 only when all is right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

static int inside(const size_t* off, const size_t* ext, const size_t* box_off, const size_t* box_ext, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (off[d] < box_off[d] || off[d] + ext[d] > box_off[d] + box_ext[d]) return 0;
  return 1;
}

static int overlap(const redist_region_t* a, const redist_region_t* b, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (a->offset[d] + a->extent[d] <= b->offset[d] || b->offset[d] + b->extent[d] <= a->offset[d]) return 0;
  return 1;
}

static size_t elements(const size_t* ext, int ndim) {
  size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= ext[d];
  return n;
}

static int misuse(int rc, const char* err, const char* what) {
  if (rc == REDIST_ERR_BAD_INPUT && err[0] != '\0' && strchr(err, '\n') == NULL) return 0;
  printf("FAIL: %s: code %d, '%s'\n", what, rc, err);
  return 1;
}

static int check_exchange(const redist_plan_t* plan, size_t* total) {
  char err[256];
  const int ndim = redist_plan_ndim(plan), world = redist_plan_devices(plan);
  redist_region_t pieces[4096];
  for (int r = 0; r < world; ++r) {
    size_t off[REDIST_MAX_DIMS], ext[REDIST_MAX_DIMS], src_off[REDIST_MAX_DIMS], src_ext[REDIST_MAX_DIMS], count = 0;
    if (redist_plan_tgt_box(plan, r, off, ext, err, sizeof err) != REDIST_OK ||
        redist_plan_receives(plan, r, pieces, 4096, &count, err, sizeof err) != REDIST_OK || count > 4096) {
      printf("FAIL: rank %d: %s\n", r, err);
      return 1;
    }
    size_t covered = 0;
    for (size_t k = 0; k < count; ++k) {
      const redist_region_t* p = &pieces[k];
      redist_plan_src_box(plan, p->from_rank, src_off, src_ext, err, sizeof err);
      if (!inside(p->offset, p->extent, off, ext, ndim) || !inside(p->offset, p->extent, src_off, src_ext, ndim)) {
        printf("FAIL: rank %d piece %zu from rank %d is outside its target box or the sender's source box\n", r, k,
               p->from_rank);
        return 1;
      }
      for (size_t j = 0; j < k; ++j)
        if (overlap(p, &pieces[j], ndim)) {
          printf("FAIL: rank %d: pieces %zu and %zu overlap\n", r, j, k);
          return 1;
        }
      covered += elements(p->extent, ndim);
    }
    if (covered != elements(ext, ndim)) {
      printf("FAIL: rank %d: pieces cover %zu of %zu elements\n", r, covered, elements(ext, ndim));
      return 1;
    }
    *total += count;
  }
  redist_step_info_t info;
  return misuse(redist_plan_step(plan, 0, &info, err, sizeof err), err, "redist_plan_step of an exchange") ||
         misuse(redist_plan_receives(plan, world, pieces, 1, &(size_t){0}, err, sizeof err), err,
                "redist_plan_receives of a rank past the world") ||
         misuse(redist_plan_receives(plan, 0, NULL, 1, &(size_t){0}, err, sizeof err), err,
                "redist_plan_receives into null regions");
}

static int check_collectives(const redist_plan_t* plan) {
  char err[256];
  const int ndim = redist_plan_ndim(plan), world = redist_plan_devices(plan);
  const size_t steps = redist_plan_num_steps(plan);
  size_t off[REDIST_MAX_DIMS], ext[REDIST_MAX_DIMS];
  redist_plan_src_box(plan, 0, off, ext, err, sizeof err);
  for (size_t i = 0; i < steps; ++i) {
    redist_step_info_t s;
    if (redist_plan_step(plan, i, &s, err, sizeof err) != REDIST_OK || s.ndim != ndim) {
      printf("FAIL: step %zu: %s\n", i, err);
      return 1;
    }
    if (i == 0 && memcmp(s.shape, ext, sizeof(size_t) * (size_t)ndim) != 0) {
      printf("FAIL: step 0's shape is not the source box's\n");
      return 1;
    }
    if (s.op == 0 && s.shape[s.dim_a] % (size_t)s.group_size != 0) {
      printf("FAIL: step %zu: dyn_slice of %zu over a group of %d\n", i, s.shape[s.dim_a], s.group_size);
      return 1;
    }
    if ((s.op == 3) != (s.recv_from != NULL)) {
      printf("FAIL: step %zu: a permute table on op %d\n", i, s.op);
      return 1;
    }
    for (int r = 0; s.recv_from != NULL && r < world; ++r)
      if (s.recv_from[r] < 0 || s.recv_from[r] >= world) {
        printf("FAIL: step %zu: rank %d receives from rank %d\n", i, r, s.recv_from[r]);
        return 1;
      }
  }
  redist_step_info_t info;
  size_t count = 0;
  return misuse(redist_plan_step(plan, steps, &info, err, sizeof err), err, "redist_plan_step past the end") ||
         misuse(redist_plan_step(plan, 0, NULL, err, sizeof err), err, "redist_plan_step into null") ||
         misuse(redist_plan_receives(plan, 0, NULL, 0, &count, err, sizeof err), err,
                "redist_plan_receives of a collectives plan");
}

static int check_hybrid(const redist_plan_t* plan) {
  char err[256];
  redist_step_info_t info;
  redist_region_t piece;
  size_t count = 0;
  if (misuse(redist_plan_step(plan, 0, &info, err, sizeof err), err, "redist_plan_step of a hybrid")) return 1;
  if (strstr(err, "hybrid") == NULL) {
    printf("FAIL: redist_plan_step of a hybrid: '%s' does not name it\n", err);
    return 1;
  }
  return misuse(redist_plan_receives(plan, 0, &piece, 1, &count, err, sizeof err), err, "redist_plan_receives of a hybrid");
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: pieces_c MESH TO_MESH|- FROM TO STRATEGY\n");
    return 2;
  }
  char err[256];
  redist_plan_t* plan = NULL;
  const char* to_mesh = strcmp(argv[2], "-") == 0 ? NULL : argv[2];
  if (redist_plan_create_with(argv[1], to_mesh, argv[3], argv[4], "f32", argv[5], &plan, err, sizeof err) != 0) {
    printf("FAIL: planning: %s\n", err);
    return 1;
  }
  size_t pieces = 0;
  const int kind = redist_plan_by_exchange(plan);
  const int failed = kind == 3 ? check_hybrid(plan) : kind ? check_exchange(plan, &pieces) : check_collectives(plan);
  if (!failed)
    printf("verified: %d ranks, %zu steps, %zu pieces\n", redist_plan_devices(plan), redist_plan_num_steps(plan),
           pieces);
  redist_plan_free(plan);
  return failed;
}
