/* redist_plan_create, the box queries, redist_plan_sum_receives and
 * redist_plan_free from 4 threads at once (the C ABI serializes OCaml's
 * runtime behind one mutex): every plan's JSON, boxes and (the reducing
 * exchange's) contributions must equal those made by one thread first.  Prints
 * "N plans from T threads equal the serial ones" or what differs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

enum { problems = 6, threads = 4, rounds = 25 };
static const char* const kProblems[problems][3] = {
    {"{x:2, y:3}", "[3{x}6]", "[2{y}6]"},
    {"{x:2, y:4}", "[16{x}32, 64{y}256]", "[8{y}32, 128{x}256]"},
    {"{a:3, b:6}", "[2{a}6]", "[1{b}6]"},
    {"{a:2, b:2, c:2}", "[{a,b}8, {c}4]", "[{c}8, {b,a}4]"},
    {"{x:2, y:3}", "[{x}6, 12] sum{y}", "[{x}6, {y}12]"},
    {"{x:2, y:3}", "[7, 5] sum{x}", "[{y}7, 5]"}};
static char* serial_json[problems];
static size_t serial_box[problems][2];
static size_t serial_contributions[problems];

/* The number of contributions rank 0 adds up (0 for a plan that is not the reducing exchange). */
static size_t contributions(const redist_plan_t* plan) {
  char err[256];
  size_t count = 0;
  int designated = 0, group = 0;
  if (redist_plan_by_exchange(plan) != 2 ||
      redist_plan_sum_receives(plan, 0, NULL, 0, &count, &designated, &group, err, sizeof err) != REDIST_OK)
    return 0;
  return count;
}

static int check(int p) {
  char err[256];
  redist_plan_t* plan = NULL;
  if (redist_plan_create(kProblems[p][0], kProblems[p][1], kProblems[p][2], "f32", &plan, err, sizeof err) != REDIST_OK)
    return 1;
  size_t off[8], ext[8];
  const int last = redist_plan_devices(plan) - 1;
  int wrong = strcmp(redist_plan_json(plan), serial_json[p]) != 0 ||
              redist_plan_tgt_box(plan, last, off, ext, err, sizeof err) != REDIST_OK ||
              off[0] != serial_box[p][0] || ext[0] != serial_box[p][1] ||
              contributions(plan) != serial_contributions[p];
  redist_plan_free(plan);
  return wrong;
}

static void* worker(void* arg) {
  const int id = *(const int*)arg;
  long wrong = 0;
  for (int r = 0; r < rounds; ++r) wrong += check((r + id) % problems);
  return (void*)wrong;
}

int main(void) {
  char err[256];
  for (int p = 0; p < problems; ++p) {
    redist_plan_t* plan = NULL;
    if (redist_plan_create(kProblems[p][0], kProblems[p][1], kProblems[p][2], "f32", &plan, err, sizeof err) != REDIST_OK) {
      printf("redist_plan_create: %s\n", err);
      return 1;
    }
    serial_json[p] = malloc(strlen(redist_plan_json(plan)) + 1);
    strcpy(serial_json[p], redist_plan_json(plan));
    size_t off[8], ext[8];
    redist_plan_tgt_box(plan, redist_plan_devices(plan) - 1, off, ext, err, sizeof err);
    serial_box[p][0] = off[0];
    serial_box[p][1] = ext[0];
    serial_contributions[p] = contributions(plan);
    redist_plan_free(plan);
  }
  pthread_t tid[threads];
  int ids[threads];
  for (int t = 0; t < threads; ++t) {
    ids[t] = t;
    pthread_create(&tid[t], NULL, worker, &ids[t]);
  }
  long wrong = 0;
  for (int t = 0; t < threads; ++t) {
    void* result;
    pthread_join(tid[t], &result);
    wrong += (long)result;
  }
  if (wrong == 0) printf("%d plans from %d threads equal the serial ones\n", threads * rounds, threads);
  else printf("FAILED: %ld of %d plans from %d threads differ\n", wrong, threads * rounds, threads);
  for (int p = 0; p < problems; ++p) free(serial_json[p]);
  return wrong != 0;
}
