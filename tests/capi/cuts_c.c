/* Composed cuts (semantics.md Part 3) through the C ABI under mpirun, run
 * by tests/capi/cuts.sh: redist_plan_create_with plans them by the region
 * exchange, redist_plan_execute runs it.
 *
 *   cuts_c random COUNT SEED: COUNT random problems on this world's one
 *   mesh ({a:W}, or for an even seed {a:2, b:W/2} when W is even), 1 or 2 dimensions of uneven
 *   extents, each dimension cut by a random sequence of ceil-block and
 *   block-cyclic cuts ({a}{b}N, {b}{a}N, {a}%B N, {a}%B{b}N, ...), at least
 *   one side composed, every other one run in split phase (bind, start,
 *   test until done).  Every element of every rank's target array is
 *   checked against the global array, each rank's expected local array
 *   computed here from Part 3's table.  One test per problem.
 *
 *   cuts_c between COUNT SEED: COUNT random problems between two meshes of
 *   this world ({a:D} or {a:2, b:D/2}, each on D random world ranks in a
 *   random order), the types as above on each mesh; a rank outside a mesh
 *   holds nothing there.
 *
 *   Each random problem on one mesh is a second test too: the region queries
 *   (redist_plan_local_shape, redist_plan_region_count, _message, _copy)
 *   reproduce the move without the runtime.  This rank's local shapes are
 *   the held counts, and its target array built here from its copies and,
 *   for each message it receives, the boxes the peer's lists send it (out
 *   of the peer's source array, computed here), in order, is its expected
 *   local array.
 *
 *   cuts_c pending COUNT SEED, cuts_c pending-between COUNT SEED: COUNT
 *   random problems with pending axes (the reducing region exchange), on
 *   one mesh of two axes or between two random placed meshes: types as
 *   above, at least one side composed, pending over axes no cut names on
 *   one side or both, sum, prod, max or min on a random integer type, every
 *   other one in split phase.  Every element of every rank is checked
 *   against a reference grouped by hand (run_pending); nothing past the
 *   target array is written.
 *
 *   cuts_c fixed: on {a:2, b:2}, DTensor's (8, 4) tensor with Shard(0) on
 *   both mesh dimensions in either order to replicated, and a ScaLAPACK
 *   block-cyclic [{p}%2 8, {q}%2 6] to [{p}8, 6] (also in split phase); the box queries of a
 *   composed plan refused in one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"
#include "tap.h"

enum { kMaxDims = 2, kMaxCuts = 3, kMaxExtent = 64, kMaxRanks = 16 };

typedef struct {
  int axes[2];  /* mesh axes of the group, in the order written */
  int naxes;
  int block;    /* 0: ceil block; else cyclic with blocks of `block` */
} Cut;

typedef struct {
  int extent;
  Cut cuts[kMaxCuts];
  int ncuts;
} Dim;

/* A mesh placed on world ranks: ranks[k] is the world rank of device k
 * (row-major); placed 0: on ranks 0 .. devices - 1, written without "@". */
typedef struct {
  const char* names[2];
  int sizes[2];
  int naxes;
  int placed;
  int ranks[kMaxRanks];
} Mesh;

static int devices(const Mesh* mesh) { return mesh->naxes == 2 ? mesh->sizes[0] * mesh->sizes[1] : mesh->sizes[0]; }

/* The device of world rank `rank` in the mesh, or -1. */
static int device_of(const Mesh* mesh, int rank) {
  if (!mesh->placed) return rank < devices(mesh) ? rank : -1;
  for (int k = 0; k < devices(mesh); ++k)
    if (mesh->ranks[k] == rank) return k;
  return -1;
}

/* The global indices a device (its coordinate per mesh axis) holds along
 * one dimension, in local order: Part 3's table applied cut by cut, each on
 * the extent the previous cut left.  Returns their count. */
static int held(const Dim* dim, const int* coords, const Mesh* mesh, int* out) {
  int n = dim->extent;
  for (int i = 0; i < n; ++i) out[i] = i;
  for (int c = 0; c < dim->ncuts; ++c) {
    const Cut* cut = &dim->cuts[c];
    int parts = 1, j = 0;
    for (int k = 0; k < cut->naxes; ++k) {
      parts *= mesh->sizes[cut->axes[k]];
      j = j * mesh->sizes[cut->axes[k]] + coords[cut->axes[k]];
    }
    int kept = 0;
    if (cut->block == 0) {
      const int b = (n + parts - 1) / parts;
      for (int i = j * b; i < n && i < (j + 1) * b; ++i) out[kept++] = out[i];
    } else {
      /* Local index ((i / B) / P) * B + i mod B grows with i: the order is kept. */
      for (int i = 0; i < n; ++i)
        if ((i / cut->block) % parts == j) out[kept++] = out[i];
    }
    n = kept;
  }
  return n;
}

static void append(char* buf, size_t size, const char* fmt, int value) {
  const size_t used = strlen(buf);
  snprintf(buf + used, size - used, fmt, value);
}

