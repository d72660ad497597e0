"""The pending-sum suite (issue 14): redist's generated plan, a plain
MPI_Reduce_scatter (+ MPI_Alltoallv), XLA's psum_scatter/psum under
shard_map and DTensor's Partial -> Shard/Replicate on the same partial sums,
every result checked element by element.  --runs full runs, each of --reps
timed repetitions; the table gives per system the min and median over all
repetitions and the range of the runs' medians.

    python bench/sums_bench.py [--runs K] [--reps R] [--quick] [--out DIR]
"""

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import gen  # noqa: E402
import problems as P  # noqa: E402
import sums_problems as S  # noqa: E402
from run import MPIRUN, log  # noqa: E402

SYSTEMS = ("redist", "mpi_rs", "xla", "dtensor")


def plan_and_gen(redist, p, out):
    args = ["--mesh", P.mesh_text(p["mesh"]), "--from", S.type_text(p, p["src"], p["pending"]),
            "--to", S.type_text(p, p["tgt"]), "--dtype", "f32"]
    plan = json.loads(gen._redist(redist, ["plan", "--json"] + args))
    gen._redist(redist, ["gen", "--name", p["name"], "-o", os.path.join(out, f"{p['name']}.hpp")] + args)
    return plan


def write_table(problems, world, out):
    mine = [p for p in problems if P.devices(p["mesh"]) == world]
    lines = ["// Written by bench/sums_bench.py; do not edit.", "#pragma once"]
    lines += [f"#include \"{p['name']}.hpp\"" for p in mine]
    lines += [f"inline constexpr int kWorld = {world};",
              f"inline constexpr std::size_t kSumsModulus = {S.VALUE_MODULUS};",
              "inline const bench::SumsProblem kSumsProblems[] = {"]
    for p in mine:
        ns = f"redist_gen::{p['name']}"
        lines.append(
            f"    {{\"{p['name']}\", {len(p['shape'])}, {{{', '.join(map(str, p['shape']))}}}, {len(p['mesh'])}, "
            f"{{{', '.join(str(s) for _, s in p['mesh'])}}}, "
            f"{{{', '.join('true' if a in p['pending'] else 'false' for a, _ in p['mesh'])}}}, "
            f"&{ns}::create_mesh, &{ns}::run, {ns}::kWorkspaceBytes, &{ns}::src_box, &{ns}::tgt_box}},")
    lines += ["};", ""]
    d = os.path.join(out, f"n{world}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "sums_problems.hpp"), "w") as f:
        f.write("\n".join(lines))
    return d


def build_driver(gen_dir, table_dir):
    exe = os.path.join(table_dir, "sums_driver")
    sources = ["sums_driver.cpp", "reduce_scatter.cpp", "heap_counter.cpp"]
    cmd = ["mpicxx", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-I", table_dir, "-I", gen_dir, "-I", HERE,
           *gen.runtime_flags(ROOT, "--cflags"), *[os.path.join(HERE, s) for s in sources],
           *gen.runtime_flags(ROOT, "--libs"), "-o", exe]
    digest = hashlib.sha256(" ".join(cmd).encode())
    for path in sorted(os.path.join(d, f) for d in (table_dir, gen_dir, HERE) for f in os.listdir(d)
                       if f.endswith((".hpp", ".cpp"))):
        digest.update(open(path, "rb").read())
    stamp = exe + ".sha256"
    if os.path.exists(exe) and os.path.exists(stamp) and open(stamp).read() == digest.hexdigest():
        return exe
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        with open(os.path.join(table_dir, "build.log"), "w") as f:
            f.write(r.stderr)
        raise RuntimeError(f"building {exe} failed; see {table_dir}/build.log")
    with open(stamp, "w") as f:
        f.write(digest.hexdigest())
    return exe


def one_run(problems, exes, reps, build):
    rows = []
    for n, exe in exes.items():
        log(f"sums: MPI driver, {n} ranks")
        r = subprocess.run(MPIRUN + ["-np", str(n), exe, str(reps)], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise RuntimeError(f"the sums driver on {n} ranks failed (exit {r.returncode}): {r.stderr.strip()[-300:]}")
        rows += [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    path = os.path.join(build, "sums_problems.json")
    for script in ("sums_xla.py", "sums_dtensor.py"):
        out = os.path.join(build, script.replace(".py", ".jsonl"))
        if os.path.exists(out):
            os.unlink(out)
        for n in exes:
            log(f"sums: {script}, {n} devices")
            r = subprocess.run([sys.executable, os.path.join(HERE, script), str(n), path, out, str(reps)],
                               capture_output=True, text=True, timeout=900)
            if r.returncode != 0:
                raise RuntimeError(f"{script} on {n} devices failed (exit {r.returncode}): {r.stderr.strip()[-300:]}")
        rows += [json.loads(l) for l in open(out)]
    return rows


def summarize(problems, plans, runs):
    """Per problem and system: min and median over all repetitions of all
    runs, the runs' medians' range, traffic and peak (the same in every run)."""
    out = []
    for p in problems:
        plan = plans[p["name"]]
        for system in SYSTEMS:
            mine = [r for run in runs for r in run if r["problem"] == p["name"] and r["system"] == system]
            if not mine:
                continue
            times = [t for r in mine for t in r["times_ms"]]
            medians = [statistics.median(r["times_ms"]) for r in mine if r["times_ms"]]
            row = {"problem": p["name"], "system": system, "ok": all(r["ok"] for r in mine) and bool(times),
                   "peak_bytes": max(r["peak_bytes"] for r in mine), "note": mine[0]["note"],
                   "lower_bound_recv_max": plan["lower_bound_recv_max"],
                   "recv_max": plan["recv_elems_max"] if system == "redist" else mine[0]["recv_max"]}
            if row["ok"]:
                row.update(min_ms=min(times), median_ms=statistics.median(times),
                           run_medians_ms=[min(medians), max(medians)])
            out.append(row)
    return out


def table(rows, problems):
    by = {p["name"]: p for p in problems}
    head = ("| problem | source -> target | system | min ms | median ms | run medians ms | busiest recv "
            "(lower bound) | peak KiB | calls |")
    out = [head, "|" + "---|" * 9]
    for r in rows:
        p = by[r["problem"]]
        what = f"`{S.type_text(p, p['src'], p['pending'])}` -> `{S.type_text(p, p['tgt'])}` on `{P.mesh_text(p['mesh'])}`"
        if not r["ok"]:
            out.append(f"| {r['problem']} | {what} | {r['system']} | not reported: WRONG or n/a {r['note']} |||||")
            continue
        lo, hi = r["run_medians_ms"]
        out.append(f"| {r['problem']} | {what} | {r['system']} | {r['min_ms']:.3f} | {r['median_ms']:.3f} | "
                   f"{lo:.3f}-{hi:.3f} | {r['recv_max']} ({r['lower_bound_recv_max']}) | "
                   f"{r['peak_bytes'] / 1024:.0f} | {r['note']} |")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="two small problems (sums_problems.QUICK), one run of 3 repetitions")
    ap.add_argument("--redist", default=os.path.join(ROOT, "_build", "install", "default", "bin", "redist"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "sums"))
    args = ap.parse_args()
    if args.runs < 1 or args.reps < 1:
        raise RuntimeError(f"--runs {args.runs} --reps {args.reps}: both must be at least 1")
    if not os.access(args.redist, os.X_OK):
        raise RuntimeError(f"--redist: {args.redist} is not an executable (run `make build` first)")
    problems = S.sums_suite()
    if args.quick:
        problems = [p for p in problems if p["name"] in S.QUICK]
        args.runs, args.reps = 1, 3
    build = os.path.join(HERE, "build", "sums")
    gen_dir = os.path.join(build, "gen")
    os.makedirs(gen_dir, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(build, "sums_problems.json"), "w") as f:
        json.dump(problems, f)
    uptime = [subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()]
    log(f"sums: {len(problems)} problems; planning and generating with {args.redist}")
    plans = {p["name"]: plan_and_gen(args.redist, p, gen_dir) for p in problems}
    exes = {n: build_driver(gen_dir, write_table(problems, n, build))
            for n in sorted({P.devices(p["mesh"]) for p in problems})}
    runs = []
    for k in range(args.runs):
        runs.append(one_run(problems, exes, args.reps, build))
        uptime.append(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    rows = summarize(problems, plans, runs)
    lines = table(rows, problems) + ["", "uptime at the start and after each run:"] + [f"    {u}" for u in uptime]
    with open(os.path.join(args.out, "sums.json"), "w") as f:
        json.dump({"rows": rows, "runs": runs, "uptime": uptime, "reps": args.reps}, f)
    with open(os.path.join(args.out, "sums.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    wrong = [f"{r['problem']}/{r['system']}" for r in rows if not r["ok"]]
    if wrong:
        print(f"sums bench: not verified: {', '.join(wrong)}", file=sys.stderr)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print(f"sums bench: error: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}",
              file=sys.stderr)
        sys.exit(2)
