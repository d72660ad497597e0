"""The cost model against the measurements: auto's choice and every
candidate it weighed (`redist plan --json`'s cost.candidates under the
profile `redist calibrate` measured in the same run, saved by bench/run.py
in run.json with each candidate's measured time).

Per run: how often auto's pick was the measured-fastest candidate and its
time over the fastest candidate's, on the problems with more than one
candidate; the Spearman rank correlation of predicted against measured
time over all candidates of each suite; then, per problem, every
candidate's prediction and its measured median over the runs.

    python bench/cost_rank.py RUN_DIR [RUN_DIR ...]
"""

import statistics
import sys

from report import SUITES, gmean, load, span


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


def by_problem(run):
    """{problem: its candidates}, only where every candidate was measured and verified."""
    out = {}
    for c in run["candidates"]:
        out.setdefault(c["problem"], []).append(c)
    return {n: cs for n, cs in out.items() if all(c["ok"] and c["time_ms"] > 0 for c in cs)}


def suite_of(run):
    return {r["problem"]: r["suite"] for r in run["rows"] + run.get("sum_rows", [])}


def choice_lines(runs):
    fastest, within, tied, over, count = [], [], [], [], []
    for run in runs:
        several = [cs for cs in by_problem(run).values() if len(cs) > 1]
        picks = [(next(c for c in cs if c["verdict"] == "chosen"), min(cs, key=lambda c: c["time_ms"]))
                 for cs in several]
        ratios = [pick["time_ms"] / best["time_ms"] for pick, best in picks]
        count.append(len(several))
        fastest.append(sum(x <= 1.0 for x in ratios) / len(ratios))
        within.append(sum(x <= 1.1 for x in ratios) / len(ratios))
        tied.append(sum(pick is not best and pick["predicted_ns"] == best["predicted_ns"] for pick, best in picks))
        over.append((gmean(ratios), max(ratios)))
    pct = "{:.0%}"
    return [f"auto's choice against every candidate it weighed, on the {span(count, '{:.0f}')} problems with more "
            f"than one (min / median / max over {len(runs)} runs; times are medians of the repetitions):",
            f"  auto's pick was the measured-fastest candidate: {span(fastest, pct)}; within 10% of it: "
            f"{span(within, pct)}; of the other picks, {span(tied, '{:.0f}')} predicted the same time as the "
            f"measured-fastest (the same messages: the model cannot tell them apart)",
            f"  auto's time / the fastest candidate's: geomean {span([g for g, _ in over], '{:.2f}x')}, "
            f"worst {span([m for _, m in over], '{:.2f}x')}"]


def rank_lines(runs):
    lines = ["predicted against measured time over all candidates, Spearman rank correlation per suite "
             "(min / median / max over runs):"]
    for suite in SUITES + ["all"]:
        rhos, counts = [], []
        for run in runs:
            where = suite_of(run)
            pts = [(c["predicted_ns"], c["time_ms"]) for n, cs in by_problem(run).items() for c in cs
                   if suite in ("all", where[n])]
            if len(pts) > 2:
                rhos.append(spearman(*zip(*pts)))
                counts.append(len(pts))
        if rhos:
            lines.append(f"  {suite:>10}: {span(counts, '{:.0f}'):>3} candidates, rho = {span(rhos, '{:+.2f}')}")
    return lines


def problem_lines(runs):
    lines = ["per problem, each candidate: predicted (us), measured median over runs (ms), live bytes, "
             "the system row that measured it; * = auto's pick, + = measured fastest (median over runs)"]
    times = {}
    for run in runs:
        for c in run["candidates"]:
            if c["ok"] and c["time_ms"] > 0:
                times.setdefault((c["problem"], c["index"]), []).append(c["time_ms"])
    last = {}
    for c in runs[-1]["candidates"]:
        last.setdefault(c["problem"], []).append(c)
    for n, cs in last.items():
        med = {c["index"]: statistics.median(times[(n, c["index"])]) for c in cs if (n, c["index"]) in times}
        best = min(med, key=med.get) if med else None
        lines.append(f"  {n}")
        for c in cs:
            mark = ("*" if c["verdict"] == "chosen" else " ") + ("+" if c["index"] == best else " ")
            m = f"{med[c['index']]:9.3f}" if c["index"] in med else "      n/a"
            lines.append(f"    {mark} {c['predicted_ns'] / 1e3:10.1f} {m} {c['live_bytes']:>10} {c['system']:<12} "
                         f"{c['plan'][:90]}")
    return lines


def main():
    runs = load(sys.argv[1:])
    print("\n".join(choice_lines(runs) + [""] + rank_lines(runs) + [""] + problem_lines(runs)))


if __name__ == "__main__":
    main()
