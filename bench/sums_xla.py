"""The pending-sum suite on XLA (JAX on CPU, N host devices): psum_scatter
(or psum, where the target is replicated over the pending axes) under
shard_map, jitted.  Each device's partial sum comes in as one slice of a
leading dimension sharded over the pending axes.

    python sums_xla.py N PROBLEMS_JSON OUT_JSONL REPS
"""

import json
import os
import sys
import time

N = int(sys.argv[1])
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_force_host_platform_device_count={N}").strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import numpy as np  # noqa: E402
from hlo_traffic import traffic  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402
from xla_bench import spec  # noqa: E402

import sums_problems as S  # noqa: E402


def reduction(p):
    """The body: a psum_scatter on the target dimension each pending axis
    shards, a psum over the pending axes the target leaves out."""
    def body(x):
        x = x[0]
        for a in p["pending"]:
            dims = [d for d, axes in enumerate(p["tgt"]) if a in axes]
            x = jax.lax.psum_scatter(x, a, scatter_dimension=dims[0], tiled=True) if dims else jax.lax.psum(x, a)
        return x
    return body


def run(p, reps):
    names = [a for a, _ in p["mesh"]]
    mesh = Mesh(np.array(jax.devices()[:N]).reshape([s for _, s in p["mesh"]]), names)
    pending = tuple(p["pending"])
    in_spec = PartitionSpec(pending, *spec(p["src"]))
    out_spec = spec(p["tgt"])
    shape = (S.group_size(p),) + tuple(p["shape"])
    ins = NamedSharding(mesh, in_spec)

    def block(index):
        m = index[0].start or 0
        offs = [s.start or 0 for s in index[1:]]
        exts = [(s.stop if s.stop is not None else n) - o for s, n, o in zip(index[1:], p["shape"], offs)]
        return S.contribution(p, offs, exts, m)[None]
    x = jax.make_array_from_callback(shape, ins, block)
    f = jax.jit(jax.shard_map(reduction(p), mesh=mesh, in_specs=in_spec, out_specs=out_spec))
    compiled = f.lower(x).compile()
    mem = compiled.memory_analysis()
    out = compiled(x)
    out.block_until_ready()
    ok = True
    for shard in out.addressable_shards:
        offs = [s.start or 0 for s in shard.index]
        exts = [(s.stop if s.stop is not None else n) - o for s, n, o in zip(shard.index, p["shape"], offs)]
        ok = ok and np.array_equal(np.asarray(shard.data), S.target_values(p, offs, exts))
    del out
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        compiled(x).block_until_ready()
        times.append((time.perf_counter() - t0) * 1e3)
    recv, ops, _ = traffic(compiled.as_text(), N)
    peak = (mem.argument_size_in_bytes + mem.output_size_in_bytes + mem.temp_size_in_bytes
            - mem.alias_size_in_bytes)
    return {"problem": p["name"], "system": "xla", "times_ms": times, "ok": bool(ok), "recv_max": max(recv),
            "peak_bytes": int(peak), "note": " ".join(ops)}


def main():
    problems = [p for p in json.load(open(sys.argv[2])) if S.P.devices(p["mesh"]) == N]
    with open(sys.argv[3], "a") as out:
        for p in problems:
            out.write(json.dumps(run(p, int(sys.argv[4]))) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
