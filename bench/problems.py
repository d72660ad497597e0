"""The benchmark's problems, in the `redist` command's notation: a fixed-seed
random suite in the spirit of the paper's evaluation, hard cases, uneven
arrays, moves between meshes, larger arrays, one set of problems at 4, 8
and 16 ranks, and tensor-parallel partial sums (issue 14).  A problem is a
dict:

    name, suite, mesh [[axis, size], ...], shape [N_0, ...],
    src / tgt: per dimension the list of mesh axes, major to minor,
    pending: the source's pending-sum axes (absent: none, a plain problem),
    op: the operation pending over them, "sum" (absent), "max" or "avg",
    and, for a move between meshes, from_ranks / to_ranks: the world rank of
    each device of the source mesh `mesh` and of the target mesh `to_mesh`.

A sharded dimension need not divide: device c along it holds the ceil block
[c*b, (c+1)*b) clipped at N, b = ceil(N/P) (docs/model.md, Part 2).

The values: element g of the global row-major order is v = g mod
VALUE_MODULUS.  Where the source has pending sums, the member of a pending
group of k at index m (its coordinates on the pending axes, mixed radix in
mesh order) holds part(g, m) = ((31 g + 17 m) mod 13) - 6 for m > 0, and
member 0 what makes the group's sum v (k v for avg, whose one division by k
then gives v); a plain problem is the group of one.  For max, member
g mod k holds v and every other member v - 7 + part(g, m), in [v - 13,
v - 1]: which member holds the maximum changes from element to element, and
a sum or a min would be wrong.  All of it is integers inside f32's exact
range (exact_in_f32 checks each problem), so every sum is exact in any
order, the division by k exact, and every system's result is checked for
equality, element by element.
"""

import math
import random

# Elements of the larger of the source and target local arrays we aim for
# (f32: 2**19 elements = 2 MiB per device).
TARGET_LOCAL = 1 << 19

# A prime, so only a shift by a multiple of it escapes the check (arrays
# below it hold exactly their index), 765 below 2^24 so that a pending
# group of up to 64 members (parts within +-6) sums exactly in f32.
VALUE_MODULUS = 16776451


def pending(p):
    return p.get("pending", [])


def op(p):
    """The operation pending over the source's pending axes."""
    return p.get("op", "sum")


def group_size(p):
    """Devices that each hold a part of one element's sum (1: plain)."""
    return math.prod(dict(p["mesh"])[a] for a in pending(p))


def member_index(p, rank):
    """The index of the device at position `rank` of the source mesh in its
    pending group."""
    sizes = [s for _, s in p["mesh"]]
    names = [a for a, _ in p["mesh"]]
    coord, r = [0] * len(sizes), rank
    for i in reversed(range(len(sizes))):
        coord[i], r = r % sizes[i], r // sizes[i]
    m = 0
    for a in pending(p):
        i = names.index(a)
        m = m * sizes[i] + coord[i]
    return m


def contribution(p, offsets, extents, m):
    """What member m of a pending group holds on the box [offsets,
    offsets + extents), as the MPI driver fills it (driver.cpp's fill_box),
    without building the rest of the array."""
    import numpy as np
    shape = p["shape"]
    index = np.zeros([1] * len(shape), dtype=np.int64)
    for d, (o, e) in enumerate(zip(offsets, extents)):
        along = np.arange(o, o + e, dtype=np.int64) * math.prod(shape[d + 1:])
        index = index + along.reshape([-1 if k == d else 1 for k in range(len(shape))])
    index = np.broadcast_to(index, extents)

    def part(j):
        return (index * 31 + 17 * j) % 13 - 6
    k, value = group_size(p), index % VALUE_MODULUS
    if op(p) == "max":
        return np.where(index % k == m, value, value - 7 + part(m)).astype(np.float32)
    if m > 0:
        return part(m).astype(np.float32)
    rest = sum((part(j) for j in range(1, k)), np.zeros(extents, dtype=np.int64))
    total = k * value if op(p) == "avg" else value
    return (total - rest).astype(np.float32)


