/* redist: plan and run a redistribution at run time, from C, C++ or any
 * language with a C foreign-function interface.
 *
 * Planning is the extracted, verified Coq planner (the one `redist plan`
 * runs), embedded in libredist_plan together with OCaml's runtime; running is
 * the MPI runtime's collectives driven by the plan interpreter
 * (redist/interpreter.hpp).  Link with mpicc and `pkg-config --cflags --libs
 * redist_plan` (the static libredist_plan.a, libredist_mpi.a and
 * libredist_common.a with -lstdc++ -lm -ldl), or load libredist_plan.so
 * (everything inside) from a foreign-function interface.
 *
 * Errors: every fallible call returns an int code, REDIST_OK (0) on success,
 * and writes one line naming what is wrong into err (errlen bytes, always
 * NUL-terminated when errlen > 0; err may be NULL when errlen is 0).
 *
 * Global state and threads: the first redist_plan_create or _check starts OCaml's
 * runtime once for the process (it is never stopped; the SIGSEGV handler and
 * alternate signal stack it would install are put back as they were).  Every call that
 * enters OCaml (redist_plan_create*, redist_plan_check, the box queries,
 * redist_plan_sum_receives, redist_plan_free) holds one process-wide mutex, so they may be called
 * from any thread, one at a time in effect.  A plan is immutable after
 * creation: its queries may be called from any thread concurrently.
 * redist_exec_run (and _start, _test, _wait) takes no lock and calls no OCaml
 * code; an executor is used by one thread at a time, with MPI's own rules
 * for threads.
 */
#ifndef REDIST_REDIST_H
#define REDIST_REDIST_H

#include <stddef.h>
#include <stdint.h>

/* From C++: <mpi.h> without the deprecated MPI C++ bindings (as the
 * runtime's redist/mpi_c.hpp), which need a library of their own. */
#if defined(__cplusplus) && !defined(OMPI_SKIP_MPICXX)
#define OMPI_SKIP_MPICXX 1
#endif
#if defined(__cplusplus) && !defined(MPICH_SKIP_MPICXX)
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: those of the `redist` command line, and the runtime's. */
enum {
  REDIST_OK = 0,
  REDIST_ERR_REJECTED = 1,  /* redist_plan_check: the verified checker rejects the plan */
  REDIST_ERR_BAD_INPUT = 2, /* syntax, ill-formed mesh or types, limits, bad arguments */
  REDIST_ERR_INTERNAL = 3,  /* a bug: please report it */
  REDIST_ERR_RUNTIME = 4    /* the runtime refused or MPI failed (message names the runtime's error) */
};

/* The most dimensions (and mesh axes) a plan has: the runtime's limit. */
#define REDIST_MAX_DIMS 8

typedef struct redist_plan redist_plan_t;
typedef struct redist_exec redist_exec_t;

/* Plans the redistribution of the array of type `from` to type `to` on the
 * mesh, in the command line's notation (codegen/README.md), e.g. mesh
 * "{x:2, y:4}", from "[16{x}32, 64{y}256]", to "[8{y}32, 128{x}256]"; as
 * `redist plan` does, with its default strategy (auto: the cost model's
 * choice among the collectives, the direct exchange and hybrids of the two
 * through an intermediate layout; uneven layouts without the collectives).  dtype: "f32", "bf16", ... or NULL (the types'
 * prefix, else f32).  At most 8 dimensions and 8 mesh axes (the runtime's
 * limits).  On success *out is a new plan to free with redist_plan_free.
 *
 * Pending sums: a type may end in ` sum{y}` or ` sum{x,z}` (each device
 * holds a contribution; the value is the sum over the group along those
 * axes: DTensor's Partial()), e.g. from "[{x}8, 16] sum{y}" to
 * "[{x}8, {y}16]".  Such a problem is planned by the verified pending-sum
 * planner (reduce_scatter, all_reduce, the collectives, add_pending; or the
 * reducing exchange where the collectives do not apply: uneven, two
 * meshes), whose steps the runtime runs with its reductions (sums in
 * ascending group-member order, so a plan gives the same bits run after
 * run).  Its dtype must be one the runtime adds: i8..i64, u8..u64, f16,
 * bf16, f32, f64, c64, c128 (code 2 otherwise). */
