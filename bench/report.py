"""The benchmark's report over one or more runs of bench/run.py: the goal
(redist auto no slower than each other system on at least 90% of the problems
both express, at no more memory, within 2x of the floor on large arrays),
each with its range over the runs, time over the floor per suite and system,
issue 30's goals for single copy on a host and the split phase's overlap,
and the plots (summary.txt and *.png); for the problems with pending sums,
the table sums.md (and sums.json).

    python bench/report.py RUN_DIR [RUN_DIR ...] --out DIR
"""

import argparse
import json
import math
import os
import statistics
import sys

# "redist" is `--strategy auto`: it runs the header of the strategy it
# chose, so its row is that strategy's row (run.auto_rows).
# redist_shm and redist_exch_shm: auto's choice and the exchange again on
# arrays from shared_alloc (single copy on a host); they have their own
# lines (single_copy_lines), not the baselines' comparison.
SHM_SYSTEMS = ["redist_shm", "redist_exch_shm"]
SYSTEMS = ["redist", "redist_coll", "redist_exch", *SHM_SYSTEMS, "gather_all", "xla", "dtensor", "alltoallv",
           "scalapack", "fftw"]
BASELINES = [s for s in SYSTEMS[1:] if s not in SHM_SYSTEMS]
# The systems that are not redist's, which auto with single copy must beat.
PEERS = ["gather_all", "xla", "dtensor", "alltoallv", "scalapack", "fftw"]
SUITES = ["random", "hard", "uneven", "cross-mesh", "large", "scale"]
# The pending sums' table: the copies (alltoallv, ScaLAPACK, FFTW) do not
# add, plain MPI's reduction does.
SUM_SYSTEMS = ["redist", "mpi_rs", "xla", "dtensor"]
GOAL_SHARE, GOAL_FLOOR = 0.9, 2.0
# Issue 30's goals, with single copy: every large problem within 1.3x of the
# copy floor measured beside it, auto no slower than every peer on 95% of
# the problems, and the split phase hiding 80% of the exchange behind a
# compute kernel of equal length.
SHM_GOAL_FLOOR, SHM_GOAL_SHARE, SHM_GOAL_HIDDEN = 1.3, 0.95, 0.8


def load(run_dirs):
    runs = []
    for d in run_dirs:
        with open(os.path.join(d, "run.json")) as f:
            runs.append(json.load(f))
    return runs


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def measured(r):
    return r is not None and r["ok"] and r["time_ms"] > 0


def span(xs, fmt="{:.2f}"):
    """min / median / max of a list, or the one value."""
    xs = sorted(x for x in xs if not math.isnan(x))
    if not xs:
        return "-"
    if len(xs) == 1 or xs[0] == xs[-1]:
        return fmt.format(xs[0])
    return f"{fmt.format(xs[0])} / {fmt.format(statistics.median(xs))} / {fmt.format(xs[-1])}"


def by_key(run):
    return {(r["problem"], r["system"]): r for r in run["rows"]}


def goal_lines(runs):
    lines = ["redist auto against each system, on the problems both run and verify (min / median / max over "
             f"{len(runs)} run{'s' if len(runs) > 1 else ''}; time = median of the repetitions, best = their minimum):",
             f"{'system':>12} {'problems':>8}  {'auto no slower':>22}  {'same, best-of times':>22}  "
             f"{'geomean other/auto time':>24}  {'auto no more memory':>20}"]
    for b in BASELINES:
        count, slower_share, best_share, speed, mem_share = [], [], [], [], []
        for run in runs:
            by = by_key(run)
            pairs = [(by[(n, "redist")], r) for (n, s), r in by.items()
                     if s == b and measured(r) and measured(by.get((n, "redist")))]
            if not pairs:
                continue
            count.append(len(pairs))
            slower_share.append(sum(a["time_ms"] <= o["time_ms"] for a, o in pairs) / len(pairs))
            best_share.append(sum(a["min_ms"] <= o["min_ms"] for a, o in pairs) / len(pairs))
            speed.append(gmean([o["time_ms"] / a["time_ms"] for a, o in pairs]))
            mems = [(a, o) for a, o in pairs if a["peak_bytes"] > 0 and o["peak_bytes"] > 0]
            if mems:
                mem_share.append(sum(a["peak_bytes"] <= o["peak_bytes"] for a, o in mems) / len(mems))
        if not count:
            lines.append(f"{b:>12} {'0':>8}  (nothing comparable)")
            continue
        pct = "{:.0%}"
        lines.append(f"{b:>12} {span(count, '{:.0f}'):>8}  {span(slower_share, pct):>22}  {span(best_share, pct):>22}  "
                     f"{span(speed, '{:.2f}x'):>24}  {span(mem_share, pct):>20}")
    return lines


