/* The tests' one protocol, TAP 13 (counted by tests/tap_count.sh), for the
 * C ABI's test programs that report case by case: the header before the
 * first result, "ok N - WHAT" or "not ok N - WHAT", the plan at the end. */
#ifndef REDIST_TESTS_TAP_H
#define REDIST_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_number = 0, tap_failures = 0;

/* One test, described by a printf format; returns passed. */
static inline int tap_result(int passed, const char* fmt, ...) {
  va_list args;
  if (tap_number == 0) printf("TAP version 13\n");
  printf("%s %d - ", passed ? "ok" : "not ok", ++tap_number);
  va_start(args, fmt);
  vprintf(fmt, args);
  va_end(args);
  printf("\n");
  fflush(stdout);
  tap_failures += !passed;
  return passed;
}

/* Prints the plan; the exit status: 1 if any test failed. */
static inline int tap_end(void) {
  printf("1..%d\n", tap_number);
  fflush(stdout);
  return tap_failures ? 1 : 0;
}

#endif