int redist_plan_create(const char* mesh, const char* from, const char* to, const char* dtype,
                       redist_plan_t** out, char* err, size_t errlen);
/* The same between two placed meshes of one world (`redist plan --from-mesh
 * MESH --to-mesh TO_MESH`, e.g. "{x:4} @ 4" on world ranks 4..7; TO_MESH NULL:
 * one mesh, MESH) and with a strategy: "collectives", "exchange", "auto"
 * or NULL (auto). */
int redist_plan_create_with(const char* mesh, const char* to_mesh, const char* from, const char* to,
                            const char* dtype, const char* strategy, redist_plan_t** out, char* err,
                            size_t errlen);
/* The same problem as data.  A mesh: naxes axes (names and sizes, the
 * first most significant) on world ranks `ranks` (one per device, row-major;
 * NULL: ranks 0..n-1).  A layout: per dimension its global extent and the
 * mesh axes sharding it, major to minor, as indices into the mesh's axes
 * (axes[d][0..naxes[d]-1]; none: replicated). */
typedef struct redist_mesh {
  int naxes;
  const char* const* axis_names;
  const int* axis_sizes;
  const int* ranks;
} redist_mesh_t;

typedef struct redist_layout {
  int ndim;
  const uint64_t* extents;
  const int* naxes;
  const int (*axes)[REDIST_MAX_DIMS];
} redist_layout_t;

/* redist_plan_create_with over structs (to_mesh NULL: one mesh, `from` and
 * `to` over `mesh`; else `to` over to_mesh).  The structs are read during
 * the call only.  Code 2 names the field that is wrong, or is the planner's
 * message about the problem written in the command line's notation. */
int redist_plan_create_from(const redist_mesh_t* mesh, const redist_mesh_t* to_mesh, const redist_layout_t* from,
                            const redist_layout_t* to, const char* dtype, const char* strategy, redist_plan_t** out,
                            char* err, size_t errlen);

/* A layout with pending axes, for redist_plan_create_pending_from:
 * npending indices into the mesh's axes (none of them sharding a
 * dimension); npending 0 (pending may be NULL) is the plain layout.  op:
 * the pending axes' operation, "sum", "prod", "max", "min" or "avg" (NULL:
 * "sum"; read only where npending > 0), as the type strings' OP{..}.
 * Version 0.3.0 added op at the end: source written for the earlier struct
 * (initializers of its three members) gets NULL, a sum, when recompiled;
 * a binary compiled against the earlier header must be recompiled, as the
 * struct is read through its pointer. */
typedef struct redist_pending_layout {
  redist_layout_t layout;
  int npending;
  const int* pending;
  const char* op;
} redist_pending_layout_t;

/* redist_plan_create_from with pending sums on either side (`from`'s axes
 * of `mesh`, `to`'s of to_mesh, or of mesh when to_mesh is NULL).  Same
 * codes; code 2 names the wrong field (e.g. "from: pending[0] = 5 is not an
 * axis of the mesh (0 to 1)").  A separate function, so that the layout
 * struct of callers compiled against the earlier header keeps its size. */
int redist_plan_create_pending_from(const redist_mesh_t* mesh, const redist_mesh_t* to_mesh,
                                    const redist_pending_layout_t* from, const redist_pending_layout_t* to,
                                    const char* dtype, const char* strategy, redist_plan_t** out, char* err,
                                    size_t errlen);

/* A plan of one's own in plan-file syntax (`redist check --plan`: refine
 * lines, one collective per line, or the one line `exchange`; a hybrid: such
 * a plan, a line `via TYPE` naming the intermediate layout on the target
 * mesh, and the plan from there, any part a hybrid again), checked by the
 * verified checker; a plan it rejects is code 1 with the line of the first
 * failing step and why.  An accepted plan is queried and run as any other. */
int redist_plan_check(const char* mesh, const char* to_mesh, const char* from, const char* to, const char* dtype,
                      const char* plan_text, redist_plan_t** out, char* err, size_t errlen);
/* The plan of a `redist plan --json` (or `redist check --json`) report,
 * schema redist/1: its problem (source_mesh, target_mesh, source, target,
 * dtype) and its refine lines and steps, checked again by the verified
 * checker, as redist_plan_check does (a report edited into a wrong plan is
 * code 1 with the failing line; malformed JSON or a missing field code 2). */