def floor_lines(runs):
    lines = ["time / floor (geomean over the suite's problems of median time / floor; min / median / max over runs):",
             f"{'suite':>10} " + " ".join(f"{s:>19}" for s in SYSTEMS)]
    for suite in [s for s in SUITES if any(r["suite"] == s for r in runs[-1]["rows"])]:
        cells = []
        for s in SYSTEMS:
            per_run = [gmean([r["time_over_floor"] for r in run["rows"]
                              if r["suite"] == suite and r["system"] == s and measured(r)]) for run in runs]
            cells.append(span(per_run, "{:.1f}"))
        lines.append(f"{suite:>10} " + " ".join(f"{c:>19}" for c in cells))
    return lines


def large_lines(runs):
    lines = [f"large arrays, redist auto's time / floor (goal: within {GOAL_FLOOR:.0f}x; median time, and best time; "
             "min / median / max over runs):"]
    names = [r["problem"] for r in runs[0]["rows"] if r["suite"] == "large" and r["system"] == "redist"]
    for n in names:
        rows = [by_key(run).get((n, "redist")) for run in runs]
        rows = [r for r in rows if measured(r)]
        med = [r["time_over_floor"] for r in rows]
        best = [r["min_ms"] / r["floor_ms"] for r in rows]
        within = sum(x <= GOAL_FLOOR for x in med)
        beside = [r["time_ms"] / r["copy_floor_ms"] for r in rows]
        best_beside = [r["min_ms"] / r["copy_floor_min_ms"] for r in rows]
        lines.append(f"  {n:>20}: {span(med):>20} (best {span(best)}; over the copy floor measured beside it "
                     f"{span(beside)}, best {span(best_beside)}); floor {span([r['floor_ms'] for r in rows])} ms, "
                     f"beside {span([r['copy_floor_ms'] for r in rows])} ms; "
                     f"within {GOAL_FLOOR:.0f}x in {within} of {len(rows)} runs; {rows[0]['note'] if rows else ''}")
    return lines


def single_copy_lines(runs):
    """Issue 30's goals: single copy (redist_shm: auto's choice on arrays
    from shared_alloc) against the copy floor measured beside it on the
    large problems, against every peer on every problem, and the overlap
    of the split phase on the large problems; ranges over the runs."""
    n_runs = len(runs)
    lines = [f"single copy on a host (arrays from shared_alloc; min / median / max over {n_runs} "
             f"run{'s' if n_runs > 1 else ''}):"]
    names = [r["problem"] for r in runs[0]["rows"] if r["suite"] == "large" and r["system"] == "redist_shm"]
    if names:
        lines += [f"  large problems, median time / copy floor measured beside it (goal: within {SHM_GOAL_FLOOR}x on "
                  "every one):",
                  f"  {'problem':>20} {'redist_shm':>20} {'redist_exch_shm':>20} {'redist (today)':>20}"]
    within_per_run = [True] * n_runs
    for n in names:
        cells = []
        for system in ("redist_shm", "redist_exch_shm", "redist"):
            ratios = []
            for k, run in enumerate(runs):
                r = by_key(run).get((n, system))
                ratio = r["time_ms"] / r["copy_floor_ms"] if measured(r) else float("inf")
                if system == "redist_shm":
                    within_per_run[k] = within_per_run[k] and ratio <= SHM_GOAL_FLOOR
                if measured(r):
                    ratios.append(ratio)
            cells.append(span(ratios))
        lines.append(f"  {n:>20} " + " ".join(f"{c:>20}" for c in cells))
    if names:
        lines.append(f"  within {SHM_GOAL_FLOOR}x of the copy floor on every large problem: holds in "
                     f"{sum(within_per_run)} of {n_runs} runs")
    shares, counts = [], []
    for run in runs:
        by = by_key(run)
        problems = [n for (n, s), r in by.items() if s == "redist_shm" and measured(r)
                    and any(measured(by.get((n, b))) for b in PEERS)]
        if not problems:
            continue
        wins = sum(all(by[(n, "redist_shm")]["time_ms"] <= by[(n, b)]["time_ms"]
                       for b in PEERS if measured(by.get((n, b)))) for n in problems)
        shares.append(wins / len(problems))
        counts.append(len(problems))
    if shares:
        lines.append(f"  auto with single copy no slower than every peer ({', '.join(PEERS)}) that runs the problem: "
                     f"{span(shares, '{:.0%}')} of {span(counts, '{:.0f}')} problems (goal {SHM_GOAL_SHARE:.0%}: holds in "
                     f"{sum(x >= SHM_GOAL_SHARE for x in shares)} of {len(shares)} runs)")
    overlap = [o for run in runs for o in run.get("overlap", [])]
    if overlap:
        lines.append(f"  overlap on the large problems: a compute kernel as long as the exchange alone between "
                     f"start and wait, hidden = (t_exchange + t_compute - t_pair) / min of the two (goal: "
                     f">= {SHM_GOAL_HIDDEN:.0%}); median per run:")
        for n in dict.fromkeys(o["overlap"] for o in overlap):
            for arrays in dict.fromkeys(o["arrays"] for o in overlap):
                mine = [o for o in overlap if o["overlap"] == n and o["arrays"] == arrays]
                if not mine:
                    continue
                wrong = "" if all(o["ok"] for o in mine) else "  WRONG ELEMENTS"
                lines.append(f"  {n:>20} {arrays:>12}: hidden {span([o['hidden'] for o in mine], '{:.0%}')}, "
                             f"t_exchange {span([o['t_exchange_ms'] for o in mine])} ms, t_compute "
                             f"{span([o['t_compute_ms'] for o in mine])} ms, t_pair {span([o['t_pair_ms'] for o in mine])}"
                             f" ms; >= {SHM_GOAL_HIDDEN:.0%} in {sum(o['hidden'] >= SHM_GOAL_HIDDEN for o in mine)} of "
                             f"{len(mine)} runs{wrong}")
    return lines


