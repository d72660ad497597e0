"""The pending-sum suite (issue 14): tensor-parallel partial sums moved to a
sharded or replicated layout.  A problem is a dict as in problems.py (name,
suite, mesh, shape, src, tgt) plus `pending`: the source's pending-sum axes.

The contributions: the member of a pending group at index m (its coordinates
on the pending axes, mixed radix in mesh order) holds, at global row-major
index g, c(g, m) = ((31 g + 17 m) mod 13) - 6 for m > 0, and member 0 holds
what makes the group's sum the global value g mod VALUE_MODULUS.  All of it
is a small integer, so every sum is exact in f32 in any order: every system's
result is checked for equality, element by element.
"""

import math

import numpy as np

import problems as P

# Global values: g mod this (a prime; small, so member 0's contribution stays
# an exact f32 integer).
VALUE_MODULUS = 1021


def type_text(p, ty, pending=()):
    text = P.type_text(p["mesh"], p["shape"], ty)
    return text + (" sum{" + ",".join(pending) + "}" if pending else "")


def _case(name, mesh, shape, src, tgt, pending, note):
    return {"name": name, "suite": "sums", "mesh": mesh, "shape": shape, "src": src, "tgt": tgt,
            "pending": pending, "note": note}


def sums_suite():
    """At 4 and 8 ranks, two sizes each (2^16 and 2^20 global f32 elements,
    0.25 and 4 MiB of partial sums per rank on one axis):
      rs_rows: a row-parallel matmul's output to sequence parallel (psum_scatter, dim 0)
      rs_cols: the same output sharded along the hidden dimension (psum_scatter, dim 1)
      allreduce: to replicated (psum)
      dp_tp:  data parallel x tensor parallel, rows over dp, summed over tp, to columns over tp."""
    out = []
    for n in (4, 8):
        for size, m in (("s", 256), ("l", 1024)):
            shape = [m, m]
            t = [["t", n]]
            out += [
                _case(f"rs_rows_{n}{size}", t, shape, [[], []], [["t"], []], ["t"], "psum_scatter dim 0"),
                _case(f"rs_cols_{n}{size}", t, shape, [[], []], [[], ["t"]], ["t"], "psum_scatter dim 1"),
                _case(f"allreduce_{n}{size}", t, shape, [[], []], [[], []], ["t"], "psum"),
                _case(f"dp_tp_{n}{size}", [["dp", 2], ["tp", n // 2]], shape, [["dp"], []], [["dp"], ["tp"]],
                      ["tp"], "psum_scatter dim 1 within each dp row"),
            ]
    return out


QUICK = ("rs_cols_4s", "dp_tp_4s")


def member_index(p, rank):
    """The rank's index in its pending group."""
    sizes = [s for _, s in p["mesh"]]
    names = [a for a, _ in p["mesh"]]
    coord, r = [0] * len(sizes), rank
    for i in reversed(range(len(sizes))):
        coord[i], r = r % sizes[i], r // sizes[i]
    m = 0
    for a in p["pending"]:
        i = names.index(a)
        m = m * sizes[i] + coord[i]
    return m


def group_size(p):
    return math.prod(dict(p["mesh"])[a] for a in p["pending"])


def contribution(p, offsets, extents, m):
    """What member m of a pending group holds on the box [offsets, offsets+extents)."""
    index = np.zeros([1] * len(p["shape"]), dtype=np.int64)
    for d, (o, e) in enumerate(zip(offsets, extents)):
        along = np.arange(o, o + e, dtype=np.int64) * math.prod(p["shape"][d + 1:])
        index = index + along.reshape([-1 if k == d else 1 for k in range(len(p["shape"]))])
    index = np.broadcast_to(index, extents)
    def part(j):
        return (index * 31 + 17 * j) % 13 - 6
    if m > 0:
        return part(m).astype(np.float32)
    rest = sum((part(j) for j in range(1, group_size(p))), np.zeros(extents, dtype=np.int64))
    return (index % VALUE_MODULUS - rest).astype(np.float32)


def target_values(p, offsets, extents):
    return sum(contribution(p, offsets, extents, m) for m in range(group_size(p)))