int redist_plan_from_json(const char* json, redist_plan_t** out, char* err, size_t errlen);
/* In place (proofs/inplace/Inplace.v): the same problem as
 * redist_plan_create_with (no pending sums), run on ONE buffer per rank,
 * which holds the rank's source box row-major at offset 0 at the start and
 * its target box row-major at offset 0 at the end, plus a staging area of
 * at most staging_bytes (at least one element; SIZE_MAX: as much as the
 * schedule wants, never more than the largest buffer).  The plan is the
 * extracted inplace_plan: the generator's rounds of moves, accepted by the
 * proven validator (inplace_sound: every buffer ends with its target box;
 * inplace_live_bytes: every run within its buffer or the staging;
 * inplace_traffic_exact: each rank receives exactly the target elements its
 * source lacks; inplace_rounds_match: the messages of a round pair up).  A
 * problem the generator finds no schedule for within the staging is code 1
 * (plan rejected); staging_bytes below one element or pending sums code 2.
 * The caller allocates on rank r redist_plan_buffer_bytes(plan, r) and
 * redist_plan_workspace_bytes(plan) of staging (the most the schedule
 * stages on any rank, at most staging_bytes), and runs it with
 * redist_exec_run_in_place; redist_plan_live_bytes and _alloc_bytes are the
 * largest buffer plus the staging, redist_plan_num_steps the rounds
 * (redist_plan_step_text: each round's runs and elements). */
int redist_plan_create_in_place(const char* mesh, const char* to_mesh, const char* from, const char* to,
                                const char* dtype, size_t staging_bytes, redist_plan_t** out, char* err,
                                size_t errlen);
/* Within a memory budget (`redist plan --memory-budget BUDGET_BYTES`
 * under auto, the built-in profile, one host): the extracted choose_within
 * weighs redist_plan_create_with's candidates, which allocate source +
 * destination + workspace per rank, and the in-place plan at the most
 * staging the budget allows (budget less the largest buffer, at most that
 * buffer), and returns the cheapest whose allocated bytes per rank fit
 * (proven: choose_within_fits, choose_within_verified,
 * choose_within_fastest).  Below source + destination only in place fits:
 * redist_plan_by_exchange says which was chosen (4: in place, run by
 * redist_exec_run_in_place; its redist_plan_alloc_bytes is the largest
 * buffer plus the staging).  Pending sums: their candidates within the
 * budget (never in place).  A budget below every candidate's figure
 * (in place: the largest buffer and one element) is code 2, naming the
 * least figures; composed cuts are code 2. */
int redist_plan_create_within(const char* mesh, const char* to_mesh, const char* from, const char* to,
                              const char* dtype, size_t budget_bytes, redist_plan_t** out, char* err, size_t errlen);
void redist_plan_free(redist_plan_t* plan);

/* Queries.  Strings belong to the plan and live as long as it.  A NULL
 * plan answers 0 or NULL. */
int redist_plan_devices(const redist_plan_t* plan);          /* world ranks 0..devices-1 take part */
int redist_plan_ndim(const redist_plan_t* plan);             /* the array's dimensions */
/* 0: collectives (pending sums: reductions, collectives, add_pending), 1: the
 * direct exchange, 2: the reducing exchange (pending sums), 3: a hybrid (its
 * parts in turn through the intermediate layout; only redist_exec_run runs
 * it: redist_plan_step and redist_plan_receives refuse it), 4: in place
 * (redist_plan_create_in_place, or redist_plan_create_within's choice; run by
 * redist_exec_run_in_place only), 5: the
 * region exchange (composed cuts such as "[{x}{y}8, 4]" or "[{p}%2 8, {q}%2 6]";
 * with pending axes, "[{x}%2 8] sum{y}", the reducing one, combining in the
 * listed order in staging it owns, G target local arrays for G contributions
 * per element, which redist_plan_workspace_bytes and the live bytes leave
 * out; the box queries and redist_plan_receives refuse it) */
