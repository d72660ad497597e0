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


def run_parts_on_ranks(parts, world):
    """An mpirun suite's main: each rank runs the parts (each appends
    (name, passed, detail) to a list; a crash is that part's failure), the
    ranks' lists are gathered over gloo (rendezvous in sys.argv[1]) and rank
    0 reports each test as passed where every rank passed it."""
    import datetime
    import torch.distributed as dist
    rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
    dist.init_process_group("gloo", init_method="file://" + sys.argv[1], rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))
    results = []
    for part in parts:
        try:
            part(results)
        except Exception as e:  # one part's crash is that part's failure; the others still run
            results.append(("%s on rank %d" % (part.__name__, rank), False, "%s: %s" % (type(e).__name__, e)))
    by_rank = [None] * world
    dist.all_gather_object(by_rank, results)
    if rank == 0:
        for i, (name, _, detail) in enumerate(by_rank[0]):
            passed = all(len(r) > i and r[i][1] for r in by_rank)
            check(name, passed, detail if passed else "; ".join(
                "rank %d: %s" % (k, r[i][2]) for k, r in enumerate(by_rank) if len(r) > i and not r[i][1]))
        check("every rank reported every test", len({len(r) for r in by_rank}) == 1)
    dist.barrier()
    dist.destroy_process_group()
    return end() if rank == 0 else 0
