"""The Python suites' reporting: one TAP document per suite (tests/tap.py,
counted by tests/tap_count.sh), one result per test; a suite ends with
sys.exit(checks.end())."""
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tap import end, skip  # noqa: E402,F401  (the suites' end and skips)
import tap  # noqa: E402


def check(name, condition, detail=""):
    return tap.result(condition, name, detail)


def test(name):
    """Decorator: runs the function at once; it returns (passed, detail); an
    exception is a failure with its last line."""
    def run(fn):
        try:
            passed, detail = fn()
        except Exception as e:  # a crash of one test is that test's failure, not the suite's end
            passed, detail = False, "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc(limit=3))
        check(name, passed, detail)
        return fn
    return run


def one_line_error(fn, *words):
    """(passed, detail): fn() raises RedistError with one line naming every word."""
    import redist
    try:
        fn()
    except redist.RedistError as e:
        msg = str(e)
        return "\n" not in msg and all(w in msg for w in words), msg
    return False, "no RedistError raised"