int redist_plan_by_exchange(const redist_plan_t* plan);
size_t redist_plan_elem_bytes(const redist_plan_t* plan);
size_t redist_plan_num_steps(const redist_plan_t* plan);
const char* redist_plan_step_text(const redist_plan_t* plan, size_t i); /* NULL past the end */
const char* redist_plan_text(const redist_plan_t* plan);     /* what `redist plan` prints */
const char* redist_plan_json(const redist_plan_t* plan);     /* `redist plan --json`: schema redist/1 */
const char* redist_plan_guarantees(const redist_plan_t* plan); /* "theorem: statement" lines */
uint64_t redist_plan_src_bytes(const redist_plan_t* plan);   /* the largest rank's source array */
uint64_t redist_plan_dst_bytes(const redist_plan_t* plan);   /* the largest rank's target array */
uint64_t redist_plan_peak_bytes(const redist_plan_t* plan);  /* the largest local array along the plan */
/* What redist_exec_run needs on every rank (with pending sums:
 * sumplan_workspace_bytes of the extracted lowering, for the collectives the
 * reductions' two arrays and scratch then the collectives' workspace, for
 * the reducing exchange the busiest rank's staging, group size times its
 * target box; for a hybrid program_workspace_bytes of the extracted
 * lowering: the largest intermediate box, then the larger of its parts'
 * workspaces) */
uint64_t redist_plan_workspace_bytes(const redist_plan_t* plan);
/* The most bytes alive on a rank while the plan runs: by the collectives,
 * source + destination + the workspace and scratch each call uses (proven:
 * lower_live_bytes; a generated header's kLiveBytes; with pending sums,
 * lower_sums_live_bytes); by the exchange, which needs no workspace, the
 * largest source box plus the largest target box (proven:
 * lower_splan_live_bytes); for a hybrid the larger of its parts' figures,
 * each with the user's array that part does not touch (splan_live_bytes);
 * with pending sums sumplan_live_bytes (for the reducing exchange: largest
 * source box + (1 + group size) * largest target box). */
uint64_t redist_plan_live_bytes(const redist_plan_t* plan);
/* What the caller allocates on a rank: redist_plan_src_bytes +
 * redist_plan_dst_bytes + redist_plan_workspace_bytes, computed by the
 * extracted code (splan_alloc_bytes; with pending sums sumplan_alloc_bytes),
 * the figure `redist plan --memory-budget` bounds; at least
 * redist_plan_live_bytes (proven: splan_live_le_alloc). */
uint64_t redist_plan_alloc_bytes(const redist_plan_t* plan);
/* An in-place plan: world rank `rank`'s buffer, max(source box, target box)
 * bytes (0 for a rank in neither mesh, or for another kind of plan). */
uint64_t redist_plan_buffer_bytes(const redist_plan_t* plan, int rank);
uint64_t redist_plan_recv_max_bytes(const redist_plan_t* plan);  /* received by the busiest rank */
/* No plan's busiest rank receives less (with pending sums: target
 * elements whose sum needs a contribution the rank does not hold,
 * sum_recv_bound; 0, no bound stated, when the target has pending axes). */
uint64_t redist_plan_lower_bound_recv_bytes(const redist_plan_t* plan);

/* The box of the global array that world rank `rank` holds in the source
 * (target) layout: offset[d] its corner, extent[d] its size, for d < ndim
 * (arrays of at least ndim entries); all extents 0 for a rank outside the
 * layout's mesh (any rank >= 0 may be asked).  Its local array is the box row-major: the product of the
 * extents times redist_plan_elem_bytes bytes (uneven layouts: per rank). */
int redist_plan_src_box(const redist_plan_t* plan, int rank, size_t* offset, size_t* extent, char* err,
                        size_t errlen);
int redist_plan_tgt_box(const redist_plan_t* plan, int rank, size_t* offset, size_t* extent, char* err,
                        size_t errlen);

/* One step of a plan by the collectives, as the plan interpreter runs it
 * (redist/interpreter.hpp), for callers that run the steps with collectives
 * of their own (the Python package's JAX and PyTorch adapters). */
typedef struct redist_step_info {
  int op;           /* 0 dyn_slice, 1 all_gather, 2 all_to_all, 3 all_permute; pending sums:
                       4 reduce_scatter (dim_a: the dimension), 5 all_reduce (both sum over the group in
                       ascending member order), 6 add_pending (members other than member 0 of the group
                       set their array to zero) */
  int group_stride; /* the group over world ranks: rank r is member (r / stride) % size */
  int group_size;   /* of the group whose ranks differ only there (all_permute: 1) */
  int dim_a;        /* dyn_slice, all_gather: the dimension; all_to_all: the one gathered (s) */
  int dim_b;        /* all_to_all: the one split (t); else 0 */
  int ndim;
  size_t shape[REDIST_MAX_DIMS]; /* the local array's shape before the step */
  const int* recv_from; /* all_permute: rank r's new array is rank recv_from[r]'s old one
                           (redist_plan_devices entries, owned by the plan); else NULL */
} redist_step_info_t;