def shortfall_lines(runs):
    """Problems where auto is slower than some system in most runs."""
    lines = ["where redist auto is slower in most runs (other system's median time / auto's per run):"]
    names = list(dict.fromkeys(r["problem"] for r in runs[0]["rows"]))
    for n in names:
        for b in BASELINES:
            ratios = []
            for run in runs:
                by = by_key(run)
                a, o = by.get((n, "redist")), by.get((n, b))
                if measured(a) and measured(o):
                    ratios.append(o["time_ms"] / a["time_ms"])
            if ratios and sum(x < 1 for x in ratios) * 2 > len(ratios):
                lines.append(f"  {n:>20} vs {b:<12} {' '.join(f'{x:.2f}' for x in ratios)}")
    return lines


def misc_lines(runs):
    lines = []
    last = runs[-1]["rows"]
    auto = [r for r in last if r["system"] == "redist" and r["ok"]]
    over_lb = [r["recv_max"] / r["lower_bound_recv_max"] for r in auto if r["lower_bound_recv_max"] > 0]
    chose = {}
    for r in auto:
        chose[r["note"]] = chose.get(r["note"], 0) + 1
    lines.append(f"redist auto: {', '.join(f'{k} on {v}' for k, v in sorted(chose.items()))}; busiest-rank traffic / "
                 f"lower bound: geomean {gmean(over_lb):.2f}x, max {max(over_lb, default=float('nan')):.2f}x")
    na = {}
    for r in last:
        if r["time_ms"] <= 0:
            na.setdefault((r["system"], r.get("note", "")), []).append(r["problem"])
    lines.append("not run (n/a) per system and why:")
    for (s, note), ps in sorted(na.items()):
        lines.append(f"  {s:>12}: {len(ps):2d} problems: {note}")
    wrong = sorted({f"{r['problem']}/{r['system']}" for run in runs for r in run["rows"]
                    if not r["ok"] and r["time_ms"] > 0})
    lines.append("results: " + ("every measured result checked element by element on every rank and correct"
                                if not wrong else "WRONG: " + ", ".join(wrong)))
    return lines


def header_lines(runs):
    lines = []
    for i, run in enumerate(runs, 1):
        m = run["meta"]
        bw = ", ".join(f"{w} ranks {b / 1e9:.1f}" for w, b in sorted(m.get("copy_bandwidth", {}).items(),
                                                                     key=lambda kv: int(kv[0])))
        lines.append(f"run {i}: {m['when']}, {m['machine']}, {m['problems']} problems, median of {m['reps']} "
                     f"repetitions, {m['wall_s']} s; copy bandwidth (GB/s) {bw}")
        lines.append(f"       load: {m['uptime_start'].split('load average:')[-1].strip()} at the start, "
                     f"{m['uptime_end'].split('load average:')[-1].strip()} at the end (1/5/15 min); per phase "
                     + ", ".join(f"{k} {a}/{b}" for k, (a, b) in m["load"].items()))
    return lines