/* A type in the command line's notation, e.g. "[{a}%2{b}7, 5]". */
static void type_text(const Dim* dims, int ndim, const Mesh* mesh, char* buf, size_t size) {
  snprintf(buf, size, "[");
  for (int d = 0; d < ndim; ++d) {
    if (d > 0) strncat(buf, ", ", size - strlen(buf) - 1);
    for (int c = 0; c < dims[d].ncuts; ++c) {
      const Cut* cut = &dims[d].cuts[c];
      strncat(buf, "{", size - strlen(buf) - 1);
      for (int k = 0; k < cut->naxes; ++k) {
        if (k > 0) strncat(buf, ",", size - strlen(buf) - 1);
        strncat(buf, mesh->names[cut->axes[k]], size - strlen(buf) - 1);
      }
      strncat(buf, "}", size - strlen(buf) - 1);
      if (cut->block > 0) append(buf, size, "%%%d ", cut->block);
    }
    append(buf, size, "%d", dims[d].extent);
  }
  strncat(buf, "]", size - strlen(buf) - 1);
}

static void mesh_text(const Mesh* mesh, char* buf, size_t size) {
  snprintf(buf, size, "{");
  for (int a = 0; a < mesh->naxes; ++a) {
    if (a > 0) strncat(buf, ", ", size - strlen(buf) - 1);
    strncat(buf, mesh->names[a], size - strlen(buf) - 1);
    append(buf, size, ":%d", mesh->sizes[a]);
  }
  strncat(buf, "}", size - strlen(buf) - 1);
  if (mesh->placed) {
    strncat(buf, " @ [", size - strlen(buf) - 1);
    for (int k = 0; k < devices(mesh); ++k) append(buf, size, k > 0 ? ", %d" : "%d", mesh->ranks[k]);
    strncat(buf, "]", size - strlen(buf) - 1);
  }
}

static int is_composed(const Dim* dims, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (dims[d].ncuts > 1 || (dims[d].ncuts == 1 && dims[d].cuts[0].block > 0)) return 1;
  return 0;
}

/* This rank's local array of a layout as the row-major global index of
 * each element, row-major over the held indices (none outside the mesh);
 * coords gets the rank's device's coordinates (unset outside it). */
static size_t local_indices(const Dim* dims, int ndim, const Mesh* mesh, int rank, int64_t** out, int* coords) {
  int held_idx[kMaxDims][kMaxExtent], counts[kMaxDims];
  const int device = device_of(mesh, rank);
  if (device < 0) {
    *out = malloc(sizeof(int64_t));
    return 0;
  }
  for (int a = mesh->naxes - 1, r = device; a >= 0; --a) {
    coords[a] = r % mesh->sizes[a];
    r /= mesh->sizes[a];
  }
  size_t total = 1;
  for (int d = 0; d < ndim; ++d) {
    counts[d] = held(&dims[d], coords, mesh, held_idx[d]);
    total *= (size_t)counts[d];
  }
  *out = malloc((total > 0 ? total : 1) * sizeof(int64_t));
  for (size_t e = 0; e < total; ++e) {
    int64_t linear = 0, stride = 1;
    size_t rest = e;
    for (int d = ndim - 1; d >= 0; --d) {
      linear += held_idx[d][rest % (size_t)counts[d]] * stride;
      stride *= dims[d].extent;
      rest /= (size_t)counts[d];
    }
    (*out)[e] = linear;
  }
  return total;
}

/* The global array's value at a row-major global index: distinct for every element. */
static int64_t global_value(int64_t linear) { return linear * 7 + 3; }

/* This rank's local array of a layout (none outside the mesh). */
static size_t local_array(const Dim* dims, int ndim, const Mesh* mesh, int rank, int64_t** out) {
  int coords[2] = {0, 0};
  const size_t total = local_indices(dims, ndim, mesh, rank, out, coords);
  for (size_t e = 0; e < total; ++e) (*out)[e] = global_value((*out)[e]);
  return total;
}

/* The extents of this rank's local array of a layout: the held counts. */
static void local_extents(const Dim* dims, int ndim, const Mesh* mesh, int rank, size_t* extent) {
  int coords[2] = {0, 0}, held_idx[kMaxExtent];
  for (int a = mesh->naxes - 1, r = rank; a >= 0; --a) {
    coords[a] = r % mesh->sizes[a];
    r /= mesh->sizes[a];
  }
  for (int d = 0; d < ndim; ++d) extent[d] = (size_t)held(&dims[d], coords, mesh, held_idx);
}

/* The row-major offsets, in a local array of `shape`, of a box's elements
 * in row-major order within the box; returns their count. */
static size_t box_offsets(const redist_local_box_t* box, const size_t* shape, int ndim, size_t* out) {
  size_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= box->extent[d];
  for (size_t e = 0; e < n; ++e) {
    size_t rest = e, offset = 0, stride = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      offset += (box->offset[d] + rest % box->extent[d]) * stride;
      rest /= box->extent[d];
      stride *= shape[d];
    }
    out[e] = offset;
  }
  return n;
}

/* One message of a rank's region list: its peer and its boxes (malloc'd). */
static int region_message(const redist_plan_t* plan, int rank, int list, size_t i, int* peer,
                          redist_local_box_t** boxes, size_t* nboxes, char* err, size_t errlen) {
  int rc = redist_plan_region_message(plan, rank, list, i, peer, NULL, 0, nboxes, err, errlen);
  *boxes = malloc((*nboxes > 0 ? *nboxes : 1) * sizeof(redist_local_box_t));
  if (rc == REDIST_OK) rc = redist_plan_region_message(plan, rank, list, i, peer, *boxes, *nboxes, nboxes, err, errlen);
  return rc;
}