/* Step i (< redist_plan_num_steps) of a plan by the collectives, in
 * execution order (with pending sums: the reductions, the collectives, the
 * add_pending steps); code 2 for a plan by an exchange, a hybrid (whose
 * step texts are its parts' steps) or i out of range. */
int redist_plan_step(const redist_plan_t* plan, size_t i, redist_step_info_t* out, char* err, size_t errlen);

/* A region of the global array and the world rank it comes from. */
typedef struct redist_region {
  int from_rank;
  size_t offset[REDIST_MAX_DIMS];
  size_t extent[REDIST_MAX_DIMS];
} redist_region_t;

/* A plan by the exchange: the pieces of world rank `rank`'s target box, each
 * copied whole from rank from_rank's source array (from_rank == rank: its own
 * source array), together exactly its target box.  *count is set to the
 * number of pieces; the first min(*count, max_regions) are written (call with
 * max_regions 0 to size the array).  Code 2 for a plan by the collectives or
 * a rank outside 0..redist_plan_devices(plan)-1. */
int redist_plan_receives(const redist_plan_t* plan, int rank, redist_region_t* regions, size_t max_regions,
                         size_t* count, char* err, size_t errlen);

/* A contribution to a piece of a target box in a plan by the reducing
 * exchange: member `member` (0-based, in ascending group-member order) of
 * the source pending group of the piece's holder, world rank from_rank
 * (the asking rank itself: from its own source array), gives its values
 * on the global region offset/extent. */
typedef struct redist_contribution {
  int from_rank;
  int member;
  size_t offset[REDIST_MAX_DIMS];
  size_t extent[REDIST_MAX_DIMS];
} redist_contribution_t;

/* A plan by the reducing exchange: what world rank `rank` adds up, the
 * extracted lowering's pieces (lower_sumx).  *designated: 1 when its target
 * box gets the sums (a target rank whose coordinates on the target's
 * pending axes are all 0), else 0 (it sets its target array to zero, or
 * holds none); *group_size: the members of a source pending group; *count:
 * the number of contributions (none when not designated), the first
 * min(*count, max_contributions) written, piece by piece, members ascending
 * within a piece.  Each target element is the sum of its members'
 * contributions in ascending member order (the runtime's order).  Code 2
 * for another kind of plan or a rank outside 0..devices-1. */
int redist_plan_sum_receives(const redist_plan_t* plan, int rank, redist_contribution_t* contributions,
                             size_t max_contributions, size_t* count, int* designated, int* group_size, char* err,
                             size_t errlen);

/* The region exchange's lists (a plan of kind 5, composed cuts), for callers
 * that move the data with collectives of their own (the Python package's
 * PyTorch adapter): each world rank's messages and local copies, as the
 * extracted lowering lists them (Lowering.regions), copied out, nothing
 * computed.  A box here is one of a rank's dense row-major LOCAL arrays
 * (not of the global array): per dimension its first local index and its
 * extent.  Pairing: the k-th box rank r sends to peer p has the extents of,
 * and carries the elements of, the k-th box p receives from r, row-major
 * within each box; a message is its boxes' elements in list order. */
typedef struct redist_local_box {
  size_t offset[REDIST_MAX_DIMS];
  size_t extent[REDIST_MAX_DIMS];
} redist_local_box_t;

/* The lists of redist_plan_region_count and redist_plan_region_message. */
enum {
  REDIST_REGION_SENDS = 0, /* boxes of the rank's source local array, per peer */
  REDIST_REGION_RECVS = 1, /* boxes of the rank's target local array, per peer */
  REDIST_REGION_COPIES = 2 /* (source box, target box) pairs of equal extents, copied within the rank */
};

/* World rank `rank`'s local array shape in the source (which 0) or target
 * (which 1) layout: extent[d] for d < ndim, all 0 for a rank holding
 * nothing.  Every kind of plan: a composed layout's from the lowering, any
 * other the extents of redist_plan_src_box / redist_plan_tgt_box.  Code 2
 * for a rank outside 0..devices-1 or `which` not 0 or 1. */