def exact_in_f32(p):
    """Raises unless every value, partial sum and avg's k v stay integers
    below 2^24 (exact in f32) on problem p."""
    k = group_size(p)
    largest = min(math.prod(p["shape"]), VALUE_MODULUS) * (k if op(p) == "avg" else 1) + 6 * k
    if largest >= 1 << 24:
        raise RuntimeError(f"problem {p['name']}: its {op(p)} values reach {largest}, not exact in f32 (2^24)")
    return p


def target_values(p, offsets, extents):
    """The box of the global array: what every system must leave there."""
    return contribution(dict(p, pending=[]), offsets, extents, 0)


def mesh_text(mesh):
    return "{" + ", ".join(f"{a}:{s}" for a, s in mesh) + "}"


def type_text(mesh, shape, ty, sums=(), sum_op="sum"):
    # the local size is left to the command: the ceil block
    text = "[" + ", ".join(f"{{{','.join(axes)}}}{n}" if axes else str(n) for n, axes in zip(shape, ty)) + "]"
    return text + (f" {sum_op}{{" + ",".join(sums) + "}" if sums else "")


def src_text(p):
    return type_text(p["mesh"], p["shape"], p["src"], pending(p), op(p))


def tgt_text(p):
    return type_text(target_mesh(p), p["shape"], p["tgt"])