/* The region queries' move of this rank's target array (see the top of the
 * file); 1 when it is the expected local array. */
static int queries_case(const Mesh* mesh, const Dim* from, const Dim* to, int ndim, int world, int rank, char* why,
                        size_t whylen) {
  char mesh_s[64], from_s[128], to_s[128], err[512] = "";
  mesh_text(mesh, mesh_s, sizeof mesh_s);
  type_text(from, ndim, mesh, from_s, sizeof from_s);
  type_text(to, ndim, mesh, to_s, sizeof to_s);
  snprintf(why, whylen, "region queries of %s, %s to %s: rank %d's target array built from them is its own",
           mesh_s, from_s, to_s, rank);
  redist_plan_t* plan = NULL;
  if (redist_plan_create_with(mesh_s, NULL, from_s, to_s, "i64", "auto", &plan, err, sizeof err) != REDIST_OK) {
    snprintf(why, whylen, "%s, %s to %s: create: %s", mesh_s, from_s, to_s, err);
    return 0;
  }
  int ok = 1;
  size_t src_shape[kMaxDims], dst_shape[kMaxDims], want[kMaxDims], got[REDIST_MAX_DIMS];
  local_extents(from, ndim, mesh, rank, src_shape);
  local_extents(to, ndim, mesh, rank, dst_shape);
  for (int which = 0; which < 2 && ok; ++which) {
    local_extents(which == 0 ? from : to, ndim, mesh, rank, want);
    ok = redist_plan_local_shape(plan, which, rank, got, err, sizeof err) == REDIST_OK;
    for (int d = 0; d < ndim && ok; ++d) ok = got[d] == want[d];
    if (!ok)
      snprintf(why, whylen, "%s, %s to %s: rank %d's %s local shape: %s (dim 0: %zu, expected %zu)", mesh_s, from_s,
               to_s, rank, which == 0 ? "source" : "target", err, got[0], want[0]);
  }
  int64_t* mine = NULL;
  int64_t* expected = NULL;
  local_array(from, ndim, mesh, rank, &mine);
  const size_t dst_n = local_array(to, ndim, mesh, rank, &expected);
  int64_t* dst = malloc((dst_n > 0 ? dst_n : 1) * sizeof(int64_t));
  size_t global = 1;  /* no box holds more elements than the array */
  for (int d = 0; d < ndim; ++d) global *= (size_t)from[d].extent;
  size_t* at = malloc((global + 1) * sizeof(size_t));
  size_t* there = malloc((global + 1) * sizeof(size_t));
  for (size_t e = 0; e < dst_n; ++e) dst[e] = -1;
  size_t count = 0;
  ok = ok && redist_plan_region_count(plan, rank, REDIST_REGION_COPIES, &count, err, sizeof err) == REDIST_OK;
  for (size_t i = 0; i < count && ok; ++i) {
    redist_local_box_t a, b;
    ok = redist_plan_region_copy(plan, rank, i, &a, &b, err, sizeof err) == REDIST_OK;
    const size_t n = ok ? box_offsets(&a, src_shape, ndim, at) : 0;
    ok = ok && box_offsets(&b, dst_shape, ndim, there) == n;
    for (size_t e = 0; e < n && ok; ++e) dst[there[e]] = mine[at[e]];
  }
  ok = ok && redist_plan_region_count(plan, rank, REDIST_REGION_RECVS, &count, err, sizeof err) == REDIST_OK;
  for (size_t i = 0; i < count && ok; ++i) {
    int peer = -1, to_me = -1;
    size_t nrecv = 0, nsend = 0, sends = 0, received = 0, sent = 0;
    redist_local_box_t *recv_boxes = NULL, *send_boxes = NULL;
    ok = region_message(plan, rank, REDIST_REGION_RECVS, i, &peer, &recv_boxes, &nrecv, err, sizeof err) == REDIST_OK &&
         peer >= 0 && peer < world && peer != rank &&
         redist_plan_region_count(plan, peer, REDIST_REGION_SENDS, &sends, err, sizeof err) == REDIST_OK;
    for (size_t k = 0; k < sends && ok && to_me != rank; ++k) {
      free(send_boxes);
      ok = region_message(plan, peer, REDIST_REGION_SENDS, k, &to_me, &send_boxes, &nsend, err, sizeof err) ==
           REDIST_OK;
    }
    int64_t* theirs = NULL;
    size_t their_shape[kMaxDims];
    local_extents(from, ndim, mesh, peer, their_shape);
    if (ok && to_me == rank) local_array(from, ndim, mesh, peer, &theirs);
    else ok = 0;
    /* The peer's boxes, element by element, into this rank's boxes, in order. */
    for (size_t r = 0, s = 0, left = 0, used = 0; ok && r < nrecv; ++r) {
      const size_t n = box_offsets(&recv_boxes[r], dst_shape, ndim, there);
      received += n;
      for (size_t e = 0; e < n && ok; ++e) {
        while (ok && used == left) {
          ok = s < nsend;
          if (ok) left = box_offsets(&send_boxes[s++], their_shape, ndim, at), used = 0, sent += left;
        }
        if (ok) dst[there[e]] = theirs[at[used++]];
      }
      if (r + 1 == nrecv) ok = ok && used == left && s == nsend && sent == received;
    }
    if (!ok)
      snprintf(why, whylen, "%s, %s to %s: rank %d's message %zu from rank %d does not pair with rank %d's sends%s%s",
               mesh_s, from_s, to_s, rank, i, peer, peer, err[0] ? ": " : "", err);
    free(theirs);
    free(recv_boxes);
    free(send_boxes);
  }
  for (size_t e = 0; e < dst_n && ok; ++e)
    if (dst[e] != expected[e]) {
      snprintf(why, whylen, "%s, %s to %s: by the region queries rank %d's element %zu is %lld, expected %lld", mesh_s,
               from_s, to_s, rank, e, (long long)dst[e], (long long)expected[e]);
      ok = 0;
    }
  redist_plan_free(plan);
  free(mine);
  free(expected);
  free(dst);
  free(at);
  free(there);
  return ok;
}


