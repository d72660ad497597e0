/* The C ABI's input limits (issue 24), each one case: plan files with many
 * via lines (64 accepted, the 65th refused by its line, 150,000 refused
 * before any recursion), a via line in a pending-sum plan, JSON nested
 * 200,000 deep and just past 64 levels, a report's wrong values named by
 * their field path, a report over 16 MiB, an axis name with a control
 * character in a struct.  Each is code 0 or code 2 with one line saying
 * what; one TAP result per case (tap.h); exit 0 when all pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"
#include "tap.h"

/* rc and err are the call's; expected NULL: code 0 expected. */
static void expect(const char* what, int rc, redist_plan_t* plan, const char* err, int code, const char* expected) {
  const int passed = rc == code && (code == REDIST_OK ? plan != NULL
                                                      : plan == NULL && strstr(err, expected) != NULL &&
                                                            strchr(err, '\n') == NULL);
  tap_result(passed, "%s: code %d%s%s", what, rc, rc ? ": " : "", rc ? err : "");
  redist_plan_free(plan);
}

/* `line` repeated n times (caller frees). */
static char* repeated(const char* line, size_t n) {
  const size_t len = strlen(line);
  char* text = malloc(len * n + 1);
  if (text == NULL) abort();
  for (size_t k = 0; k < n; ++k) memcpy(text + k * len, line, len);
  text[len * n] = '\0';
  return text;
}

static void check_lines(const char* what, const char* line, size_t n, const char* from, const char* to, int code,
                        const char* expected) {
  char err[512] = "";
  redist_plan_t* plan = NULL;
  char* text = repeated(line, n);
  const int rc = redist_plan_check("{x:2, y:3}", NULL, from, to, "f32", text, &plan, err, sizeof err);
  free(text);
  expect(what, rc, plan, err, code, expected);
}

static void from_json(const char* what, const char* json, int code, const char* expected) {
  char err[512] = "";
  redist_plan_t* plan = NULL;
  const int rc = redist_plan_from_json(json, &plan, err, sizeof err);
  expect(what, rc, plan, err, code, expected);
}

/* report with the value after the n-th occurrence (from 1) of `key` at or
 * after `after` replaced by `value` (caller frees). */
static char* edited(const char* report, const char* after, const char* key, int n, const char* value) {
  const char* at = strstr(report, after);
  for (int k = 0; at != NULL && k < n; ++k) at = strstr(k ? at + 1 : at, key);
  if (at == NULL) return NULL;
  const char* start = at + strlen(key);
  const char* end = start;
  if (*end == '"') end = strchr(end + 1, '"') + 1;
  else while (*end != ',' && *end != '}' && *end != '\n') ++end;
  char* out = malloc(strlen(report) + strlen(value) + 1);
  if (out == NULL) abort();
  sprintf(out, "%.*s%s%s", (int)(start - report), report, value, end);
  return out;
}