def median_rows(runs):
    """Per (problem, system): the median over runs of time_ms and of
    time_over_floor (each run has its own floor), and the row of the last run
    for everything that does not change between runs."""
    out = {}
    for key, r in by_key(runs[-1]).items():
        got = [by_key(run)[key] for run in runs if measured(by_key(run).get(key))]
        out[key] = dict(r, time_ms=statistics.median(g["time_ms"] for g in got) if got else -1,
                        time_over_floor=statistics.median(g["time_over_floor"] for g in got) if got else -1)
    return out


def plots(runs, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    rows = median_rows(runs)
    names = list(dict.fromkeys(r["problem"] for r in runs[-1]["rows"]))
    suite_of = {r["problem"]: r["suite"] for r in runs[-1]["rows"]}
    colors = {s: plt.get_cmap("tab10")(i) for i, s in enumerate(SYSTEMS)}

    # time over floor per system, one point per problem, by suite
    fig, ax = plt.subplots(figsize=(12, 5))
    markers = dict(zip(SUITES, "o^sDvP"))
    for k, s in enumerate(SYSTEMS):
        for j, suite in enumerate(SUITES):
            ys = [rows[(n, s)]["time_over_floor"] for n in names
                  if suite_of[n] == suite and measured(rows.get((n, s))) and rows[(n, s)]["time_over_floor"] > 0]
            xs = [k + (j - 2.5) * 0.12] * len(ys)
            ax.scatter(xs, ys, s=14, marker=markers[suite], color=colors[s], label=suite if k == 0 else None)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(GOAL_FLOOR, color="gray", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(SYSTEMS)))
    ax.set_xticklabels(SYSTEMS)
    ax.set_yscale("log")
    ax.set_ylabel("median time / floor (floor = target bytes / copy bandwidth)")
    ax.legend(fontsize=8, title="suite (marker)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "time_over_floor.png"), dpi=110)
    plt.close(fig)

    # memory against time, each problem a panel, each system a point
    cols = 8
    nrows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(2.4 * cols, 2.1 * nrows))
    for ax, n in zip(axes.flat, names):
        # auto last and larger: it sits on the point of the strategy it runs
        for s in BASELINES + ["redist"]:
            r = rows.get((n, s))
            if measured(r) and r["peak_bytes"] > 0:
                auto = s == "redist"
                ax.scatter(r["time_ms"], r["peak_bytes"] / 2**20, color=colors[s], s=70 if auto else 18,
                           marker="*" if auto else "o", edgecolors="black" if auto else "none", zorder=3 if auto else 2)
        ax.set_title(n, fontsize=7)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.tick_params(labelsize=5)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    handles = [plt.Line2D([], [], marker="*" if s == "redist" else "o", linestyle="", color=colors[s],
                          label="redist (auto)" if s == "redist" else s) for s in SYSTEMS]
    fig.legend(handles=handles, loc="lower right", fontsize=8, ncol=3)
    fig.supxlabel("median time (ms)")
    fig.supylabel("peak memory of the largest rank (MiB)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "memory_time.png"), dpi=100)
    plt.close(fig)

    # each system's time and memory relative to redist auto's, all problems
    fig, ax = plt.subplots(figsize=(7, 6))
    for s in BASELINES:
        pts = [(rows[(n, s)]["time_ms"] / rows[(n, "redist")]["time_ms"],
                rows[(n, s)]["peak_bytes"] / rows[(n, "redist")]["peak_bytes"]) for n in names
               if measured(rows.get((n, s))) and measured(rows.get((n, "redist")))
               and rows[(n, s)]["peak_bytes"] > 0 and rows[(n, "redist")]["peak_bytes"] > 0]
        if pts:
            ax.scatter(*zip(*pts), s=14, color=colors[s], label=s)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time / redist auto's time (right of 1: auto is faster)")
    ax.set_ylabel("peak memory / redist auto's (above 1: auto holds less)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "memory_time_relative.png"), dpi=110)
    plt.close(fig)

    budget_plot(runs, out_dir, plt, colors)

    # per problem, each system's median time over auto's
    fig, ax = plt.subplots(figsize=(max(10, 0.3 * len(names)), 4.8))
    width = 0.8 / len(BASELINES)
    for k, b in enumerate(BASELINES):
        xs, ys = [], []
        for i, n in enumerate(names):
            r, mine = rows.get((n, b)), rows.get((n, "redist"))
            if measured(r) and measured(mine):
                xs.append(i + (k - len(BASELINES) / 2 + 0.5) * width)
                ys.append(r["time_ms"] / mine["time_ms"])
        ax.bar(xs, ys, width, label=b, color=colors[b])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=75, ha="right", fontsize=6)
    ax.set_ylabel("system's time / redist auto's time")
    ax.legend(fontsize=7, ncol=4)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "speedup.png"), dpi=110)
    plt.close(fig)