int redist_plan_local_shape(const redist_plan_t* plan, int which, int rank, size_t* extent, char* err,
                            size_t errlen);
/* How many entries world rank `rank` has in list `list` (REDIST_REGION_*):
 * messages (one per peer) or copies.  Code 2 for another kind of plan than
 * the region exchange, a rank outside 0..devices-1 or an unknown list. */
int redist_plan_region_count(const redist_plan_t* plan, int rank, int list, size_t* count, char* err,
                             size_t errlen);
/* Message i (< the count) of list REDIST_REGION_SENDS or _RECVS of world
 * rank `rank`: *peer the other world rank, *nboxes its number of boxes, the
 * first min(*nboxes, max_boxes) written to boxes (max_boxes 0 sizes it). */
int redist_plan_region_message(const redist_plan_t* plan, int rank, int list, size_t i, int* peer,
                               redist_local_box_t* boxes, size_t max_boxes, size_t* nboxes, char* err,
                               size_t errlen);
/* Copy i (< the count of REDIST_REGION_COPIES) of world rank `rank`: the
 * box `from` of its source local array goes to the box `to` of its target
 * local array. */
int redist_plan_region_copy(const redist_plan_t* plan, int rank, size_t i, redist_local_box_t* from,
                            redist_local_box_t* to, char* err, size_t errlen);

/* Binds the plan to a communicator (the world: redist_plan_devices(plan)
 * ranks for the collectives, at least that many for either exchange or a
 * hybrid; mesh ranks row-major, the first axis most significant):
 * duplicates it and creates the plan's group communicators or the
 * exchange's messages (a hybrid: each part's, a part by the collectives on
 * world ranks 0 to its mesh's devices - 1).  Collective over comm.  The plan
 * must outlive the executor. */
int redist_plan_bind(const redist_plan_t* plan, MPI_Comm comm, redist_exec_t** out, char* err, size_t errlen);
/* Moves this rank's source box (src) to its target box (dst) using
 * workspace (at least redist_plan_workspace_bytes; 0 for the exchange; a
 * hybrid: the intermediate box in its first bytes, each part's workspace
 * after it, as a generated header's run()).
 * With pending sums, src is this rank's contribution and dst its part of
 * the target's sums (without pending axes on the target: the values).  A
 * rank outside the source (target) mesh passes NULL and 0 for src (dst).  Collective over the
 * bound communicator; a buffer too short on any rank fails on every rank.
 * No allocation on success.  Call before MPI_Finalize. */
int redist_exec_run(redist_exec_t* exec, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                    void* workspace, size_t workspace_bytes, char* err, size_t errlen);

/* Runs an in-place plan: buf is this rank's buffer (at least
 * redist_plan_buffer_bytes(plan, rank); NULL and 0 where that is 0) holding
 * its source box, and on return its target box; staging at least
 * redist_plan_workspace_bytes(plan) bytes (NULL and 0 where that is 0), not
 * overlapping buf, its contents not kept.  Round by round, each rank's
 * runs to one peer go as one message (an MPI derived datatype made at
 * bind, straight out of and into the buffer and staging: no packing, no
 * allocation in the call).  Collective over the bound communicator; a
 * buffer or staging too short on any rank fails on every rank before
 * anything moves.  An executor of another kind of plan is code 2 here, as
 * an in-place one is in redist_exec_run and redist_exec_start. */
int redist_exec_run_in_place(redist_exec_t* exec, void* buf, size_t buf_bytes, void* staging, size_t staging_bytes,
                             char* err, size_t errlen);

