"""Baseline: XLA (JAX on CPU, N host devices).  A plain redistribution is a
jitted identity whose input sharding is the source type and whose output
sharding is the target type; one with pending sums is psum_scatter (or psum,
where the target is replicated over the pending axes; pmax for max, and for
avg one division after the sums) under shard_map, jitted, each device's partial sum coming in as one slice of a leading
dimension sharded over the pending axes.  What XLA puts in between is read
back from the compiled HLO.

    python xla_bench.py N PROBLEMS_JSON OUT_JSONL REPS
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
import problems as P  # noqa: E402
from hlo_traffic import host_transfers, traffic  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402


def spec(ty):
    return PartitionSpec(*[None if not axes else (axes[0] if len(axes) == 1 else tuple(axes)) for axes in ty])


def box(index, shape):
    """(offsets, extents) of a shard's index (a tuple of slices)."""
    offs = [s.start or 0 for s in index]
    return offs, [(s.stop if s.stop is not None else n) - o for s, n, o in zip(index, shape, offs)]


def reduce_over(x, a, dim, op):
    """x reduced with op over mesh axis a and, where dim is not None, each
    device's tile of dimension dim kept (psum_scatter's tiled cut).  JAX has
    no max reduce-scatter (psum_scatter only sums): pmax, then the tile."""
    if op != "max":
        return jax.lax.psum(x, a) if dim is None else jax.lax.psum_scatter(x, a, scatter_dimension=dim, tiled=True)
    x = jax.lax.pmax(x, a)
    if dim is None:
        return x
    tile = x.shape[dim] // jax.lax.psum(1, a)
    return jax.lax.dynamic_slice_in_dim(x, jax.lax.axis_index(a) * tile, tile, axis=dim)


def reduction(p):
    """The shard_map body: over each pending axis, a reduce-scatter on the
    target dimension it shards, an all-reduce where the target leaves it out;
    avg adds, then divides once by the group size."""
    def body(x):
        x = x[0]
        for a in P.pending(p):
            dims = [d for d, axes in enumerate(p["tgt"]) if a in axes]
            x = reduce_over(x, a, dims[0] if dims else None, P.op(p))
        return x / P.group_size(p) if P.op(p) == "avg" else x
    return body


def program(p, mesh):
    """The source array as its devices hold it, and the jitted function."""
    tgt = NamedSharding(mesh, spec(p["tgt"]))
    if not P.pending(p):
        src = NamedSharding(mesh, spec(p["src"]))
        x = jax.make_array_from_callback(tuple(p["shape"]), src,
                                         lambda index: P.target_values(p, *box(index, p["shape"])))
        return x, jax.jit(lambda a: a, in_shardings=src, out_shardings=tgt)
    in_spec = PartitionSpec(tuple(P.pending(p)), *spec(p["src"]))

    def block(index):
        return P.contribution(p, *box(index[1:], p["shape"]), index[0].start or 0)[None]
    x = jax.make_array_from_callback((P.group_size(p),) + tuple(p["shape"]), NamedSharding(mesh, in_spec), block)
    return x, jax.jit(jax.shard_map(reduction(p), mesh=mesh, in_specs=in_spec, out_specs=spec(p["tgt"])))


def run(p, reps):
    if P.pending(p) and not P.even(p):
        # shard_map's blocks are equal: an uneven target would come back
        # with the remainder rows dropped, another array
        return {"problem": p["name"], "system": "xla", "time_ms": -1, "ok": False,
                "note": "n/a: shard_map's blocks must divide each dimension (JAX has no ragged layout)"}
    mesh = Mesh(np.array(jax.devices()[:N]).reshape([s for _, s in p["mesh"]]), [a for a, _ in p["mesh"]])
    x, f = program(p, mesh)
    compiled = f.lower(x).compile()
    hlo = compiled.as_text()
    mem = compiled.memory_analysis()
    out = compiled(x)
    out.block_until_ready()
    # each shard must be the target box of its device
    ok = out.shape == tuple(p["shape"]) and out.sharding.is_equivalent_to(NamedSharding(mesh, spec(p["tgt"])),
                                                                          len(p["shape"]))
    for shard in out.addressable_shards:
        ok = ok and np.array_equal(np.asarray(shard.data), P.target_values(p, *box(shard.index, p["shape"])))
    del out
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        compiled(x).block_until_ready()
        times.append((time.perf_counter() - t0) * 1e3)
    recv, ops, largest = traffic(hlo, N)
    shape = tuple(p["shape"])
    global_elems = int(np.prod(shape))
    src_e, tgt_e = P.local_elems(p["mesh"], shape, p["src"]), P.local_elems(p["mesh"], shape, p["tgt"])
    temp = getattr(mem, "temp_size_in_bytes", 0) if mem is not None else 0
    arg = getattr(mem, "argument_size_in_bytes", 4 * src_e) if mem is not None else 4 * src_e
    outb = getattr(mem, "output_size_in_bytes", 4 * tgt_e) if mem is not None else 4 * tgt_e
    alias = getattr(mem, "alias_size_in_bytes", 0) if mem is not None else 0
    return {
        "problem": p["name"], "system": "xla", "time_ms": float(np.median(times)), "times_ms": times, "ok": bool(ok),
        "recv_max": max(recv), "recv_total": sum(recv),
        "peak_bytes": int(arg + outb + temp - alias), "temp_bytes": int(temp),
        "peak_elems": max(src_e, tgt_e, largest),
        "collectives": ops, "host_transfers": host_transfers(hlo),
        # gathering to the whole array when the target is not the whole array
        "full_remat": largest >= global_elems > tgt_e,
        "note": "",
    }


def main():
    problems = [p for p in json.load(open(sys.argv[2])) if P.devices(p["mesh"]) == N and not P.cross_mesh(p)]
    reps = int(sys.argv[4])
    with open(sys.argv[3], "a") as out:
        for p in problems:
            try:
                row = run(p, reps)
            except Exception as e:  # XLA's refusal of a problem is a result, not a crash of the benchmark
                note = (f"n/a: a jax.Array's sharding must divide each dimension ({type(e).__name__})"
                        if type(e).__name__ == "IndivisibleError" else
                        f"xla: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
                row = {"problem": p["name"], "system": "xla", "time_ms": -1, "ok": False, "note": note}
            out.write(json.dumps(row) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
