"""In place beside out of place (issue 28, `make bench-inplace`): the large
suite's problems (bench/problems.py) through bench/inplace.cpp, one mpirun
per problem, under the tests' mpirun; prints the table and writes
inplace.json into --out.

    python bench/inplace.py EXE [--reps R] [--only NAME,...] [--out DIR]

memory: the bytes each system allocates for the move on a rank (the most
over ranks): in place the buffer, max(source, target), plus the staging it
uses; out of place source + target + workspace; FFTW its array of
fftw_mpi_local_size elements.  heap: what the system holds on the heap
beyond that after its setup (+ what it grows by during the runs).  ratio:
memory over the out-of-place exchange's.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import problems as P  # noqa: E402
from run import MPIRUN, log  # noqa: E402


def measure(exe, p, reps):
    args = [P.mesh_text(p["mesh"]), P.src_text(p), P.tgt_text(p), "x".join(map(str, p["shape"])),
            str(gen.fftw_direction(p)), str(reps)]
    log(f"{p['name']}: {P.world(p)} ranks")
    r = subprocess.run(MPIRUN + ["-np", str(P.world(p)), exe, *args], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"{exe} on {p['name']} failed (exit {r.returncode}): {r.stderr.strip()}")
    return [dict(json.loads(line), problem=p["name"]) for line in r.stdout.splitlines() if line.startswith("{")]


def mib(n):
    return f"{n / 2**20:.1f}" if n >= 0 else "-"


def table(rows):
    out = [f"{'problem':<20} {'system':<18} {'ok':<3} {'median ms':>10} {'range ms':>19} {'memory MiB':>10} "
           f"{'heap MiB':>14} {'ratio':>6}  note"]
    exchange = {r["problem"]: r["alloc_bytes"] for r in rows if r["system"] == "redist_exch"}
    for r in rows:
        ran = r["time_ms"] >= 0
        span = f"{r['min_ms']:.2f}..{r['max_ms']:.2f}" if ran else "-"
        heap = f"{mib(r['setup_heap_bytes'])}+{mib(r['run_heap_bytes'])}" if ran else "-"
        ratio = f"{r['alloc_bytes'] / exchange[r['problem']]:.2f}" if ran else "-"
        median = f"{r['time_ms']:.2f}" if ran else "-"
        memory = mib(r["alloc_bytes"]) if ran else "-"
        out.append(f"{r['problem']:<20} {r['system']:<18} {('yes' if r['ok'] else 'NO') if ran else '-':<3} "
                   f"{median:>10} {span:>19} {memory:>10} "
                   f"{heap:>14} {ratio:>6}  {r['note']}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated problem names of the large suite")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "inplace"))
    a = ap.parse_args()
    chosen = P.large_suite()
    if a.only:
        names = a.only.split(",")
        unknown = sorted(set(names) - {p["name"] for p in chosen})
        if unknown:
            sys.exit(f"bench/inplace.py: --only: not in the large suite: {', '.join(unknown)}")
        chosen = [p for p in chosen if p["name"] in names]
    rows = [row for p in chosen for row in measure(a.exe, p, a.reps)]
    text = table(rows)
    print(text)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "inplace.json"), "w") as f:
        json.dump({"reps": a.reps, "rows": rows}, f, indent=1)
    with open(os.path.join(a.out, "inplace.txt"), "w") as f:
        f.write(text + "\n")
    failed = [f"{r['problem']}/{r['system']}" for r in rows if r["time_ms"] >= 0 and not r["ok"]]
    if failed:
        sys.exit(f"bench/inplace.py: wrong elements after the run: {', '.join(failed)}")


if __name__ == "__main__":
    main()
