"""The cost model's predicted time against measured time: per suite, the
Spearman rank correlation between the exchange's predicted time (the
`exchange` candidate of `redist plan --json`'s "cost", read as data) and the
exchange's measured median time (median over the given runs of bench/run.py).

    python bench/cost_rank.py RUN_DIR [RUN_DIR ...]
"""

import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import problems as P  # noqa: E402
from report import SUITES, load, measured  # noqa: E402

REDIST = os.path.join(os.path.dirname(HERE), "_build", "install", "default", "bin", "redist")


def ranks(xs):
    """Ranks 1..n, ties given their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx > 0 and sy > 0 else float("nan")


def main():
    runs = load(sys.argv[1:])
    measured_ms = {}
    for run in runs:
        for r in run["rows"]:
            if r["system"] == "redist_exch" and measured(r):
                measured_ms.setdefault(r["problem"], []).append(r["time_ms"])
    lines = [f"cost model: the exchange's predicted time against its measured median time "
             f"(median over {len(runs)} runs), Spearman rank correlation per suite"]
    every = []
    for suite in SUITES:
        pts = []
        for p in P.SUITES[suite]():
            if p["name"] not in measured_ms:
                continue
            out = subprocess.run([REDIST, "plan", "--json"] + gen.problem_args(p), capture_output=True, text=True,
                                 check=True).stdout
            exchange = next(c for c in json.loads(out)["cost"]["candidates"] if c["strategy"] == "exchange")
            pts.append((exchange["predicted_ns"] / 1e6, statistics.median(measured_ms[p["name"]])))
        if pts:
            rho = spearman([a for a, _ in pts], [b for _, b in pts])
            lines.append(f"  {suite:>10}: {len(pts):2d} problems, rho = {rho:+.2f}")
            every += pts
    lines.append(f"  {'all':>10}: {len(every):2d} problems, rho = {spearman(*zip(*every)):+.2f}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
