/* Prints what redist/redist.h says about a plan, for tests/capi/run.sh to
 * compare with `redist plan`: with "json" or "text" as the first argument,
 * redist_plan_json or redist_plan_text (with "check-json", of the plan read
 * from standard input through redist_plan_check);
 * redist_plan_json or redist_plan_text; with "figures", one line
 * "steps S peak P recv_max R lower_bound L src S dst D workspace W" (bytes)
 * followed by the step texts and the guarantees; with "from-json" alone,
 * redist_plan_json of the plan read from a `redist plan --json` report on
 * standard input (redist_plan_from_json).  Exit: the planner's code. */
#include <stdio.h>
#include <string.h>

#include "redist/redist.h"

int main(int argc, char** argv) {
  const int from_json = argc == 2 && strcmp(argv[1], "from-json") == 0;
  if (!from_json && (argc < 5 || argc > 6)) {
    fprintf(stderr, "usage: query_c json|text|figures|check-json MESH FROM TO [DTYPE] | query_c from-json\n");
    return 2;
  }
  char err[256];
  redist_plan_t* plan = NULL;
  int rc;
  if (from_json) {
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    rc = redist_plan_from_json(text, &plan, err, sizeof err);
  } else if (strcmp(argv[1], "check-json") == 0) {
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    rc = redist_plan_check(argv[2], NULL, argv[3], argv[4], argc == 6 ? argv[5] : NULL, text, &plan, err, sizeof err);
  } else {
    rc = redist_plan_create(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL, &plan, err, sizeof err);
  }
  if (rc != REDIST_OK) {
    printf("code %d: %s\n", rc, err);
    return rc;
  }
  if (from_json || strcmp(argv[1], "json") == 0 || strcmp(argv[1], "check-json") == 0) {
    fputs(redist_plan_json(plan), stdout);
  } else if (strcmp(argv[1], "text") == 0) {
    fputs(redist_plan_text(plan), stdout);
  } else {
    printf("steps %zu peak %llu recv_max %llu lower_bound %llu src %llu dst %llu workspace %llu\n",
           redist_plan_num_steps(plan), (unsigned long long)redist_plan_peak_bytes(plan),
           (unsigned long long)redist_plan_recv_max_bytes(plan),
           (unsigned long long)redist_plan_lower_bound_recv_bytes(plan), (unsigned long long)redist_plan_src_bytes(plan),
           (unsigned long long)redist_plan_dst_bytes(plan), (unsigned long long)redist_plan_workspace_bytes(plan));
    for (size_t i = 0; redist_plan_step_text(plan, i) != NULL; ++i) printf("%s\n", redist_plan_step_text(plan, i));
    fputs(redist_plan_guarantees(plan), stdout);
  }
  redist_plan_free(plan);
  return 0;
}