/* The split phase: bind, start, redist_exec_test until done; the executor
 * reads nothing by single copy (direct bytes 0). */
static int run_split(const redist_plan_t* plan, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                     char* err, size_t errlen) {
  redist_exec_t* exec = NULL;
  int rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, errlen);
  if (rc == REDIST_OK && redist_exec_direct_bytes(exec) != 0) {
    snprintf(err, errlen, "redist_exec_direct_bytes is %zu, expected 0", redist_exec_direct_bytes(exec));
    rc = REDIST_ERR_INTERNAL;
  }
  if (rc == REDIST_OK) rc = redist_exec_start(exec, src, src_bytes, dst, dst_bytes, NULL, 0, err, errlen);
  for (int done = 0; rc == REDIST_OK && !done;) rc = redist_exec_test(exec, &done, err, errlen);
  redist_exec_free(exec);
  return rc;
}

/* Plans and runs FROM -> TO on every rank (split: bind, start and test;
 * else redist_plan_execute); 1 when every rank's target array is exactly its
 * expected local array.  `why` gets the first failure. */
static int run_between(const Mesh* mesh, const Mesh* to_mesh, const Dim* from, const Dim* to, int ndim, int split,
                       int rank, char* why, size_t whylen) {
  /* meshes_s names both meshes in the messages; the planner takes them apart. */
  char mesh_s[128], to_mesh_s[128], meshes_s[260], from_s[128], to_s[128], err[512] = "";
  mesh_text(mesh, mesh_s, sizeof mesh_s);
  mesh_text(to_mesh, to_mesh_s, sizeof to_mesh_s);
  snprintf(meshes_s, sizeof meshes_s, "%s%s%s", mesh_s, to_mesh != mesh ? " -> " : "", to_mesh != mesh ? to_mesh_s : "");
  type_text(from, ndim, mesh, from_s, sizeof from_s);
  type_text(to, ndim, to_mesh, to_s, sizeof to_s);
  int ok = 1;
  redist_plan_t* plan = NULL;
  int64_t *src = NULL, *expected = NULL, *dst = NULL;
  const size_t src_n = local_array(from, ndim, mesh, rank, &src);
  const size_t dst_n = local_array(to, ndim, to_mesh, rank, &expected);
  dst = calloc(dst_n > 0 ? dst_n : 1, sizeof(int64_t));
  for (size_t e = 0; e < dst_n; ++e) dst[e] = -1;
  if (redist_plan_create_with(mesh_s, to_mesh != mesh ? to_mesh_s : NULL, from_s, to_s, "i64", "auto", &plan, err, sizeof err) != REDIST_OK) {
    snprintf(why, whylen, "%s, %s to %s: create: %s", meshes_s, from_s, to_s, err);
    ok = 0;
  } else if (is_composed(from, ndim) + is_composed(to, ndim) > 0 && redist_plan_by_exchange(plan) != 5) {
    snprintf(why, whylen, "%s, %s to %s: planned as kind %d, not the region exchange (5)", meshes_s, from_s, to_s,
             redist_plan_by_exchange(plan));
    ok = 0;
  } else if ((split ? run_split(plan, src, src_n * sizeof(int64_t), dst, dst_n * sizeof(int64_t), err, sizeof err)
                    : redist_plan_execute(plan, MPI_COMM_WORLD, src, src_n * sizeof(int64_t), dst,
                                          dst_n * sizeof(int64_t), NULL, 0, err, sizeof err)) != REDIST_OK) {
    snprintf(why, whylen, "%s, %s to %s: execute on rank %d: %s", meshes_s, from_s, to_s, rank, err);
    ok = 0;
  } else {
    for (size_t e = 0; e < dst_n && ok; ++e)
      if (dst[e] != expected[e]) {
        snprintf(why, whylen, "%s, %s to %s: rank %d element %zu is %lld, expected %lld", meshes_s, from_s, to_s, rank,
                 e, (long long)dst[e], (long long)expected[e]);
        ok = 0;
      }
  }
  if (ok) snprintf(why, whylen, "%s, %s to %s%s", meshes_s, from_s, to_s, split ? ", split phase" : "");
  redist_plan_free(plan);
  free(src);
  free(expected);
  free(dst);
  return ok;
}

static int run_case(const Mesh* mesh, const Dim* from, const Dim* to, int ndim, int split, int rank, char* why,
                    size_t whylen) {
  return run_between(mesh, mesh, from, to, ndim, split, rank, why, whylen);
}

