/* One property over 20,000 inputs: redist_plan_create_with on random
 * mutations of valid problems, pending sums among them (bytes replaced,
 * inserted, deleted, fields swapped; fixed seed) returns 0 with a plan whose JSON is non-empty, or
 * code 2 with one non-empty line, never another code, a crash or a hang.
 * Prints "N inputs: A planned, B refused (code 2)" or the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

enum { inputs = 20000, field_len = 96 };

static const char* const kSeeds[][6] = {
    {"{x:2, y:3}", "", "[3{x}6]", "[2{y}6]", "f32", "auto"},
    {"{x:2, y:4}", "", "[16{x}32, 64{y}256]", "[8{y}32, 128{x}256]", "bf16", "collectives"},
    {"{x:4}", "{y:2} @ 6", "[{x}10, 3]", "[{y}10, 3]", "i64", "exchange"},
    {"{a:2, b:2}", "{p:3} @ [6, 0, 3]", "f32[{a}9, {b}4]", "[{p}9, 4]", "", ""},
    {"{a:3, b:6}", "", "[2{a}6]", "[1{b}6]", "c128", "auto"},
    /* pending sums: by the collectives, by the reducing exchange */
    {"{x:2, y:3}", "", "[{x}6, 12] sum{y}", "[{x}6, {y}12]", "i32", "auto"},
    {"{x:2, y:2, z:2}", "", "[8, 4] sum{x,z}", "[8, {y}4] sum{z}", "u16", "collectives"},
    {"{x:2, y:2}", "{p:3} @ [1, 2, 3]", "[{x}5, 3] sum{y}", "[{p}5, 3]", "f32", ""}};
static const char kAlphabet[] = "{}[],:@ 0123456789xyabp.f#-sum";

static unsigned long long rng = 7;
static unsigned next(unsigned n) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(rng >> 33) % n;
}

static void mutate(char* s) {
  size_t len = strlen(s);
  for (unsigned k = next(4); k > 0; --k) {
    const unsigned what = next(3);
    const char c = kAlphabet[next(sizeof kAlphabet - 1)];
    if (what == 0 && len > 0) s[next((unsigned)len)] = c;
    else if (what == 1 && len + 1 < field_len) {
      const size_t at = next((unsigned)len + 1);
      memmove(s + at + 1, s + at, len - at + 1);
      s[at] = c;
      ++len;
    } else if (len > 0) {
      const size_t at = next((unsigned)len);
      memmove(s + at, s + at + 1, len - at);
      --len;
    }
  }
}

int main(void) {
  int planned = 0, refused = 0;
  char err[512], f[6][field_len];
  for (int i = 0; i < inputs; ++i) {
    const unsigned seed = next(sizeof kSeeds / sizeof kSeeds[0]);
    for (int k = 0; k < 6; ++k) {
      snprintf(f[k], field_len, "%s", kSeeds[seed][k]);
      if (next(3) == 0) mutate(f[k]);
    }
    if (next(8) == 0) {  /* a field from another seed */
      const unsigned k = next(6);
      snprintf(f[k], field_len, "%s", kSeeds[next(sizeof kSeeds / sizeof kSeeds[0])][k]);
    }
    redist_plan_t* plan = NULL;
    err[0] = '\0';
    const int rc = redist_plan_create_with(f[0], f[1][0] ? f[1] : NULL, f[2], f[3], f[4][0] ? f[4] : NULL,
                                           f[5][0] ? f[5] : NULL, &plan, err, sizeof err);
    if (rc == REDIST_OK && plan != NULL && redist_plan_json(plan)[0] == '{') ++planned;
    else if (rc == REDIST_ERR_BAD_INPUT && plan == NULL && err[0] != '\0' && strchr(err, '\n') == NULL) ++refused;
    else {
      printf("FAILED on input %d: mesh '%s' to_mesh '%s' from '%s' to '%s' dtype '%s' strategy '%s': code %d: %s\n",
             i, f[0], f[1], f[2], f[3], f[4], f[5], rc, err);
      return 1;
    }
    redist_plan_free(plan);
  }
  printf("%d inputs: %d planned, %d refused (code 2)\n", inputs, planned, refused);
  return 0;
}
