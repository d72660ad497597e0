"""The tests' one protocol, TAP 13 (tests/tap_count.sh counts it), for the
Python runners: one document per process, its header printed before the
first result, its plan by end()."""
import sys

_number = 0
failures = 0


def _numbered(status, what):
    global _number
    if _number == 0:
        print("TAP version 13")
    _number += 1
    print("%s %d - %s" % (status, _number, what))


def result(passed, what, detail=""):
    """One test: "ok N - WHAT" or "not ok N - WHAT", DETAIL below it as
    comment lines; returns passed."""
    global failures
    if not passed:
        failures += 1
    _numbered("ok" if passed else "not ok", what)
    for line in str(detail).splitlines():
        print("# " + line)
    sys.stdout.flush()
    return passed


def skip(what, why):
    """A test not run here: "ok N - WHAT # SKIP WHY" (counted as skipped)."""
    _numbered("ok", what + " # SKIP " + why)
    sys.stdout.flush()


def end():
    """Prints the plan; the exit status: 1 if any test failed."""
    print("1..%d" % _number, flush=True)
    return 1 if failures else 0
