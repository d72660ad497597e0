"""The benchmark's problems: a fixed-seed random suite in the spirit of the
paper's evaluation and a suite of hard cases, in the `redist` command's
notation.  A problem is a dict:

    name, suite, mesh [[axis, size], ...], shape [N_0, ...],
    src / tgt: per dimension the list of mesh axes, major to minor.
"""

import math
import random

# Elements of the larger of the source and target local arrays we aim for
# (f32: 2**19 elements = 2 MiB per device).
TARGET_LOCAL = 1 << 19


def mesh_text(mesh):
    return "{" + ", ".join(f"{a}:{s}" for a, s in mesh) + "}"


def type_text(mesh, shape, ty):
    size = dict(mesh)
    dims = []
    for n, axes in zip(shape, ty):
        if not axes:
            dims.append(str(n))
        else:
            p = math.prod(size[a] for a in axes)
            dims.append(f"{n // p}{{{','.join(axes)}}}{n}")
    return "[" + ", ".join(dims) + "]"


def local_elems(mesh, shape, ty):
    size = dict(mesh)
    return math.prod(n // math.prod(size[a] for a in axes) for n, axes in zip(shape, ty))


def devices(mesh):
    return math.prod(s for _, s in mesh)


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


def all_problems():
    return random_suite() + hard_suite()


def describe(p):
    return (f"{p['name']}: mesh {mesh_text(p['mesh'])} "
            f"{type_text(p['mesh'], p['shape'], p['src'])} -> {type_text(p['mesh'], p['shape'], p['tgt'])}")


if __name__ == "__main__":
    for p in all_problems():
        print(describe(p), local_elems(p["mesh"], p["shape"], p["src"]), local_elems(p["mesh"], p["shape"], p["tgt"]))