/* One test: every rank's verdict, the first failing rank's reason. */
static void report(int ok, const char* why, int rank) {
  int all = 0, mine_bad = ok ? 1 << 30 : rank, first_bad = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine_bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  char text[768];
  snprintf(text, sizeof text, "%s", why);
  if (!all && first_bad != 0) {
    if (rank == first_bad) MPI_Send(text, sizeof text, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    if (rank == 0) MPI_Recv(text, sizeof text, MPI_CHAR, first_bad, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) tap_result(all, "%s", text);
}

static uint64_t rng_state;
static int rnd(int n) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((rng_state >> 33) % (uint64_t)n);
}

/* A random sharding of `extent`: each mesh axis in at most one cut of one
 * dimension (`used` across the type's dimensions). */
static void random_dim(Dim* dim, int extent, const Mesh* mesh, int* used) {
  dim->extent = extent;
  dim->ncuts = 0;
  const int wanted = rnd(3);
  for (int c = 0; c < wanted && dim->ncuts < kMaxCuts; ++c) {
    Cut cut = {{0, 0}, 0, rnd(2) ? 0 : 1 + rnd(3)};
    for (int a = 0; a < mesh->naxes; ++a)
      if (!used[a] && rnd(2) && cut.naxes < 2) cut.axes[cut.naxes++] = a;
    if (cut.naxes == 0) continue;
    if (cut.naxes == 2 && rnd(2)) {
      const int t = cut.axes[0];
      cut.axes[0] = cut.axes[1];
      cut.axes[1] = t;
    }
    for (int k = 0; k < cut.naxes; ++k) used[cut.axes[k]] = 1;
    dim->cuts[dim->ncuts++] = cut;
  }
}

/* A random problem from FROM_MESH to TO_MESH: 1 or 2 dimensions of uneven
 * extents, at least one side composed; run (every other one in split
 * phase) and reported as one test. */
static void random_case(const Mesh* from_mesh, const Mesh* to_mesh, int t, int rank, int world) {
  Dim from[kMaxDims], to[kMaxDims];
  const int ndim = 1 + rnd(2);
  do {
    int used_from[2] = {0, 0}, used_to[2] = {0, 0};
    for (int d = 0; d < ndim; ++d) {
      const int extent = 1 + rnd(ndim == 1 ? 23 : 9);
      random_dim(&from[d], extent, from_mesh, used_from);
      random_dim(&to[d], extent, to_mesh, used_to);
    }
  } while (!is_composed(from, ndim) && !is_composed(to, ndim));
  char why[768];
  const int ok = run_between(from_mesh, to_mesh, from, to, ndim, t % 2, rank, why, sizeof why);
  report(ok, why, rank);
  if (from_mesh == to_mesh) report(queries_case(from_mesh, from, to, ndim, world, rank, why, sizeof why), why, rank);
}

static int random_suite(int count, uint64_t seed, int rank, int world) {
  Mesh mesh = {{"a", "b"}, {world, 1}, 1, 0, {0}};
  if (world % 2 == 0 && world > 2 && seed % 2 == 0) mesh = (Mesh){{"a", "b"}, {2, world / 2}, 2, 0, {0}};
  rng_state = seed;
  for (int t = 0; t < count; ++t) random_case(&mesh, &mesh, t, rank, world);
  return rank == 0 ? tap_end() : 0;
}

/* A mesh of D devices (1 <= D <= world), {A:D} or {A:2, B:D/2}, on D
 * distinct world ranks in a random order. */
static Mesh random_placed_mesh(int world, const char* a, const char* b) {
  const int d = 1 + rnd(world);
  Mesh mesh = {{a, b}, {d, 1}, 1, 1, {0}};
  if (d % 2 == 0 && d > 2 && rnd(2)) mesh = (Mesh){{a, b}, {2, d / 2}, 2, 1, {0}};
  int pool[kMaxRanks];
  for (int r = 0; r < world; ++r) pool[r] = r;
  for (int k = 0; k < d; ++k) { /* a partial Fisher-Yates shuffle */
    const int j = k + rnd(world - k), t = pool[k];
    pool[k] = pool[j];
    pool[j] = t;
    mesh.ranks[k] = pool[k];
  }
  return mesh;
}

static int between_suite(int count, uint64_t seed, int rank, int world) {
  rng_state = seed;
  for (int t = 0; t < count; ++t) {
    const Mesh from_mesh = random_placed_mesh(world, "a", "b"), to_mesh = random_placed_mesh(world, "c", "d");
    random_case(&from_mesh, &to_mesh, t, rank, world);
  }
  return rank == 0 ? tap_end() : 0;
}

/* ---- pending axes: the reducing region exchange ------------------------
 * The reference is written apart from the plan: a source member's
 * contribution at global index i depends only on i and the member's place
 * k in its group (its coordinates along the pending axes, row-major), so
 * every group combines to the same g(i) = c_0(i) op ... op c_{G-1}(i),
 * computed here by hand; a target device holds g(i), or op's identity when
 * op is sum or prod and it is not its group's member 0 (the fill). */
typedef struct {
  const char* name;
  int bytes, is_signed;
} IntType;
static const IntType kIntTypes[] = {{"i8", 1, 1}, {"i16", 2, 1}, {"i32", 4, 1}, {"i64", 8, 1},
                                    {"u8", 1, 0}, {"u16", 2, 0}, {"u32", 4, 0}};
enum { kSum, kProd, kMax, kMin, kOps };
static const char* const kOpNames[kOps] = {"sum", "prod", "max", "min"};

/* v as a value of t: its low bits, sign- or zero-extended. */
static int64_t as_type(const IntType* t, uint64_t v) {
  if (t->bytes == 8) return (int64_t)v;
  const uint64_t mask = (UINT64_C(1) << (8 * t->bytes)) - 1;
  v &= mask;
  if (t->is_signed && (v >> (8 * t->bytes - 1))) v |= ~mask;
  return (int64_t)v;
}

static int64_t combine(int op, const IntType* t, int64_t a, int64_t b) {
  switch (op) {
    case kSum: return as_type(t, (uint64_t)a + (uint64_t)b);
    case kProd: return as_type(t, (uint64_t)a * (uint64_t)b);
    case kMax: return a > b ? a : b;
    default: return a < b ? a : b;
  }
}

static int64_t identity(int op, const IntType* t) {
  const uint64_t top = UINT64_C(1) << (8 * t->bytes - 1);
  switch (op) {
    case kSum: return 0;
    case kProd: return 1;
    case kMax: return t->is_signed ? as_type(t, top) : 0;
    default: return t->is_signed ? as_type(t, top - 1) : as_type(t, ~UINT64_C(0));
  }
}

/* Member k's contribution at global index i. */
static int64_t contribution(const IntType* t, uint64_t salt, int k, int64_t i) {
  uint64_t h = salt ^ ((uint64_t)i * UINT64_C(0x9e3779b97f4a7c15)) ^ ((uint64_t)(k + 1) * UINT64_C(0xc2b2ae3d27d4eb4f));
  h ^= h >> 29;
  h *= UINT64_C(0xbf58476d1ce4e5b9);
  h ^= h >> 32;
  return as_type(t, h);
}

/* A device's place along `pending` (mesh axes), row-major in the order listed. */
static int place_of(const int* coords, const Mesh* mesh, const int* pending, int npending) {
  int k = 0;
  for (int j = 0; j < npending; ++j) k = k * mesh->sizes[pending[j]] + coords[pending[j]];
  return k;
}

static int group_size(const Mesh* mesh, const int* pending, int npending) {
  int g = 1;
  for (int j = 0; j < npending; ++j) g *= mesh->sizes[pending[j]];
  return g;
}

/* " sum{a,b}" after a type with pending axes; nothing without. */
static void pending_text(const Mesh* mesh, int op, const int* pending, int npending, char* buf, size_t size) {
  if (npending == 0) return;
  strncat(buf, " ", size - strlen(buf) - 1);
  strncat(buf, kOpNames[op], size - strlen(buf) - 1);
  strncat(buf, "{", size - strlen(buf) - 1);
  for (int j = 0; j < npending; ++j) {
    if (j > 0) strncat(buf, ",", size - strlen(buf) - 1);
    strncat(buf, mesh->names[pending[j]], size - strlen(buf) - 1);
  }
  strncat(buf, "}", size - strlen(buf) - 1);
}

static void store(void* buf, size_t e, const IntType* t, int64_t v) { memcpy((char*)buf + e * (size_t)t->bytes, &v, (size_t)t->bytes); }
static int64_t load(const void* buf, size_t e, const IntType* t) {
  uint64_t v = 0;
  memcpy(&v, (const char*)buf + e * (size_t)t->bytes, (size_t)t->bytes);
  return as_type(t, v);
}

typedef struct {
  const Dim* dims;
  int pending[2], npending;
} PendingType;

/* Plans FROM -> TO with pending axes (op, t) and runs it on every rank;
 * 1 when every rank's target array is exactly the reference.  The plan
 * must be the region exchange (kind 5) and receive, on the busiest rank,
 * the figure the plan text states. */
static int run_pending(const Mesh* mesh, const Mesh* to_mesh, const PendingType* from, const PendingType* to, int ndim,
                       int op, const IntType* t, uint64_t salt, int split, int rank, char* why, size_t whylen) {
  char mesh_s[128], to_mesh_s[128], meshes_s[260], from_s[160], to_s[160], err[512] = "";
  mesh_text(mesh, mesh_s, sizeof mesh_s);
  mesh_text(to_mesh, to_mesh_s, sizeof to_mesh_s);
  snprintf(meshes_s, sizeof meshes_s, "%s%s%s", mesh_s, to_mesh != mesh ? " -> " : "", to_mesh != mesh ? to_mesh_s : "");
  type_text(from->dims, ndim, mesh, from_s, sizeof from_s);
  pending_text(mesh, op, from->pending, from->npending, from_s, sizeof from_s);
  type_text(to->dims, ndim, to_mesh, to_s, sizeof to_s);
  pending_text(to_mesh, op, to->pending, to->npending, to_s, sizeof to_s);
  int src_coords[2] = {0, 0}, dst_coords[2] = {0, 0};
  int64_t *src_idx = NULL, *dst_idx = NULL;
  const size_t src_n = local_indices(from->dims, ndim, mesh, rank, &src_idx, src_coords);
  const size_t dst_n = local_indices(to->dims, ndim, to_mesh, rank, &dst_idx, dst_coords);
  const size_t elem = (size_t)t->bytes;
  void* src = malloc(src_n * elem + 1);
  void* dst = malloc(dst_n * elem + 1);
  const int k = place_of(src_coords, mesh, from->pending, from->npending);
  for (size_t e = 0; e < src_n; ++e) store(src, e, t, contribution(t, salt, k, src_idx[e]));
  memset(dst, 0xa5, dst_n * elem + 1);
  const int members = group_size(mesh, from->pending, from->npending);
  /* sum and prod keep the value on member 0 of a target group, max and min on every member. */
  const int keeps = op == kMax || op == kMin || place_of(dst_coords, to_mesh, to->pending, to->npending) == 0;
  int ok = 1;
  redist_plan_t* plan = NULL;
  if (redist_plan_create_with(mesh_s, to_mesh != mesh ? to_mesh_s : NULL, from_s, to_s, t->name, "auto", &plan, err,
                              sizeof err) != REDIST_OK) {
    snprintf(why, whylen, "%s, %s to %s (%s): create: %s", meshes_s, from_s, to_s, t->name, err);
    ok = 0;
  } else if (redist_plan_by_exchange(plan) != 5) {
    snprintf(why, whylen, "%s, %s to %s (%s): planned as kind %d, not the region exchange (5)", meshes_s, from_s, to_s,
             t->name, redist_plan_by_exchange(plan));
    ok = 0;
  } else if ((split ? run_split(plan, src, src_n * elem, dst, dst_n * elem, err, sizeof err)
                    : redist_plan_execute(plan, MPI_COMM_WORLD, src, src_n * elem, dst, dst_n * elem, NULL, 0, err,
                                          sizeof err)) != REDIST_OK) {
    snprintf(why, whylen, "%s, %s to %s (%s): execute on rank %d: %s", meshes_s, from_s, to_s, t->name, rank, err);
    ok = 0;
  } else {
    for (size_t e = 0; e < dst_n && ok; ++e) {
      int64_t want = identity(op, t);
      if (keeps)
        for (int m = 0; m < members; ++m) want = combine(op, t, want, contribution(t, salt, m, dst_idx[e]));
      const int64_t got = load(dst, e, t);
      if (got != want) {
        snprintf(why, whylen, "%s, %s to %s (%s): rank %d element %zu (global %lld) is %lld, expected %lld", meshes_s,
                 from_s, to_s, t->name, rank, e, (long long)dst_idx[e], (long long)got, (long long)want);
        ok = 0;
      }
    }
    if (ok && ((const unsigned char*)dst)[dst_n * elem] != 0xa5) {
      snprintf(why, whylen, "%s, %s to %s (%s): rank %d wrote past its target array", meshes_s, from_s, to_s, t->name,
               rank);
      ok = 0;
    }
  }
  if (ok) snprintf(why, whylen, "%s, %s to %s (%s)%s", meshes_s, from_s, to_s, t->name, split ? ", split phase" : "");
  redist_plan_free(plan);
  free(src_idx);
  free(dst_idx);
  free(src);
  free(dst);
  return ok;
}

/* The mesh axes that no cut of `dims` names, each taken with probability
 * `percent`%. */
static int random_pending(const Dim* dims, int ndim, const Mesh* mesh, int percent, int* out) {
  int n = 0;
  for (int a = 0; a < mesh->naxes; ++a) {
    int cut = 0;
    for (int d = 0; d < ndim; ++d)
      for (int c = 0; c < dims[d].ncuts; ++c)
        for (int j = 0; j < dims[d].cuts[c].naxes; ++j) cut |= dims[d].cuts[c].axes[j] == a;
    if (!cut && rnd(100) < percent) out[n++] = a;
  }
  return n;
}

/* A random problem with pending axes from FROM_MESH to TO_MESH, at least
 * one side composed and at least one side pending, a random operation and
 * integer type; reported as one test. */
static void random_pending_case(const Mesh* from_mesh, const Mesh* to_mesh, int t, int rank) {
  Dim from[kMaxDims], to[kMaxDims];
  PendingType pf = {from, {0, 0}, 0}, pt = {to, {0, 0}, 0};
  const int ndim = 1 + rnd(2);
  do {
    int used_from[2] = {0, 0}, used_to[2] = {0, 0};
    for (int d = 0; d < ndim; ++d) {
      const int extent = 1 + rnd(ndim == 1 ? 23 : 9);
      random_dim(&from[d], extent, from_mesh, used_from);
      random_dim(&to[d], extent, to_mesh, used_to);
    }
    pf.npending = random_pending(from, ndim, from_mesh, 75, pf.pending);
    pt.npending = random_pending(to, ndim, to_mesh, 40, pt.pending);
  } while ((!is_composed(from, ndim) && !is_composed(to, ndim)) || pf.npending + pt.npending == 0);
  const int op = rnd(kOps);
  const IntType* type = &kIntTypes[rnd((int)(sizeof kIntTypes / sizeof kIntTypes[0]))];
  const uint64_t salt = rng_state;
  char why[768];
  const int ok = run_pending(from_mesh, to_mesh, &pf, &pt, ndim, op, type, salt, t % 2, rank, why, sizeof why);
  report(ok, why, rank);
}

/* On one mesh of two axes ({a:2, b:W/2}, or {a:W, b:1} for an odd world),
 * or, `between`, two random placed meshes. */
static int pending_suite(int count, uint64_t seed, int between, int rank, int world) {
  rng_state = seed;
  const Mesh one = world % 2 == 0 ? (Mesh){{"a", "b"}, {2, world / 2}, 2, 0, {0}} : (Mesh){{"a", "b"}, {world, 1}, 2, 0, {0}};
  for (int t = 0; t < count; ++t) {
    if (between) {
      const Mesh from_mesh = random_placed_mesh(world, "a", "b"), to_mesh = random_placed_mesh(world, "c", "d");
      random_pending_case(&from_mesh, &to_mesh, t, rank);
    } else {
      random_pending_case(&one, &one, t, rank);
    }
  }
  return rank == 0 ? tap_end() : 0;
}

static Cut cut1(int axis, int block) { return (Cut){{axis, 0}, 1, block}; }

static int fixed_suite(int rank, int world) {
  if (world != 4) {
    if (rank == 0) tap_result(0, "cuts_c fixed needs 4 ranks, has %d", world);
    return rank == 0 ? tap_end() : 0;
  }
  char why[768];
  /* DTensor: (8, 4) with Shard(0) on mesh dims a then b, and b then a, to replicated. */
  const Mesh ab = {{"a", "b"}, {2, 2}, 2, 0, {0}};
  const Dim replicated[2] = {{.extent = 8}, {.extent = 4}};
  const Dim ab_order[2] = {{.extent = 8, .cuts = {cut1(0, 0), cut1(1, 0)}, .ncuts = 2}, {.extent = 4}};
  const Dim ba_order[2] = {{.extent = 8, .cuts = {cut1(1, 0), cut1(0, 0)}, .ncuts = 2}, {.extent = 4}};
  report(run_case(&ab, ab_order, replicated, 2, 0, rank, why, sizeof why), why, rank);
  report(run_case(&ab, ba_order, replicated, 2, 0, rank, why, sizeof why), why, rank);
  /* ScaLAPACK: 2x2 blocks of 2 over a 2x2 process grid, to row blocks over p. */
  const Mesh pq = {{"p", "q"}, {2, 2}, 2, 0, {0}};
  const Dim cyclic[2] = {{.extent = 8, .cuts = {cut1(0, 2)}, .ncuts = 1}, {.extent = 6, .cuts = {cut1(1, 2)}, .ncuts = 1}};
  const Dim rows[2] = {{.extent = 8, .cuts = {cut1(0, 0)}, .ncuts = 1}, {.extent = 6}};
  report(run_case(&pq, cyclic, rows, 2, 0, rank, why, sizeof why), why, rank);
  report(run_case(&pq, cyclic, rows, 2, 1, rank, why, sizeof why), why, rank);
  /* A composed holding is not a box: both box queries refuse, in one line. */
  redist_plan_t* plan = NULL;
  char err[512] = "";
  int ok = redist_plan_create("{p:2, q:2}", "[{p}%2 8, {q}%2 6]", "[{p}8, 6]", "i64", &plan, err, sizeof err) ==
           REDIST_OK;
  for (int which = 0; which < 2 && ok; ++which) {
    size_t offset[REDIST_MAX_DIMS], extent[REDIST_MAX_DIMS];
    err[0] = '\0';
    const int rc = which == 0 ? redist_plan_src_box(plan, 0, offset, extent, err, sizeof err)
                              : redist_plan_tgt_box(plan, 0, offset, extent, err, sizeof err);
    ok = rc == REDIST_ERR_BAD_INPUT && strchr(err, '\n') == NULL && strstr(err, "composed") != NULL;
    snprintf(why, sizeof why, "%s box of a composed plan refused in one line: code %d, \"%s\"",
             which == 0 ? "source" : "target", rc, err);
    report(ok, why, rank);
  }
  redist_plan_free(plan);
  /* The region queries of a plan that is not the region exchange: refused in one line. */
  plan = NULL;
  size_t count = 0;
  ok = redist_plan_create("{p:2, q:2}", "[{p}7, 6]", "[7, {q}6]", "i64", &plan, err, sizeof err) == REDIST_OK;
  err[0] = '\0';
  const int rc = ok ? redist_plan_region_count(plan, 0, REDIST_REGION_SENDS, &count, err, sizeof err) : -1;
  snprintf(why, sizeof why, "region queries of a plan that is not the region exchange refused in one line: code %d, "
           "\"%s\"", rc, err);
  report(rc == REDIST_ERR_BAD_INPUT && strchr(err, '\n') == NULL && strstr(err, "not the region exchange") != NULL,
         why, rank);
  redist_plan_free(plan);
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
  else if (argc == 4 && strcmp(argv[1], "between") == 0 && world <= kMaxRanks)
    rc = between_suite(atoi(argv[2]), (uint64_t)strtoull(argv[3], NULL, 10), rank, world);
  else if (argc == 4 && (strcmp(argv[1], "pending") == 0 || strcmp(argv[1], "pending-between") == 0) &&
           world <= kMaxRanks)
    rc = pending_suite(atoi(argv[2]), (uint64_t)strtoull(argv[3], NULL, 10), argv[1][7] == '-', rank, world);
  else if (argc == 2 && strcmp(argv[1], "fixed") == 0)
    rc = fixed_suite(rank, world);
  else if (rank == 0)
    fprintf(stderr, "usage: cuts_c random|between|pending|pending-between COUNT SEED (at most %d ranks) | cuts_c fixed\n",
            kMaxRanks);
  MPI_Finalize();
  return rc;
}
