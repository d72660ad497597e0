"""Every candidate `plan --json` lists under the cost model, read back from
its plan_file by `check --plan -`, is accepted with the candidate's own
predicted time, live bytes and busiest-rank traffic (the bench generates and
measures the candidates that were not chosen from these files).

Usage: candidate_plan_files.py REDIST PLAN-ARGS...  Prints one line per
candidate that does not round-trip and exits 1; prints the candidate count
and exits 0 otherwise.
"""
import json
import subprocess
import sys


def main():
    redist, args = sys.argv[1], sys.argv[2:]
    plan = json.loads(subprocess.run([redist, "plan", "--json"] + args, capture_output=True, text=True,
                                     check=True).stdout)
    wrong = []
    for c in plan["cost"]["candidates"]:
        r = subprocess.run([redist, "check", "--json", "--plan", "-"] + args,
                           input="".join(line + "\n" for line in c["plan_file"]), capture_output=True, text=True)
        if r.returncode != 0:
            wrong.append(f"{c['plan']}: check exited {r.returncode}: {r.stderr.strip()}")
            continue
        got = json.loads(r.stdout)["cost"]
        back = got["candidates"][0]
        for field in ("plan", "predicted_ns", "live_bytes", "recv_elems_max"):
            if back[field] != c[field]:
                wrong.append(f"{c['plan']}: {field} {c[field]} in plan, {back[field]} in check")
    for w in wrong:
        print(w)
    if not wrong:
        print(len(plan["cost"]["candidates"]))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