int main(void) {
  /* Plan files: via lines (through [3{x}6], a layout of the target mesh). */
  check_lines("64 via lines after an exchange each: a hybrid 64 deep", "exchange\nvia [3{x}6]\n", 64, "[2{y}6]",
              "[3{x}6]", REDIST_OK, NULL);
  check_lines("65 via lines", "exchange\nvia [3{x}6]\n", 65, "[2{y}6]", "[3{x}6]", REDIST_ERR_BAD_INPUT,
              "--plan: line 130: more than 64 via lines");
  check_lines("150,000 via lines (issue 24: SIGSEGV)", "via [6]\n", 150000, "[6]", "[6]", REDIST_ERR_BAD_INPUT,
              "--plan: line 65: more than 64 via lines");
  check_lines("a via line in a plan for pending sums", "via [6]\n", 1, "[6]", "[6] sum{x}", REDIST_ERR_BAD_INPUT,
              "--plan: line 1: a plan for pending sums takes no via line");

  /* JSON: nesting. */
  char* deep = repeated("[", 200000);
  from_json("200,000 nested brackets (issue 24: SIGSEGV)", deep, REDIST_ERR_BAD_INPUT,
            "plan JSON: nested deeper than 64 levels at line 1, column 65");
  deep[64] = '\0';
  char nested[256];
  snprintf(nested, sizeof nested, "%s%s", deep, "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
  from_json("64 nested arrays: read, then not a report", nested, REDIST_ERR_BAD_INPUT,
            "plan JSON: the document: expected an object");
  free(deep);

  /* A report's values: wrong types named by their path; a missing field. */
  redist_plan_t* plan = NULL;
  char err[512] = "";
  if (redist_plan_create_with("{a:3, b:6}", NULL, "[2{a}6]", "[1{b}6]", "u8", "collectives", &plan, err, sizeof err)) {
    tap_result(0, "planning the report's problem: %s", err);
    return tap_end();
  }
  const char* report = redist_plan_json(plan);
  from_json("the report as it is", report, REDIST_OK, NULL);
  struct {
    const char *what, *after, *key;
    int n;
    const char *value, *expected;
  } cases[] = {
      {"a step's text a number", "\"steps\"", "\"text\": ", 2, "3", "plan JSON: steps[1].text: expected a string"},
      {"an axis size a string", "\"source_mesh\"", "\"size\": ", 2, "\"x\"",
       "plan JSON: source_mesh.axes[1].size: expected an integer"},
      {"an axis size past 2^62", "\"target_mesh\"", "\"size\": ", 1, "99999999999999999999",
       "plan JSON: target_mesh.axes[0].size: expected an integer"},
      {"a rank a string", "\"source_mesh\"", "\"ranks\": [ ", 1, "\"0\"",
       "plan JSON: source_mesh.ranks[0]: expected an integer"},
      {"refine an object", "\"refine\"", "\"refine\": ", 1, "{}", "plan JSON: refine: expected an array"},
      {"a step an array", "\"steps\"", "[", 1, "[\"all_gather(0)\"], ", "plan JSON: steps[0]: expected an object"},
      {"target a number", "\"target\": ", "\"target\": ", 1, "1, \"no_target\": \"\"", "plan JSON: target: expected a string"},
      {"dtype null", "\"dtype\"", "\"dtype\": ", 1, "null", "plan JSON: dtype: expected a string"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    char* json = edited(report, cases[c].after, cases[c].key, cases[c].n, cases[c].value);
    if (json == NULL) {
      tap_result(0, "%s: no %s in the report", cases[c].what, cases[c].key);
      continue;
    }
    from_json(cases[c].what, json, REDIST_ERR_BAD_INPUT, cases[c].expected);
    free(json);
  }
  char* renamed = malloc(strlen(report) + 1);
  if (renamed == NULL) abort();
  strcpy(renamed, report);
  strstr(renamed, "\"target\": ")[1] = 'T';
  from_json("the field target renamed", renamed, REDIST_ERR_BAD_INPUT, "plan JSON: no field target");
  free(renamed);
  redist_plan_free(plan);

  /* A report padded past 16 MiB with spaces. */
  char* big = repeated(" ", (16u << 20) + 1);
  big[0] = '{';
  big[(16u << 20)] = '}';
  from_json("a report of 16 MiB and 1 byte", big, REDIST_ERR_BAD_INPUT,
            "plan JSON: longer than 16777216 bytes (16 MiB), the limit for a report");
  free(big);

  /* Structs: an axis name with a newline would break the one-line message. */
  const char* names[] = {"x\ny"};
  const int sizes[] = {2};
  const redist_mesh_t mesh = {1, names, sizes, NULL};
  const uint64_t four[] = {4};
  const int none[] = {0};
  const int no_axes[][REDIST_MAX_DIMS] = {{0}};
  const redist_layout_t layout = {1, four, none, no_axes};
  plan = NULL;
  const int rc = redist_plan_create_from(&mesh, NULL, &layout, &layout, NULL, NULL, &plan, err, sizeof err);
  expect("an axis name with a newline", rc, plan, err, REDIST_ERR_BAD_INPUT,
         "redist_plan_create_from: mesh: axis_names[0] holds a control character");
  return tap_end();
}
