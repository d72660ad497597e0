"""The Python suites' reporting: one line "ok ..." or "FAIL ..." per test,
which tests/python/run.sh counts (tests/lib.sh's convention)."""
import sys
import traceback

failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print("ok    " + name + (": " + detail if detail else ""))
    else:
        failures += 1
        print("FAIL  " + name + (": " + detail if detail else ""))
    sys.stdout.flush()
    return condition


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
