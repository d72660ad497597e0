"""One run of the benchmark: plans and generates code for every problem, runs
redist and the other systems side by side, and writes run.json and that
run's report (bench/report.py) into --out; results.csv for the plain
problems.  A problem's pending sums (problems.py) are one more parameter of
every step: `--suites sums` is the pending-sum suite (`make bench-sums`).

    python bench/run.py [--reps R] [--quick] [--suites a,b,...] [--out DIR]
"""

import argparse
import csv
import datetime
import json
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
import report  # noqa: E402
from report import SUM_SYSTEMS, SYSTEMS  # noqa: E402

# The tests' one mpirun command line; tests/lib.sh explains each flag.
MPIRUN = subprocess.run(["bash", "-c", '. "$1" && printf "%s\\n" "${MPIRUN[@]}"', "_", os.path.join(ROOT, "tests", "lib.sh")],
                        check=True, capture_output=True, text=True).stdout.splitlines()
FIELDS = ["problem", "suite", "devices", "mesh", "src", "tgt", "system", "ok", "time_ms", "min_ms", "floor_ms",
          "copy_floor_ms", "copy_floor_min_ms", "time_over_floor", "recv_max",
          "recv_total", "lower_bound_recv_max", "lower_bound_recv_total", "peak_elems", "peak_bytes",
          "src_elems", "tgt_elems", "global_elems", "launches", "collectives", "full_remat", "temp_bytes", "heap_bytes",
          "host_transfers", "note"]


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def calibrate(redist, worlds, build):
    """A profile per world size, measured now by `redist calibrate` with that
    many ranks (oversubscribed ranks are slower than two alone): auto
    chooses under the machine as the run finds it."""
    out = {}
    for n in worlds:
        out[n] = os.path.join(build, f"profile_n{n}.json")
        r = subprocess.run([redist, "calibrate", "--np", str(n), "-o", out[n]], capture_output=True, text=True,
                           timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"redist calibrate --np {n} failed (exit {r.returncode}): {r.stderr.strip()}")
    return out


def run_mpi(problems, plans, candidates, reps, build, stderr):
    """The rows of the MPI systems, and per problem its floor in ms: the
    bytes of all its target boxes over the copy bandwidth of as many ranks;
    and the driver's copy of every rank's target box, measured beside the
    problem (median and best of the repetitions); and the overlap records
    of the large problems."""
    rows, floor_ms, bandwidth_of, overlap = [], {}, {}, []
    for n in sorted({P.world(p) for p in problems}):
        table = gen.write_table(problems, plans, candidates, n, build)
        exe = gen.build_driver(HERE, ROOT, os.path.join(build, "gen"), table)
        log(f"MPI driver, {n} ranks on {os.cpu_count()} cores (oversubscribed)")
        r = subprocess.run(MPIRUN + ["-np", str(n), exe, str(reps)], capture_output=True, text=True,
                           timeout=900)
        stderr.write(r.stderr)
        if r.returncode != 0:
            raise RuntimeError(f"the MPI driver on {n} ranks failed (exit {r.returncode}); see {stderr.name}")
        lines = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
        bandwidth = next(l["bytes_per_s"] for l in lines if "copy_bandwidth" in l)
        log(f"copy bandwidth of {n} ranks: {bandwidth / 1e9:.2f} GB/s")
        bandwidth_of[n] = bandwidth
        for l in lines:
            if "problem_sizes" in l:
                floor_ms[l["problem_sizes"]] = {"floor_ms": 1e3 * l["target_bytes_total"] / bandwidth,
                                                "copy_floor_ms": l["copy_floor_ms"],
                                                "copy_floor_min_ms": l["copy_floor_min_ms"]}
        rows += [l for l in lines if "system" in l]
        overlap += [l for l in lines if "overlap" in l]
    # single copy runs the same plans as auto and the exchange, on other arrays
    same_plan = {"redist_shm": "redist", "redist_exch_shm": "redist_exch"}
    for row in rows:
        system = same_plan.get(row["system"], row["system"])
        if system in plans[row["problem"]]:
            plan = plans[row["problem"]][system]
            row["recv_max"], row["recv_total"] = plan["recv_elems_max"], plan["recv_elems_total"]
            row["peak_elems"], row["launches"] = plan["peak_elems"], plan["launches"]
            row["collectives"] = [s["op"] for s in plan["steps"]]
    return rows, floor_ms, bandwidth_of, overlap


