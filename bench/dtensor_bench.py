"""Baseline: PyTorch DTensor's redistribute (CPU, gloo, N local processes).

DTensor places a tensor per mesh dimension: Shard(d), Replicate() or, for a
source's pending sums, Partial(op) (op: "sum", "max" or "avg").  A
dimension sharded by several mesh axes is split in mesh order, so a type is
expressible iff every dimension lists its axes in mesh order; the others
(axis order swaps, e.g. [{y,x}] on {x, y}) are marked n/a.  The plan is
DTensor's own (_gen_transform_infos, the function redistribute uses); its
traffic and peak are accounted from the plan's steps as gloo executes them
(gloo has no all_to_all, so DTensor runs Shard->Shard as all_gather + chunk),
its time measured.  Every rank's local array holds its part of the pending
sums (problems.contribution); the result is checked element by element.

    python dtensor_bench.py N PROBLEMS_JSON OUT_JSONL REPS
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
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard
from torch.distributed.tensor import _redistribute as R

import problems as P


def placements(p, ty, sums=()):
    """None if DTensor cannot express the type."""
    names = [a for a, _ in p["mesh"]]
    out = [Partial(P.op(p)) if a in sums else Replicate() for a in names]
    for d, axes in enumerate(ty):
        pos = [names.index(a) for a in axes]
        if pos != sorted(pos):
            return None
        for i in pos:
            out[i] = Shard(d)
    return out


def box(p, ty, rank):
    """(offsets, extents) of the block `rank` holds under `ty`."""
    sizes = [s for _, s in p["mesh"]]
    names = [a for a, _ in p["mesh"]]
    coord, r = [0] * len(sizes), rank
    for i in reversed(range(len(sizes))):
        coord[i], r = r % sizes[i], r // sizes[i]
    offs, exts = [], []
    for n, axes in zip(p["shape"], ty):
        idx, parts = 0, 1
        for a in axes:
            i = names.index(a)
            idx, parts = idx * sizes[i] + coord[i], parts * sizes[i]
        b = -(-n // parts)  # ceil blocks, as torch.chunk cuts
        offs.append(min(n, idx * b))
        exts.append(min(n, (idx + 1) * b) - offs[-1])
    return offs, exts


def account(p, infos, src_elems):
    """Per device: elements received and the largest local array along
    DTensor's plan, and the live elements at its peak (input kept by the
    caller, plus one step's input and output).  Reductions as textbook
    collectives do them (reduce_scatter: k - 1 per result element;
    all_reduce (ring): 2 (k - 1) / k per element)."""
    sizes = [s for _, s in p["mesh"]]
    local, recv, largest, live = src_elems, 0, src_elems, src_elems
    kinds, planned = [], 0
    for k, info in enumerate(infos):
        g = sizes[info.mesh_dim]
        a, b = info.src_dst_placements
        if a.is_partial():
            new = local // g if b.is_shard() else local
            moved = (g - 1) * new if b.is_shard() else 2 * (g - 1) * local // g
            recv += moved
            planned += moved
            kinds.append("reduce_scatter" if b.is_shard() else "all_reduce")
        elif a.is_shard() and b.is_replicate():
            recv += (g - 1) * local
            planned += (g - 1) * local
            new = local * g
            kinds.append("all_gather")
        elif a.is_shard() and b.is_shard():
            # gloo has no all_to_all: DTensor falls back to all_gather + chunk
            recv += (g - 1) * local
            planned += local * (g - 1) // g
            largest = max(largest, local * g)
            live = max(live, src_elems + local * g + (local if k > 0 else 0))
            new = local
            kinds.append("all_to_all(as all_gather)")
        elif a.is_replicate() and b.is_shard():
            new = -(-local // g)
            kinds.append("chunk")
        else:
            raise ValueError(f"unexpected step {a} -> {b}")
        live = max(live, src_elems + new + (local if k > 0 else 0))
        local = new
        largest = max(largest, local)
    return recv, planned, largest, live, kinds


def worker(rank, n, problems, reps, init_file, out_path):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=n)
    rows = []
    for p in problems:
        sp, tp = placements(p, p["src"], P.pending(p)), placements(p, p["tgt"])
        size = dict(p["mesh"])
        if any(len(axes) > 1 and n % math.prod(size[a] for a in axes) for n, axes in
               zip(p["shape"] * 2, p["src"] + p["tgt"])):
            rows.append({"problem": p["name"], "system": "dtensor", "time_ms": -1, "ok": False,
                         "note": "n/a: an uneven dimension over several axes is nested chunks in DTensor, "
                                 "another layout than one ceil-block cut"})
            continue
        if sp is None or tp is None:
            rows.append({"problem": p["name"], "system": "dtensor", "time_ms": -1, "ok": False,
                         "note": "n/a: a dimension's axes are not in mesh order (DTensor shards in mesh order)"})
            continue
        mesh = DeviceMesh("cpu", torch.arange(n).reshape([s for _, s in p["mesh"]]),
                          mesh_dim_names=tuple(a for a, _ in p["mesh"]))
        full_stride = tuple(math.prod(p["shape"][d + 1:]) for d in range(len(p["shape"])))
        src_local = torch.from_numpy(P.contribution(p, *box(p, p["src"], rank), P.member_index(p, rank)))
        want = torch.from_numpy(P.target_values(p, *box(p, p["tgt"], rank)))
        x = DTensor.from_local(src_local, mesh, sp, run_check=False, shape=torch.Size(p["shape"]),
                               stride=full_stride)
        y = x.redistribute(mesh, tp)  # warm-up, and the result we check
        ok = torch.equal(y.to_local(), want)
        dst_spec = y._spec
        infos = R._gen_transform_infos(x._spec, dst_spec)
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
        recv, planned, largest, live, kinds = account(p, infos, src_local.numel())
        rows.append({"problem": p["name"], "system": "dtensor", "time_ms": sorted(times)[len(times) // 2],
                     "times_ms": times, "ok": bool(okt.item()), "recv_max": recv, "recv_total": recv * n,
                     "peak_elems": largest, "peak_bytes": 4 * (live + want.numel()), "collectives": kinds,
                     "note": "" if planned == recv else
                     f"with a real all_to_all (e.g. NCCL) the busiest device would receive {planned}"})
    if rank == 0:
        with open(out_path, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    dist.destroy_process_group()


def main():
    n = int(sys.argv[1])
    problems = [p for p in json.load(open(sys.argv[2])) if P.devices(p["mesh"]) == n and not P.cross_mesh(p)]
    reps = int(sys.argv[4])
    if not problems:
        return
    init_file = tempfile.mktemp(prefix="dtensor_init_")
    # fork after importing torch once: N fresh interpreters would each
    # spend seconds importing it on this 2-core machine
    pids = []
    for rank in range(n):
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                worker(rank, n, problems, reps, init_file, sys.argv[3])
            except Exception as e:
                print(f"dtensor_bench: rank {rank}: {type(e).__name__}: {e}", file=sys.stderr)
                code = 1
            os._exit(code)
        pids.append(pid)
    failed = sum(1 for pid in pids if os.waitpid(pid, 0)[1] != 0)
    if os.path.exists(init_file):
        os.unlink(init_file)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
