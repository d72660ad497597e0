"""The pending-sum suite on PyTorch DTensor (CPU, gloo, N forked
processes): each rank's partial sum as a DTensor with Partial() on the
pending mesh dimensions, redistributed to the target's Shard/Replicate.

    python sums_dtensor.py N PROBLEMS_JSON OUT_JSONL REPS
"""

import json
import math
import os
import sys
import tempfile
import time

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor import DTensor, Partial
from torch.distributed.tensor import _redistribute as R

import sums_problems as S
from dtensor_bench import box, placements


def account(p, infos, local):
    """Elements the busiest rank receives along DTensor's plan, as textbook
    collectives do (reduce_scatter: k - 1 per result element; all_reduce
    (ring): 2 (k - 1) / k per element; all_gather: k - 1 per input element)."""
    sizes = [s for _, s in p["mesh"]]
    recv, kinds = 0, []
    for info in infos:
        g = sizes[info.mesh_dim]
        a, b = info.src_dst_placements
        if a.is_partial() and b.is_shard():
            local //= g
            recv += (g - 1) * local
            kinds.append("reduce_scatter")
        elif a.is_partial() and b.is_replicate():
            recv += 2 * (g - 1) * local // g
            kinds.append("all_reduce")
        elif a.is_shard() and b.is_replicate():
            recv += (g - 1) * local
            local *= g
            kinds.append("all_gather")
        else:
            kinds.append(f"{a}->{b}")
    return recv, kinds


def worker(rank, n, problems, reps, init_file, out_path):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=n)
    rows = []
    for p in problems:
        names = [a for a, _ in p["mesh"]]
        sp = placements(p, p["src"])
        for a in p["pending"]:
            sp[names.index(a)] = Partial()
        tp = placements(p, p["tgt"])
        mesh = DeviceMesh("cpu", torch.arange(n).reshape([s for _, s in p["mesh"]]), mesh_dim_names=tuple(names))
        offs, exts = box(p, p["src"], rank)
        src_local = torch.from_numpy(S.contribution(p, offs, exts, S.member_index(p, rank)))
        want = torch.from_numpy(S.target_values(p, *box(p, p["tgt"], rank)))
        stride = tuple(math.prod(p["shape"][d + 1:]) for d in range(len(p["shape"])))
        x = DTensor.from_local(src_local, mesh, sp, run_check=False, shape=torch.Size(p["shape"]), stride=stride)
        y = x.redistribute(mesh, tp)  # warm-up, and the result we check
        ok = torch.equal(y.to_local(), want)
        infos = R._gen_transform_infos(x._spec, y._spec)
        del y
        times = []
        for _ in range(reps):
            dist.barrier()
            t0 = time.perf_counter()
            z = x.redistribute(mesh, tp)
            z.to_local().sum()  # waits for any collective still in flight
            dt = torch.tensor([time.perf_counter() - t0])
            dist.all_reduce(dt, op=dist.ReduceOp.MAX)
            times.append(dt.item() * 1e3)
            del z
        okt = torch.tensor([1 if ok else 0])
        dist.all_reduce(okt, op=dist.ReduceOp.MIN)
        recv, kinds = account(p, infos, src_local.numel())
        rows.append({"problem": p["name"], "system": "dtensor", "times_ms": times, "ok": bool(okt.item()),
                     "recv_max": recv, "peak_bytes": 4 * (src_local.numel() + want.numel()),
                     "note": " ".join(kinds)})
    if rank == 0:
        with open(out_path, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    dist.destroy_process_group()


def main():
    n = int(sys.argv[1])
    problems = [p for p in json.load(open(sys.argv[2])) if S.P.devices(p["mesh"]) == n]
    init_file = tempfile.mktemp(prefix="dtensor_init_")
    pids = []
    for rank in range(n):
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                worker(rank, n, problems, int(sys.argv[4]), init_file, sys.argv[3])
            except Exception as e:
                print(f"sums_dtensor: rank {rank}: {type(e).__name__}: {e}", file=sys.stderr)
                code = 1
            os._exit(code)
        pids.append(pid)
    failed = sum(1 for pid in pids if os.waitpid(pid, 0)[1] != 0)
    if os.path.exists(init_file):
        os.unlink(init_file)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