def local_elems(mesh, shape, ty):
    """Elements of the largest local array (the full ceil block)."""
    size = dict(mesh)
    return math.prod(-(-n // math.prod(size[a] for a in axes)) for n, axes in zip(shape, ty))


def devices(mesh):
    return math.prod(s for _, s in mesh)


def target_mesh(p):
    return p.get("to_mesh", p["mesh"])


def cross_mesh(p):
    return "to_mesh" in p


def world(p):
    """Ranks the problem runs on: the meshes' devices, or the highest rank
    of a placed mesh + 1."""
    if not cross_mesh(p):
        return devices(p["mesh"])
    return 1 + max(p["from_ranks"] + p["to_ranks"])


def even(p):
    def divides(mesh, ty):
        size = dict(mesh)
        return all(n % math.prod(size[a] for a in axes) == 0 for n, axes in zip(p["shape"], ty))
    return divides(p["mesh"], p["src"]) and divides(target_mesh(p), p["tgt"])


def placed_text(mesh, ranks):
    return f"{mesh_text(mesh)} @ [{', '.join(map(str, ranks))}]"


def _fit_shape(mesh, src, tgt, rng, unit):
    """Smallest divisible shape, then doubled at random dims until the larger
    local array reaches TARGET_LOCAL elements."""
    size = dict(mesh)
    shape = []
    for a, b in zip(src, tgt):
        pa = math.prod(size[x] for x in a)
        pb = math.prod(size[x] for x in b)
        shape.append(unit * pa * pb // math.gcd(pa, pb))
    while True:
        d = rng.randrange(len(shape))
        bigger = list(shape)
        bigger[d] *= 2
        if max(local_elems(mesh, bigger, src), local_elems(mesh, bigger, tgt)) > TARGET_LOCAL:
            # try the other dimensions before giving up
            grown = False
            for d2 in range(len(shape)):
                bigger = list(shape)
                bigger[d2] *= 2
                if max(local_elems(mesh, bigger, src), local_elems(mesh, bigger, tgt)) <= TARGET_LOCAL:
                    shape = bigger
                    grown = True
                    break
            if not grown:
                return shape
        else:
            shape = bigger


def _random_type(mesh, rank, rng):
    ty = [[] for _ in range(rank)]
    axes = [a for a, _ in mesh]
    rng.shuffle(axes)
    for a in axes:
        d = rng.randrange(rank + 1)  # rank = replicated over a
        if d < rank:
            ty[d].append(a)
    return ty


MESHES = {
    8: [[2, 4], [4, 2], [2, 2, 2]],
    16: [[2, 8], [4, 4], [8, 2], [2, 2, 4], [2, 4, 2], [4, 2, 2], [2, 2, 2, 2]],
}
AXIS_NAMES = ["x", "y", "z", "w"]


def random_suite(count=16, seed=2112):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = 8 if len(out) % 2 == 0 else 16
        sizes = rng.choice(MESHES[n])
        mesh = [[AXIS_NAMES[i], s] for i, s in enumerate(sizes)]
        rank = rng.randint(2, 4)
        src = _random_type(mesh, rank, rng)
        tgt = _random_type(mesh, rank, rng)
        if src == tgt:
            continue
        shape = _fit_shape(mesh, src, tgt, rng, 1)
        out.append(dict(name=f"rand{len(out):02d}", suite="random", mesh=mesh, shape=shape, src=src, tgt=tgt))
    return out


def _hard(name, mesh, src, tgt, note, seed):
    rng = random.Random(seed)
    shape = _fit_shape(mesh, src, tgt, rng, 1)
    return dict(name=name, suite="hard", mesh=mesh, shape=shape, src=src, tgt=tgt, note=note)


def hard_suite():
    m44 = [["x", 4], ["y", 4]]
    m28 = [["x", 2], ["y", 8]]
    m222 = [["x", 2], ["y", 2], ["z", 2]]
    cases = [
        ("replicate_all", m44, [["x"], ["y"]], [[], []], "gathering everything is the only plan"),
        ("replicate_most", m222, [["x", "y"], ["z"]], [["y"], []], "target replicated over most axes"),
        ("transpose_44", m44, [["x"], ["y"]], [["y"], ["x"]], "transposed sharding, equal axes"),
        ("transpose_28", m28, [["x"], ["y"]], [["y"], ["x"]], "transposed sharding, unequal axes"),
        ("swap_44", m44, [["x", "y"], []], [["y", "x"], []], "axis order swap within a dimension"),
        ("swap_28", m28, [["x", "y"], []], [["y", "x"], []], "axis order swap, unequal axes"),
        ("move_dim_28", m28, [["y"], [], ["x"]], [[], ["x", "y"], []], "both axes move to another dimension"),
        ("rotate_222", m222, [["x"], ["y"], ["z"]], [["y"], ["z"], ["x"]], "axes rotate over three dimensions"),
        ("np2_23", [["a", 2], ["b", 3]], [["a"], ["b"]], [["b"], ["a"]], "non-power-of-two mesh, transpose"),
        ("np2_34", [["a", 3], ["b", 4]], [["a", "b"], []], [["b", "a"], []], "non-power-of-two mesh, order swap"),
        ("paper_36", [["a", 3], ["b", 6]], [["a"]], [["b"]], "the paper's example: needs a sub-axis"),
        ("np2_shift_26", [["a", 2], ["b", 6]], [["a"], ["b"]], [["b"], ["a"]], "unequal non-power-of-two"),
    ]
    return [_hard(n, m, s, t, note, 7 + i) for i, (n, m, s, t, note) in enumerate(cases)]


def uneven_suite():
    """Dimensions that the mesh does not divide: a GPT-2 vocabulary (50257
    rows) over 8 and 16, primes, and fewer rows than devices (empty boxes)."""
    m8, m16 = [["x", 8]], [["x", 16]]
    cases = [
        ("vocab_rows_cols", m8, [50257, 40], [["x"], []], [[], ["x"]], "50257 rows over 8 -> columns"),
        ("vocab_cols_rows", m8, [50257, 40], [[], ["x"]], [["x"], []], "columns -> 50257 rows over 8"),
        ("vocab_gather", m8, [50257, 40], [["x"], []], [[], []], "50257 rows over 8 -> replicated"),
        ("vocab_16_2d", [["x", 4], ["y", 4]], [50257, 48], [["x", "y"], []], [["y"], ["x"]],
         "50257 rows over 16 -> 2-D blocks"),
        ("primes_2d", [["x", 2], ["y", 4]], [1009, 1013], [["x"], ["y"]], [["y"], ["x"]], "prime extents, transposed"),
        ("fewer_rows", m16, [5, 199999], [["x"], []], [[], ["x"]], "5 rows over 16 devices (11 empty boxes)"),
        ("primes_3d", [["x", 2], ["y", 2], ["z", 2]], [97, 89, 61], [["x"], ["y", "z"], []],
         [[], ["x"], ["z", "y"]], "prime extents, three dimensions"),
    ]
    return [dict(name=n, suite="uneven", mesh=m, shape=sh, src=s, tgt=t, note=note) for n, m, sh, s, t, note in cases]


def cross_mesh_suite():
    """Moves between two placed meshes of one world of 8 ranks."""
    def case(name, mesh, from_ranks, to_mesh, to_ranks, shape, src, tgt, note):
        return dict(name=name, suite="cross-mesh", mesh=mesh, from_ranks=from_ranks, to_mesh=to_mesh,
                    to_ranks=to_ranks, shape=shape, src=src, tgt=tgt, note=note)
    x4, x8, m24, m42 = [["x", 4]], [["x", 8]], [["x", 2], ["y", 4]], [["x", 4], ["y", 2]]
    r = list(range(8))
    return [
        case("grow_4_8", x4, r[:4], x8, r, [4096, 512], [["x"], []], [["x"], []], "4 -> 8 ranks"),
        case("shrink_8_4", x8, r, x4, r[4:], [4096, 512], [["x"], []], [[], ["x"]], "8 ranks -> submesh of 4"),
        case("move_disjoint", x4, r[:4], x4, r[4:], [4096, 256], [["x"], []], [["x"], []],
             "same layout on disjoint ranks"),
        case("mesh_24_42", m24, r, m42, r, [2048, 1024], [["x"], ["y"]], [["x"], ["y"]], "(2,4) -> (4,2)"),
        case("permuted", m24, r, m24, [3, 1, 2, 0, 7, 5, 6, 4], [2048, 1024], [["x"], ["y"]], [["y"], ["x"]],
             "permuted target rank list, transposed"),
        case("grow_uneven", x4, r[:4], m24, r, [50257, 40], [["x"], []], [["y"], ["x"]],
             "4 -> (2,4), uneven rows"),
    ]


def large_suite():
    """16 to 64 MiB per rank."""
    cases = [
        ("large_rows_cols_8", [["x", 8]], [8192, 4096], [["x"], []], [[], ["x"]], "16 MiB per rank"),
        ("large_rows_cols_4", [["x", 4]], [8192, 8192], [["x"], []], [[], ["x"]], "64 MiB per rank"),
        ("large_transpose_44", [["x", 4], ["y", 4]], [8192, 8192], [["x"], ["y"]], [["y"], ["x"]], "16 MiB per rank"),
        ("large_swap_28", [["x", 2], ["y", 8]], [16384, 4096], [["x", "y"], []], [["y", "x"], []], "16 MiB per rank"),
        ("large_vocab", [["x", 8]], [50257, 1024], [["x"], []], [[], ["x"]], "uneven, 25 MiB per rank"),
    ]
    return [dict(name=n, suite="large", mesh=m, shape=sh, src=s, tgt=t, note=note) for n, m, sh, s, t, note in cases]


def scale_suite():
    """The same problems on 4, 8 and 16 ranks, 2 MiB per rank."""
    out = []
    for n in (4, 8, 16):
        rows = 1024 * n
        out += [
            dict(name=f"rows_cols_{n}", suite="scale", mesh=[["x", n]], shape=[rows, 512], src=[["x"], []],
                 tgt=[[], ["x"]], note="rows -> columns"),
            dict(name=f"transpose_{n}", suite="scale", mesh=[["x", 2], ["y", n // 2]], shape=[rows, 512],
                 src=[["x"], ["y"]], tgt=[["y"], ["x"]], note="transposed 2-D blocks"),
            dict(name=f"swap_{n}", suite="scale", mesh=[["x", 2], ["y", n // 2]], shape=[rows, 512],
                 src=[["x", "y"], []], tgt=[["y", "x"], []], note="axis order swap"),
        ]
    return out


def sums_suite():
    """Partial sums moved to a sharded or replicated layout, at 4 and 8
    ranks, two sizes each (2^16 and 2^20 global f32 elements, 0.25 and 4 MiB
    of partial sums per rank on one axis), then other_ops():
      rs_rows: a row-parallel matmul's output to sequence parallel (psum_scatter, dim 0)
      rs_cols: the same output sharded along the hidden dimension (psum_scatter, dim 1)
      allreduce: to replicated (psum)
      dp_tp:  data parallel x tensor parallel, rows over dp, summed over tp, to columns over tp."""
    def case(name, mesh, shape, src, tgt, sums, note):
        return dict(name=name, suite="sums", mesh=mesh, shape=shape, src=src, tgt=tgt, pending=sums, note=note)
    out = []
    for n in (4, 8):
        for size, m in (("s", 256), ("l", 1024)):
            shape = [m, m]
            t = [["t", n]]
            out += [
                case(f"rs_rows_{n}{size}", t, shape, [[], []], [["t"], []], ["t"], "psum_scatter dim 0"),
                case(f"rs_cols_{n}{size}", t, shape, [[], []], [[], ["t"]], ["t"], "psum_scatter dim 1"),
                case(f"allreduce_{n}{size}", t, shape, [[], []], [[], []], ["t"], "psum"),
                case(f"dp_tp_{n}{size}", [["dp", 2], ["tp", n // 2]], shape, [["dp"], []], [["dp"], ["tp"]],
                     ["tp"], "psum_scatter dim 1 within each dp row"),
            ]
    return out + other_ops()


def other_ops():
    """max and avg (DTensor's Partial("max"), Partial("avg")) on the shapes
    of some sum problems: reduce-scatter and all-reduce at 4 ranks on 4 MiB,
    the same reduce-scatter with 1021 rows (uneven: ceil blocks of 256, the
    last 253), and dp_tp at 8 ranks."""
    t4, dp_tp8 = [["t", 4]], [["dp", 2], ["tp", 4]]
    shapes = [
        ("rs_rows_4l", t4, [1024, 1024], [[], []], [["t"], []], ["t"], "reduce-scatter dim 0"),
        ("allreduce_4l", t4, [1024, 1024], [[], []], [[], []], ["t"], "all-reduce"),
        ("rs_rows_4u", t4, [1021, 1024], [[], []], [["t"], []], ["t"], "reduce-scatter dim 0, uneven"),
        ("dp_tp_8l", dp_tp8, [1024, 1024], [["dp"], []], [["dp"], ["tp"]], ["tp"],
         "reduce-scatter dim 1 within each dp row"),
    ]
    return [exact_in_f32(dict(name=f"{sum_op}_{name}", suite="sums", mesh=mesh, shape=shape, src=src, tgt=tgt,
                              pending=sums, op=sum_op, note=f"{sum_op} {note}"))
            for sum_op in ("max", "avg") for name, mesh, shape, src, tgt, sums, note in shapes]


SUITES = {"random": random_suite, "hard": hard_suite, "uneven": uneven_suite, "cross-mesh": cross_mesh_suite,
          "large": large_suite, "scale": scale_suite, "sums": sums_suite}
# `make bench`'s suites; the pending sums are `make bench-sums`.
PLAIN_SUITES = [s for s in SUITES if s != "sums"]
# `make bench-quick`: a smoke test of every path of the harness.
QUICK = ("rand00", "transpose_44", "vocab_rows_cols", "grow_4_8", "rs_cols_4s", "dp_tp_4s")


def all_problems():
    return [p for make in SUITES.values() for p in make()]


def meshes_text(p):
    if cross_mesh(p):
        return f"{placed_text(p['mesh'], p['from_ranks'])} -> {placed_text(p['to_mesh'], p['to_ranks'])}"
    return mesh_text(p["mesh"])


def describe(p):
    return f"{p['name']}: {meshes_text(p)} {src_text(p)} -> {tgt_text(p)}"


if __name__ == "__main__":
    for p in all_problems():
        print(describe(p), local_elems(p["mesh"], p["shape"], p["src"]),
              local_elems(target_mesh(p), p["shape"], p["tgt"]))
