/* redist_plan_create_from: a problem given as structs plans exactly as the
 * same problem given as strings (equal redist_plan_json), for one mesh, an
 * uneven layout and two placed meshes; wrong structs are code 2 naming the
 * field, and the planner's own refusals say what the structs were read as.
 * One TAP result per check (tap.h); exit 0 when all pass. */
#include <stdio.h>
#include <string.h>

#include "redist/redist.h"
#include "tap.h"

static void report(int passed, const char* what, const char* detail) {
  tap_result(passed, "%s%s%s", what, detail[0] ? ": " : "", detail);
}

/* The structs' plan and the strings' plan have the same JSON. */
static void same_plan(const char* what, const redist_mesh_t* mesh, const redist_mesh_t* to_mesh,
                      const redist_layout_t* from, const redist_layout_t* to, const char* mesh_text,
                      const char* to_mesh_text, const char* from_text, const char* to_text) {
  char err[512] = "";
  redist_plan_t *by_structs = NULL, *by_strings = NULL;
  int rc = redist_plan_create_from(mesh, to_mesh, from, to, "bf16", NULL, &by_structs, err, sizeof err);
  if (rc == REDIST_OK)
    rc = redist_plan_create_with(mesh_text, to_mesh_text, from_text, to_text, "bf16", NULL, &by_strings, err, sizeof err);
  report(rc == REDIST_OK && strcmp(redist_plan_json(by_structs), redist_plan_json(by_strings)) == 0, what,
         rc == REDIST_OK ? redist_plan_step_text(by_structs, 0) : err);
  redist_plan_free(by_structs);
  redist_plan_free(by_strings);
}

static void refused(const char* what, const redist_mesh_t* mesh, const redist_layout_t* from,
                    const redist_layout_t* to, const char* expected) {
  char err[512] = "";
  redist_plan_t* plan = NULL;
  const int rc = redist_plan_create_from(mesh, NULL, from, to, NULL, NULL, &plan, err, sizeof err);
  report(rc == REDIST_ERR_BAD_INPUT && plan == NULL && strstr(err, expected) != NULL && strchr(err, '\n') == NULL, what,
         err);
}

int main(void) {
  const char* xy[] = {"x", "y"};
  const int sizes_23[] = {2, 3};
  const redist_mesh_t mesh_23 = {2, xy, sizes_23, NULL};
  const uint64_t six[] = {6}, uneven[] = {7, 5};
  const int one[] = {1}, none_one[] = {0, 1}, one_none[] = {1, 0};
  const int by_x[][REDIST_MAX_DIMS] = {{0}}, by_y[][REDIST_MAX_DIMS] = {{1}};
  const redist_layout_t from_x = {1, six, one, by_x}, to_y = {1, six, one, by_y};
  same_plan("one mesh: {x:2, y:3} [{x}6] -> [{y}6]", &mesh_23, NULL, &from_x, &to_y, "{x:2, y:3}", NULL, "[{x}6]",
            "[{y}6]");

  const int by_y_then_x[][REDIST_MAX_DIMS] = {{0}, {1, 0}};
  const int two[] = {0, 2};
  const redist_layout_t from_rows = {2, uneven, one_none, by_x},
                        to_cols = {2, uneven, two, by_y_then_x};
  same_plan("uneven: [{x}7, 5] -> [7, {y,x}5]", &mesh_23, NULL, &from_rows, &to_cols, "{x:2, y:3}", NULL,
            "[{x}7, 5]", "[7, {y,x}5]");

  const char* p[] = {"p"};
  const int sizes_4[] = {4}, ranks[] = {5, 0, 3, 1};
  const redist_mesh_t placed = {1, p, sizes_4, ranks};
  const int by_p[][REDIST_MAX_DIMS] = {{0}, {0}};
  const redist_layout_t to_p = {2, uneven, none_one, by_p};
  same_plan("two meshes: {x:2, y:3} -> {p:4} @ [5, 0, 3, 1]", &mesh_23, &placed, &from_rows, &to_p, "{x:2, y:3}",
            "{p:4} @ [5, 0, 3, 1]", "[{x}7, 5]", "[7, {p}5]");

  const int bad_axis[][REDIST_MAX_DIMS] = {{5}};
  const redist_layout_t from_bad = {1, six, one, bad_axis};
  refused("an axis index out of the mesh", &mesh_23, &from_bad, &to_y, "from: dimension 0: axes[0] = 5");
  const redist_layout_t no_dims = {0, six, one, by_x};
  refused("ndim 0", &mesh_23, &no_dims, &to_y, "from: ndim 0");
  const char* null_name[] = {"x", NULL};
  const redist_mesh_t unnamed = {2, null_name, sizes_23, NULL};
  refused("a null axis name", &unnamed, &from_x, &to_y, "mesh: axis_names[1] is null");
  const int zero_size[] = {2, 0};
  const redist_mesh_t empty = {2, xy, zero_size, NULL};
  refused("an axis of size 0", &empty, &from_x, &to_y, "mesh: axis_sizes[1] = 0");
  const int twice[][REDIST_MAX_DIMS] = {{0, 0}};
  const int two_axes[] = {2};
  const redist_layout_t from_twice = {1, six, two_axes, twice};
  refused("an axis twice (the planner's refusal)", &mesh_23, &from_twice, &to_y,
          "(redist_plan_create_from's structs as: mesh {x:2, y:3}, from [{x,x}6], to [{y}6])");
  char err[128];
  redist_plan_t* plan = NULL;
  report(redist_plan_create_from(NULL, NULL, &from_x, &to_y, NULL, NULL, &plan, err, sizeof err) ==
             REDIST_ERR_BAD_INPUT,
         "a null mesh", err);
  return tap_end();
}