def auto_rows(rows, candidates):
    """redist (auto) per problem: the row of the candidate it chose."""
    by = {(r["problem"], r["system"]): r for r in rows}
    out = []
    for name, mine in candidates.items():
        chosen = gen.auto_choice(mine)
        row = dict(by[(name, chosen)], system="redist", note=f"auto: runs {chosen}")
        for k in ("recv_max", "recv_total", "peak_elems", "launches", "collectives"):
            row[k] = by[(name, chosen)].get(k)
        out.append(row)
    return out


def candidate_records(rows, candidates):
    """Every candidate auto weighed, with its prediction and the measured
    row (time, peak) of the system that ran it."""
    by = {(r["problem"], r["system"]): r for r in rows}
    out = []
    for name, mine in candidates.items():
        for c in mine:
            r = by[(name, c["system"])]
            out.append(dict({k: c[k] for k in ("index", "strategy", "plan", "verdict", "predicted_ns", "live_bytes", "alloc_bytes",
                                               "recv_elems_max", "launches", "system")},
                            problem=name, ok=r["ok"], time_ms=r["time_ms"], times_ms=r.get("times_ms", []),
                            peak_bytes=r.get("peak_bytes", -1)))
    return out


def run_python(script, problems, reps, build, stderr, what):
    """XLA and DTensor run a program on one mesh: a move between meshes is
    not something they express (n/a rows)."""
    out = os.path.join(build, f"{what}.jsonl")
    if os.path.exists(out):
        os.unlink(out)
    path = os.path.join(build, "problems.json")
    why = {"xla": "n/a: a jitted XLA program has one device mesh (a move between meshes is a device_put, "
                  "not compiled; not measured)",
           "dtensor": "n/a: DTensor refuses moves between meshes (\"Cross device mesh comm not supported yet!\")"}
    with open(out, "w") as f:
        for p in problems:
            if P.cross_mesh(p):
                f.write(json.dumps({"problem": p["name"], "system": what, "time_ms": -1, "ok": False,
                                    "note": why[what]}) + "\n")
    for n in sorted({P.devices(p["mesh"]) for p in problems if not P.cross_mesh(p)}):
        log(f"{what}, {n} devices")
        r = subprocess.run([sys.executable, os.path.join(HERE, script), str(n), path, out, str(reps)],
                           capture_output=True, text=True, timeout=900)
        stderr.write(r.stderr)
        if r.returncode != 0:
            raise RuntimeError(f"{script} on {n} devices failed (exit {r.returncode}); see {stderr.name}")
    return [json.loads(l) for l in open(out)] if os.path.exists(out) else []


