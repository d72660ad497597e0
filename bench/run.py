"""Runs the whole benchmark: plans and generates code for every problem,
runs redist and the baselines side by side, and writes the report under
bench/results/ (results.csv, summary.txt, PNG plots).

    python bench/run.py [--reps R] [--quick] [--systems a,b,...]
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import gen  # noqa: E402
import problems as P  # noqa: E402

SYSTEMS = ["redist", "gather_all", "xla", "dtensor", "alltoallv", "scalapack"]
BASELINES = SYSTEMS[1:]
# The tests' one mpirun command line; tests/lib.sh explains each flag.
MPIRUN = subprocess.run(["bash", "-c", '. "$1" && printf "%s\\n" "${MPIRUN[@]}"', "_", os.path.join(ROOT, "tests", "lib.sh")],
                        check=True, capture_output=True, text=True).stdout.splitlines()
FIELDS = ["problem", "suite", "devices", "mesh", "src", "tgt", "system", "ok", "time_ms", "min_ms", "recv_max",
          "recv_total", "lower_bound_recv_max", "lower_bound_recv_total", "peak_elems", "peak_bytes",
          "src_elems", "tgt_elems", "global_elems", "launches", "collectives", "full_remat", "temp_bytes", "heap_bytes",
          "host_transfers", "note"]


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run_mpi(problems, plans, reps, build, stderr):
    rows = []
    for n in sorted({P.devices(p["mesh"]) for p in problems}):
        table = gen.write_table(problems, n, build)
        exe = gen.build_driver(HERE, ROOT, os.path.join(build, "gen"), table)
        log(f"MPI driver, {n} ranks on {os.cpu_count()} cores (oversubscribed)")
        r = subprocess.run(MPIRUN + ["-np", str(n), exe, str(reps)], capture_output=True, text=True,
                           timeout=600)
        stderr.write(r.stderr)
        if r.returncode != 0:
            raise RuntimeError(f"the MPI driver on {n} ranks failed (exit {r.returncode}); see {stderr.name}")
        rows += [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    for row in rows:
        if row["system"] in plans[row["problem"]]:
            plan = plans[row["problem"]][row["system"]]
            row["recv_max"], row["recv_total"] = plan["recv_elems_max"], plan["recv_elems_total"]
            row["peak_elems"], row["launches"] = plan["peak_elems"], plan["launches"]
            row["collectives"] = [s["op"] for s in plan["steps"]]
    return rows


def run_python(script, problems, reps, build, stderr, what):
    out = os.path.join(build, f"{what}.jsonl")
    if os.path.exists(out):
        os.unlink(out)
    path = os.path.join(build, "problems.json")
    for n in sorted({P.devices(p["mesh"]) for p in problems}):
        log(f"{what}, {n} devices")
        r = subprocess.run([sys.executable, os.path.join(HERE, script), str(n), path, out, str(reps)],
                           capture_output=True, text=True, timeout=900)
        stderr.write(r.stderr)
        if r.returncode != 0:
            raise RuntimeError(f"{script} on {n} devices failed (exit {r.returncode}); see {stderr.name}")
    return [json.loads(l) for l in open(out)] if os.path.exists(out) else []


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summarize(rows):
    by = {(r["problem"], r["system"]): r for r in rows}
    lines = []
    for b in BASELINES:
        sp, sp_comm, sp_min, mem, trf, trf_tot = [], [], [], [], [], []
        skipped = 0
        for (name, system), r in by.items():
            if system != b:
                continue
            mine = by.get((name, "redist"))
            if not (r["ok"] and mine and mine["ok"] and r["time_ms"] > 0):
                skipped += 1
                continue
            sp.append((r["time_ms"] / mine["time_ms"], name))
            sp_min.append(r["min_ms"] / mine["min_ms"])
            if mine["lower_bound_recv_max"] > 0:
                sp_comm.append((r["time_ms"] / mine["time_ms"], name))
            if r.get("peak_bytes", -1) > 0:
                mem.append(r["peak_bytes"] / mine["peak_bytes"])
            if r.get("recv_max", -1) >= 0 and mine["recv_max"] > 0:
                trf.append(r["recv_max"] / mine["recv_max"])
            if r.get("recv_total", -1) >= 0 and mine["recv_total"] > 0:
                trf_tot.append(r["recv_total"] / mine["recv_total"])
        if not sp:
            lines.append(f"{b:>10}: no comparable problems ({skipped} n/a or failed)")
            continue
        best = max(sp)
        lines.append(
            f"{b:>10}: {len(sp):2d} problems ({skipped} n/a)  speedup of redist: geomean {gmean([s for s, _ in sp]):.2f}x, "
            f"max {best[0]:.2f}x ({best[1]}), min {min(sp)[0]:.2f}x, max where communication is needed "
            f"{max(sp_comm, default=(float('nan'), ''))[0]:.2f}x ({max(sp_comm, default=(0, '-'))[1]}), "
            f"geomean of best-of-run times {gmean(sp_min):.2f}x  |  "
            f"{b}/redist: peak memory geomean "
            f"{gmean(mem):.2f}x (max {max(mem, default=float('nan')):.2f}x), busiest-device traffic geomean {gmean(trf):.2f}x, "
            f"total traffic geomean {gmean(trf_tot):.2f}x")
    redist = [r for r in rows if r["system"] == "redist" and r["ok"]]
    over_lb = [r["recv_max"] / r["lower_bound_recv_max"] for r in redist if r["lower_bound_recv_max"] > 0]
    over_max = [r["peak_elems"] / max(r["src_elems"], r["tgt_elems"]) for r in redist]
    lines.append(f"    redist: busiest-device traffic / lower bound: geomean {gmean(over_lb):.2f}x, "
                 f"max {max(over_lb, default=float('nan')):.2f}x; peak / max(|src|,|tgt|): max {max(over_max, default=float('nan')):.2f}x")
    remat = sorted(r["problem"] for r in rows if r["system"] == "xla" and r.get("full_remat"))
    lines.append(f"       xla: full rematerialization (all-gather to the global shape) in {len(remat)} problems"
                 + (f": {', '.join(remat)}" if remat else ""))
    host = sorted(r["problem"] for r in rows if r["system"] == "xla" and r.get("host_transfers"))
    lines.append(f"       xla: host transfers in the compiled HLO: {', '.join(host) if host else 'none'}")
    failed = sorted(f"{r['problem']}/{r['system']}" for r in rows if not r["ok"] and r["time_ms"] > 0)
    lines.append(f"   results: {'all checked element by element and correct' if not failed else 'WRONG: ' + ', '.join(failed)}")
    return lines


def table(rows):
    def fmt(v, w):
        return f"{v:>{w}}" if not isinstance(v, float) else f"{v:>{w}.2f}"
    head = ["problem", "system", "time_ms", "recv_max", "lb_max", "recv_total", "peak_MiB", "note"]
    out = [" ".join(f"{h:>12}" for h in head)]
    for r in rows:
        t = r["time_ms"] if r["time_ms"] > 0 else "n/a"
        peak = r["peak_bytes"] / 2**20 if r.get("peak_bytes", -1) > 0 else "n/a"
        rm = r["recv_max"] if r.get("recv_max", -1) >= 0 else "n/a"
        rt = r["recv_total"] if r.get("recv_total", -1) >= 0 else "n/a"
        note = ("" if r["ok"] or r["time_ms"] <= 0 else "WRONG ") + r.get("note", "")[:60]
        out.append(" ".join(fmt(v, 12) for v in [r["problem"], r["system"], t, rm, r["lower_bound_recv_max"], rt, peak])
                   + "  " + note)
    return out


def plots(rows, problems, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [p["name"] for p in problems]
    by = {(r["problem"], r["system"]): r for r in rows}
    for metric, label, fname, log_y in [
            ("time_ms", "median time (ms), max over ranks", "time.png", True),
            ("recv_max", "elements received by the busiest device", "traffic.png", True),
            ("peak_bytes", "peak memory per device (MiB)", "peak_memory.png", True)]:
        fig, ax = plt.subplots(figsize=(max(10, 0.55 * len(names)), 4.8))
        width = 0.8 / len(SYSTEMS)
        for k, s in enumerate(SYSTEMS):
            xs, ys = [], []
            for i, n in enumerate(names):
                r = by.get((n, s))
                v = r.get(metric, -1) if r else -1
                if r and r["ok"] and v is not None and v > 0:
                    xs.append(i + (k - len(SYSTEMS) / 2 + 0.5) * width)
                    ys.append(v / 2**20 if metric == "peak_bytes" else v)
            ax.bar(xs, ys, width, label=s)
        if metric == "recv_max":
            lb = [by[(n, "redist")]["lower_bound_recv_max"] for n in names]
            ax.scatter(range(len(names)), [v if v > 0 else float("nan") for v in lb], marker="_", s=200, color="black",
                       label="lower bound", zorder=3)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
        if log_y:
            ax.set_yscale("log")
        ax.set_ylabel(label)
        ax.legend(fontsize=7, ncol=4)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, fname), dpi=110)
        plt.close(fig)


def speedup_plot(rows, problems, out_dir):
    """Per problem, each baseline's time over redist's (above 1: redist is faster)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [p["name"] for p in problems]
    by = {(r["problem"], r["system"]): r for r in rows}
    fig, ax = plt.subplots(figsize=(max(10, 0.55 * len(names)), 4.8))
    width = 0.8 / len(BASELINES)
    for k, b in enumerate(BASELINES):
        xs, ys = [], []
        for i, n in enumerate(names):
            r, mine = by.get((n, b)), by.get((n, "redist"))
            if r and mine and r["ok"] and mine["ok"] and r["time_ms"] > 0:
                xs.append(i + (k - len(BASELINES) / 2 + 0.5) * width)
                ys.append(r["time_ms"] / mine["time_ms"])
        ax.bar(xs, ys, width, label=b)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("baseline time / redist time")
    ax.legend(fontsize=7, ncol=5)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "speedup.png"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="3 problems, 3 repetitions: a smoke test")
    ap.add_argument("--redist", default=os.path.join(ROOT, "_build", "install", "default", "bin", "redist"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()
    if not os.access(args.redist, os.X_OK):
        raise RuntimeError(f"--redist: {args.redist} is not an executable (run `make build` first)")
    started = time.time()
    problems = P.all_problems()
    if args.quick:
        problems = [p for p in problems if p["name"] in ("rand00", "transpose_44", "np2_23")]
        args.reps = 3
    build = os.path.join(HERE, "build")
    os.makedirs(build, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(build, "problems.json"), "w") as f:
        json.dump(problems, f)
    stderr = open(os.path.join(build, "stderr.log"), "w")

    log(f"{len(problems)} problems; planning and generating C++ with {args.redist}")
    plans = gen.plan_all(args.redist, problems, os.path.join(build, "gen"))
    # The 1-minute load average around each phase: other work on the
    # machine slows the phases unequally, and the report should say so.
    load = {}

    def phase(name, f):
        before = os.getloadavg()[0]
        out = f()
        load[name] = (before, os.getloadavg()[0])
        return out

    rows = phase("MPI", lambda: run_mpi(problems, plans, args.reps, build, stderr))
    rows += phase("XLA", lambda: run_python("xla_bench.py", problems, args.reps, build, stderr, "xla"))
    rows += phase("DTensor", lambda: run_python("dtensor_bench.py", problems, args.reps, build, stderr, "dtensor"))

    meta = {p["name"]: p for p in problems}
    for r in rows:
        p, plan = meta[r["problem"]], plans[r["problem"]]["redist"]
        r.update(suite=p["suite"], devices=P.devices(p["mesh"]), mesh=P.mesh_text(p["mesh"]),
                 src=P.type_text(p["mesh"], p["shape"], p["src"]), tgt=P.type_text(p["mesh"], p["shape"], p["tgt"]),
                 lower_bound_recv_max=plan["lower_bound_recv_max"], lower_bound_recv_total=plan["lower_bound_recv_total"],
                 src_elems=plan["src_elems"], tgt_elems=plan["tgt_elems"], global_elems=plan["global_elems"])
        if r["system"] == "alltoallv" or r["system"] == "scalapack":
            r.setdefault("peak_elems", max(plan["src_elems"], plan["tgt_elems"]))
        r["min_ms"] = min(r["times_ms"]) if r.get("times_ms") else -1
        r.setdefault("recv_max", -1)
        r.setdefault("recv_total", -1)
        r.setdefault("peak_bytes", -1)
    order = {n: i for i, n in enumerate(meta)}
    rows.sort(key=lambda r: (order[r["problem"]], SYSTEMS.index(r["system"])))

    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (" ".join(r[k]) if isinstance(r.get(k), list) else r.get(k, "")) for k in FIELDS})
    plots(rows, problems, args.out)
    speedup_plot(rows, problems, args.out)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.node()}"
    head = [f"redist benchmark, {when}, {machine}",
            f"{len(problems)} problems, median of {args.reps} runs; mpirun runs 6 to 18 ranks on {os.cpu_count()} cores "
            "(oversubscribed), so times measure CPU and memory work more than a network",
            f"total wall time {time.time() - started:.0f} s; load average (1 min) before/after each phase: "
            + ", ".join(f"{k} {a:.1f}/{b:.1f}" for k, (a, b) in load.items())]
    summary = head + [""] + summarize(rows)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(table(rows)))
    print()
    print("\n".join(summary))
    ok = all(r["ok"] or r["time_ms"] <= 0 for r in rows)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print(f"bench: error: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}", file=sys.stderr)
        sys.exit(2)