BUDGET_SUITES = ["large", "hard"]


def candidate_medians(runs):
    """{(problem, candidate index): (median time over runs, median measured peak bytes)}."""
    got = {}
    for run in runs:
        for c in run.get("candidates", []):
            if c["ok"] and c["time_ms"] > 0:
                got.setdefault((c["problem"], c["index"]), []).append((c["time_ms"], c["peak_bytes"]))
    return {k: (statistics.median(t for t, _ in v), statistics.median(p for _, p in v)) for k, v in got.items()}


def budget_lines(runs):
    """auto under each --memory-budget of the sweep (bench/gen.py's
    budget_sweep), on the suites of the budget plot."""
    last, med = runs[-1], candidate_medians(runs)
    if "budgets" not in last:
        return []
    suite_of = {r["problem"]: r["suite"] for r in last["rows"] + last.get("sum_rows", [])}
    lines = ["auto under --memory-budget (suites " + ", ".join(BUDGET_SUITES) + "): per budget, the candidate chosen, "
             "its proven live bytes per rank, predicted us, measured median ms over runs and measured peak MiB; "
             "and the command one byte below the least"]
    for n, b in last["budgets"].items():
        if suite_of[n] not in BUDGET_SUITES:
            continue
        steps = []
        for s in b["sweep"]:
            t, peak = med.get((n, s["candidate"]), (float("nan"), -1))
            steps.append(f"{'unbounded' if s['budget'] is None else s['budget']}: #{s['candidate']} "
                         f"{s['live_bytes']} B {s['predicted_ns'] / 1e3:.0f} us {t:.2f} ms {peak / 2**20:.1f} MiB")
        lines.append(f"  {n}: " + "; ".join(steps))
        lines.append(f"    --memory-budget {b['below_least']['budget']}: exit {b['below_least']['exit']}, "
                     f"{b['below_least']['message']}")
    return lines