def table(rows):
    def fmt(v, w):
        return f"{v:>{w}}" if not isinstance(v, float) else f"{v:>{w}.2f}"
    head = ["problem", "system", "time_ms", "/floor", "recv_max", "lb_max", "peak_MiB", "note"]
    out = [" ".join(f"{h:>12}" for h in head)]
    for r in rows:
        measured = r["time_ms"] > 0
        peak = r["peak_bytes"] / 2**20 if r.get("peak_bytes", -1) > 0 else "n/a"
        rm = r["recv_max"] if r.get("recv_max", -1) >= 0 else "n/a"
        note = ("" if r["ok"] or not measured else "WRONG ") + r.get("note", "")[:60]
        out.append(" ".join(fmt(v, 12) for v in [r["problem"], r["system"], r["time_ms"] if measured else "n/a",
                                                 r["time_over_floor"] if measured else "n/a", rm,
                                                 r["lower_bound_recv_max"], peak]) + "  " + note)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true",
                    help=f"{len(P.QUICK)} problems ({', '.join(P.QUICK)}), 3 repetitions: a smoke test")
    ap.add_argument("--suites", default=",".join(P.PLAIN_SUITES), help="comma-separated, of: " + ", ".join(P.SUITES))
    ap.add_argument("--redist", default=os.path.join(ROOT, "_build", "install", "default", "bin", "redist"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()
    if not os.access(args.redist, os.X_OK):
        raise RuntimeError(f"--redist: {args.redist} is not an executable (run `make build` first)")
    started = time.time()
    uptime_start = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    unknown = set(args.suites.split(",")) - set(P.SUITES)
    if unknown:
        raise RuntimeError(f"--suites: unknown suite {sorted(unknown)[0]} (known: {', '.join(P.SUITES)})")
    problems = [p for s in args.suites.split(",") for p in P.SUITES[s]()]
    if args.quick:
        problems = [p for p in P.all_problems() if p["name"] in P.QUICK]
        args.reps = 3
    build = os.path.join(HERE, "build")
    os.makedirs(build, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(build, "problems.json"), "w") as f:
        json.dump(problems, f)
    stderr = open(os.path.join(build, "stderr.log"), "w")

    worlds = sorted({P.world(p) for p in problems})
    log(f"calibrating the cost model with {', '.join(map(str, worlds))} ranks")
    profiles = calibrate(args.redist, worlds, build)
    log(f"{len(problems)} problems; planning and generating C++ with {args.redist}")
    plans, candidates = gen.plan_all(args.redist, problems, os.path.join(build, "gen"),
                                     lambda p: profiles[P.world(p)])
    budgets = {p["name"]: gen.budget_sweep(args.redist, p, profiles[P.world(p)], candidates[p["name"]])
               for p in problems}
    # The 1-minute load average around each phase: other work on the
    # machine slows the phases unequally, and the report should say so.
    load = {}

    def phase(name, f):
        before = os.getloadavg()[0]
        out = f()
        load[name] = (before, os.getloadavg()[0])
        return out

    rows, floor_ms, bandwidth, overlap = phase("MPI", lambda: run_mpi(problems, plans, candidates, args.reps, build,
                                                                       stderr))
    rows += auto_rows(rows, candidates)
    weighed = candidate_records(rows, candidates)
    rows = [r for r in rows if not r["system"].startswith("cand")]
    rows += phase("XLA", lambda: run_python("xla_bench.py", problems, args.reps, build, stderr, "xla"))
    rows += phase("DTensor", lambda: run_python("dtensor_bench.py", problems, args.reps, build, stderr, "dtensor"))

    meta = {p["name"]: p for p in problems}
    for r in rows:
        p, plan = meta[r["problem"]], plans[r["problem"]]["redist"]
        r.update(suite=p["suite"], devices=P.world(p), mesh=P.meshes_text(p),
                 src=P.src_text(p), tgt=P.tgt_text(p),
                 lower_bound_recv_max=plan["lower_bound_recv_max"], lower_bound_recv_total=plan["lower_bound_recv_total"],
                 src_elems=plan["src_elems"], tgt_elems=plan["tgt_elems"], global_elems=plan["global_elems"],
                 **floor_ms[r["problem"]])
        if r["system"] in ("alltoallv", "scalapack", "fftw"):
            r.setdefault("peak_elems", max(plan["src_elems"], plan["tgt_elems"]))
        r["min_ms"] = min(r["times_ms"]) if r.get("times_ms") else -1
        r["time_over_floor"] = r["time_ms"] / r["floor_ms"] if r["time_ms"] > 0 else -1
        r.setdefault("recv_max", -1)
        r.setdefault("recv_total", -1)
        r.setdefault("peak_bytes", -1)
    order = {n: i for i, n in enumerate(meta)}
    # the pending sums' table lists its systems first, the rest after
    rows.sort(key=lambda r: (order[r["problem"]], (SUM_SYSTEMS + SYSTEMS if P.pending(meta[r["problem"]])
                                                   else SYSTEMS).index(r["system"])))
    plain = [r for r in rows if not P.pending(meta[r["problem"]])]
    sums = [r for r in rows if P.pending(meta[r["problem"]])]

    if plain:
        with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
            w.writeheader()
            for r in plain:
                w.writerow({k: (" ".join(r[k]) if isinstance(r.get(k), list) else r.get(k, "")) for k in FIELDS})
    run_meta = {
        "when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.node()}",
        "reps": args.reps, "copy_bandwidth": bandwidth, "problems": len(problems), "wall_s": round(time.time() - started),
        "load": {k: [round(a, 1), round(b, 1)] for k, (a, b) in load.items()},
        "uptime_start": uptime_start,
        "uptime_end": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
    }
    with open(os.path.join(args.out, "run.json"), "w") as f:
        json.dump({"meta": run_meta, "rows": plain, "sum_rows": sums, "overlap": overlap,
                   "candidates": weighed, "budgets": budgets,
                   "profiles": {n: gen.read_json(path) for n, path in profiles.items()}}, f)
    if plain:
        print("\n".join(table(plain)) + "\n")
    print("\n".join(report.write_report([args.out], args.out)))
    ok = all(r["ok"] or r["time_ms"] <= 0 for r in rows + weighed) and all(o["ok"] for o in overlap)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print(f"bench: error: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}", file=sys.stderr)
        sys.exit(2)