/* Split phase: redist_exec_run in two halves, so that computation can run
 * while the data moves.  redist_exec_start takes redist_exec_run's
 * arguments and is collective over the bound communicator like it (the
 * same checks, agreed: a bad buffer on any rank fails on every rank); it
 * returns with the messages in flight.  redist_exec_test (*done set to 1
 * once dst is complete, else 0) and redist_exec_wait (returns once dst is
 * complete) are local to the rank; every start is followed by one wait
 * before the next start or run (a wait after test reported done returns at
 * once).  From start until wait returns (or test reports done) src must not
 * be written or freed, and neither dst nor the workspace be read or
 * written.  Builds of the runtime without NDEBUG check src: a checksum of
 * its bytes recorded at start is compared at completion, and a change is
 * code 2 on the rank where it happened (release builds check nothing).
 * Misuse is code 2 with one line: test or wait with nothing started, start
 * or run while a start has not been waited for (agreed: every rank fails).
 * An error from test ends the operation.
 *
 * What overlaps: a plan by the direct or the reducing exchange posts all
 * its messages in start (the reducing exchange adds the sums when they have
 * arrived, in test or wait).  A plan by the collectives runs whole inside
 * start: no overlap for collectives plans yet (test then reports done at
 * once).  A hybrid runs its first part whole inside start, then starts its
 * second part (which overlaps when it is an exchange).  No thread is
 * started: MPI moves data during MPI calls (Open MPI's shared-memory and
 * TCP transports progress only then), so a long computation between start
 * and wait should call redist_exec_test now and then. */
int redist_exec_start(redist_exec_t* exec, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                      void* workspace, size_t workspace_bytes, char* err, size_t errlen);
int redist_exec_test(redist_exec_t* exec, int* done, char* err, size_t errlen);
int redist_exec_wait(redist_exec_t* exec, char* err, size_t errlen);
/* Before MPI_Finalize; an operation still in flight is waited for first. */
void redist_exec_free(redist_exec_t* exec);

/* Single copy on a host.  Open MPI's shared-memory transport copies every
 * byte of a message twice (the sender into a shared segment, the receiver
 * out of it).  A plan by the direct exchange moves a piece with one copy
 * instead (the receiver reads it straight out of the sender's source array
 * into its own destination) when the sender's source array lies whole in
 * one buffer of redist_alloc and the receiver is one of the ranks that
 * allocated that buffer together (so on the same host); the destination
 * may be any memory.  The reducing exchange does the same, each
 * contribution copied straight into the receiver's workspace (the sums are
 * then added as before), and so does each exchange part of a hybrid: its
 * first part reads the source array, its second the intermediate, which
 * lies at the start of the workspace (so a workspace from redist_alloc).  Other pieces (ranks on other hosts, source arrays
 * allocated elsewhere) travel by MPI as before; the plan, its messages and
 * their pieces are the same either way, decided per piece at each start or
 * run.  Synchronization is the runtime's: a start or run reads no other
 * rank's source array before that rank has entered it, and no rank's wait
 * or run returns (so no rank rewrites its source array) before every
 * reader of it is done.  Plans by the collectives (and a hybrid's
 * collectives part) run as before on such buffers, by MPI.
 *
 * redist_alloc: *out is this rank's new buffer of `bytes` bytes in MPI-3
 * shared memory (MPI_Win_allocate_shared over the ranks of comm on its
 * host), aligned to 64 bytes; a buffer of 0 bytes is a distinct pointer
 * too.  redist_free frees a buffer of redist_alloc.  Both are collective
 * over comm (every rank calls them, in the same order, each with its own
 * size and pointer of one allocation; redist_free over the comm of the
 * allocation or one with the same ranks) and agree on their verdict: code 2
 * with one line on the rank that passed a null out, more than 2^40 bytes, a
 * pointer redist_alloc did not return, one freed already, or another
 * allocation's pointer than the other ranks, and code 4 (remote_error) on
 * the others; a refused redist_free frees nothing.  Free every buffer before
 * MPI_Finalize. */
int redist_alloc(MPI_Comm comm, size_t bytes, void** out, char* err, size_t errlen);
int redist_free(MPI_Comm comm, void* ptr, char* err, size_t errlen);
/* The bytes that the last redist_exec_start or _run of a plan by the direct
 * or the reducing exchange moved with one copy from other ranks' source
 * arrays (the rest of what the rank received came by MPI); of a hybrid,
 * its exchange parts' together; 0 for plans by the collectives. */
size_t redist_exec_direct_bytes(const redist_exec_t* exec);

/* redist_plan_bind, redist_exec_run and redist_exec_free in one call. */
int redist_plan_execute(const redist_plan_t* plan, MPI_Comm comm, const void* src, size_t src_bytes, void* dst,
                        size_t dst_bytes, void* workspace, size_t workspace_bytes, char* err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* REDIST_REDIST_H */