def budget_plot(runs, out_dir, plt, colors):
    from matplotlib.ticker import NullFormatter
    """Per problem of BUDGET_SUITES: auto's budget sweep as a line (proven
    live bytes and measured peak against measured time), every candidate it
    weighed, and the other systems as points."""
    last, med, rows = runs[-1], candidate_medians(runs), median_rows(runs)
    if "budgets" not in last:
        return
    suite_of = {r["problem"]: r["suite"] for r in last["rows"] + last.get("sum_rows", [])}
    names = [n for n in last["budgets"] if suite_of[n] in BUDGET_SUITES]
    cols = 6
    nrows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(2.9 * cols, 2.5 * nrows), squeeze=False)
    for ax, n in zip(axes.flat, names):
        for c in last["candidates"]:
            if c["problem"] == n and (n, c["index"]) in med:
                ax.scatter(med[(n, c["index"])][0], c["live_bytes"] / 2**20, marker="x", s=16, color="gray", zorder=2)
        sweep = [(med[(n, s["candidate"])], s["live_bytes"]) for s in last["budgets"][n]["sweep"]
                 if (n, s["candidate"]) in med]
        if sweep:
            ax.plot([t for (t, _), _ in sweep], [live / 2**20 for _, live in sweep], "-*", color=colors["redist"],
                    markersize=8, zorder=4, label="auto, proven live bytes")
            ax.plot([t for (t, _), _ in sweep], [peak / 2**20 for (_, peak), _ in sweep], "--", color=colors["redist"],
                    zorder=3, label="auto, measured peak")
        for s in BASELINES:
            r = rows.get((n, s))
            if s not in ("redist_coll", "redist_exch") and measured(r) and r["peak_bytes"] > 0:
                ax.scatter(r["time_ms"], r["peak_bytes"] / 2**20, s=18, color=colors[s], zorder=3)
        ax.set_title(n, fontsize=8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    handles = ([plt.Line2D([], [], marker="*", color=colors["redist"], label="auto under each budget (proven live bytes)"),
                plt.Line2D([], [], linestyle="--", color=colors["redist"], label="the same, measured peak"),
                plt.Line2D([], [], marker="x", linestyle="", color="gray", label="every candidate auto weighed")]
               + [plt.Line2D([], [], marker="o", linestyle="", color=colors[s], label=s)
                  for s in BASELINES if s not in ("redist_coll", "redist_exch")])
    fig.legend(handles=handles, loc="lower right", fontsize=7, ncol=2)
    fig.supxlabel("median time (ms)")
    fig.supylabel("bytes per rank (MiB)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "memory_budget.png"), dpi=100)
    plt.close(fig)


def sum_rows(runs):
    """Per problem with pending sums and system: min and median over all
    repetitions of all runs, the range of the runs' medians, traffic and
    peak (the same in every run)."""
    keyed = [{(r["problem"], r["system"]): r for r in run["sum_rows"]} for run in runs]
    out = []
    for key, r in keyed[-1].items():
        if key[1] not in SUM_SYSTEMS:
            continue
        mine = [by[key] for by in keyed]
        times = [t for m in mine for t in m.get("times_ms", [])]
        row = {k: r[k] for k in ("problem", "system", "mesh", "src", "tgt", "recv_max", "lower_bound_recv_max")}
        row.update(ok=all(m["ok"] for m in mine) and bool(times),
                   wrong=any(m["time_ms"] > 0 and not m["ok"] for m in mine),
                   peak_bytes=max(m["peak_bytes"] for m in mine),
                   calls=" ".join(r.get("collectives") or []) or r["note"], note=r["note"])
        if row["ok"]:
            medians = [statistics.median(m["times_ms"]) for m in mine]
            row.update(min_ms=min(times), median_ms=statistics.median(times),
                       run_medians_ms=[min(medians), max(medians)])
        out.append(row)
    return out


def sum_lines(runs, rows):
    out = ["| problem | source -> target | system | min ms | median ms | run medians ms | busiest recv "
           "(lower bound) | peak KiB | calls |", "|" + "---|" * 9]
    for r in rows:
        what = f"`{r['src']}` -> `{r['tgt']}` on `{r['mesh']}`"
        if not r["ok"]:
            why = "WRONG: its result differs from the target" if r["wrong"] else r["note"]
            out.append(f"| {r['problem']} | {what} | {r['system']} | not reported: {why} |||||")
            continue
        lo, hi = r["run_medians_ms"]
        out.append(f"| {r['problem']} | {what} | {r['system']} | {r['min_ms']:.3f} | {r['median_ms']:.3f} | "
                   f"{lo:.3f}-{hi:.3f} | {r['recv_max']} ({r['lower_bound_recv_max']}) | "
                   f"{r['peak_bytes'] / 1024:.0f} | {r['calls']} |")
    uptime = [runs[0]["meta"]["uptime_start"]] + [run["meta"]["uptime_end"] for run in runs]
    return out + ["", "uptime at the start and after each run:"] + [f"    {u}" for u in uptime]


def write_report(run_dirs, out_dir):
    """The reports the runs have rows for, each written into out_dir."""
    runs = load(run_dirs)
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    if runs[0]["rows"]:
        lines = (header_lines(runs) + [""] + goal_lines(runs) + [""] + floor_lines(runs) + [""] + large_lines(runs)
                 + [""] + single_copy_lines(runs) + [""] + shortfall_lines(runs) + [""] + misc_lines(runs) + [""] + budget_lines(runs))
        with open(os.path.join(out_dir, "summary.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        plots(runs, out_dir)
    if runs[0].get("sum_rows"):
        rows = sum_rows(runs)
        table = sum_lines(runs, rows)
        with open(os.path.join(out_dir, "sums.md"), "w") as f:
            f.write("\n".join(table) + "\n")
        with open(os.path.join(out_dir, "sums.json"), "w") as f:
            json.dump({"rows": rows, "runs": [run["sum_rows"] for run in runs], "reps": runs[0]["meta"]["reps"]}, f)
        lines += ([""] if lines else []) + table
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="directories written by bench/run.py --out")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    print("\n".join(write_report(args.runs, args.out)))


if __name__ == "__main__":
    try:
        main()
    except (OSError, KeyError, ValueError) as e:
        print(f"bench report: error: {e}", file=sys.stderr)
        sys.exit(2)
