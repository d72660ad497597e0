#!/usr/bin/env python3
"""Cases of ranks that disagree, for tests/e2e/disagree.sh: one line per case,
"NAME|ODD_RANK|FLAGS_A|FLAGS_B", where every rank but ODD_RANK generates its
header with `redist gen FLAGS_A` and ODD_RANK with `redist gen FLAGS_B`
(evaluated by the shell: $out/hybrid.plan is a plan file with a via line).

First the issue's cases (4 ranks), then COUNT random problems on 4 ranks
with one aspect mutated on one rank: the mesh's axis order, the source or
target layout, the element type (same size), or the strategy.  Usage:
disagree_cases.py SEED COUNT."""
import random
import sys


def flags(mesh, src, tgt, dtype="f32", strategy="collectives"):
    return f"--strategy {strategy} --mesh '{mesh}' --from '{src}' --to '{tgt}' --dtype {dtype}"


FIXED = [
    # The reports: another mesh order, another target, another layout kind.
    ("mesh order on rank 1", 1,
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]"), flags("{y:2, x:2}", "[{x}8, {y}8]", "[{y}8, {x}8]")),
    ("target on rank 1 (no steps there)", 1,
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]"), flags("{x:2, y:2}", "[{x}8, {y}8]", "[{x}8, {y}8]")),
    ("target on rank 1 (no groups there)", 1,
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]"), flags("{x:2, y:2}", "[{x}8, {y}8]", "[8, {x}8]")),
    ("f32 against i32 on rank 3", 3,
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]"),
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]", dtype="i32")),
    ("exchange against collectives on rank 2", 2,
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]"),
     flags("{x:2, y:2}", "[{x}8, {y}8]", "[{y}8, {x}8]", strategy="exchange")),
    ("exchange: f32 against i32 on rank 0", 0,
     flags("{x:2, y:2}", "[{x}5, {y}8]", "[{y}5, {x}8]", strategy="exchange"),
     flags("{x:2, y:2}", "[{x}5, {y}8]", "[{y}5, {x}8]", dtype="i32", strategy="exchange")),
    ("a hybrid against the collectives on rank 1", 1,
     flags("{a:2, b:2}", "[{b}64, {a}64]", "[64, 64]"),
     flags("{a:2, b:2}", "[{b}64, {a}64]", "[64, 64]") + ' --plan "$out/hybrid.plan"'),
    ("exchange: another target mesh on rank 1", 1,
     f"--strategy exchange --from-mesh '{{x:4}}' --to-mesh '{{y:4}}' --from '[{{x}}12]' --to '[{{y}}12]'",
     f"--strategy exchange --from-mesh '{{x:4}}' --to-mesh '{{y:4}} @ [3, 2, 1, 0]' --from '[{{x}}12]' --to '[{{y}}12]'"),
]

MESHES = ["{x:2, y:2}", "{y:2, x:2}"]


def layout(rng, sizes, even):
    """Axes x and y each on dim 0, dim 1 or neither, in a random order."""
    dims = [[], []]
    for axis in rng.sample(["x", "y"], 2):
        d = rng.choice([0, 1, None])
        if d is not None:
            dims[d].append(axis)
    parts = [("{" + ",".join(axes) + "}" if axes else "") + str(n) for axes, n in zip(dims, sizes)]
    return "[" + ", ".join(parts) + "]"


def random_case(rng, k):
    even = rng.random() < 0.6
    sizes = [rng.choice([4, 8, 12]) if even else rng.choice([5, 6, 7, 9]) for _ in range(2)]
    mesh = rng.choice(MESHES)
    src, tgt = layout(rng, sizes, even), layout(rng, sizes, even)
    strategy = "collectives" if even else "exchange"
    dtype = rng.choice(["f32", "i32", "f64", "u16"])
    base = dict(mesh=mesh, src=src, tgt=tgt, dtype=dtype, strategy=strategy)
    odd = dict(base)
    what = rng.choice(["mesh", "source", "target", "dtype", "strategy"])
    if what == "mesh":
        odd["mesh"] = MESHES[1 - MESHES.index(mesh)]
    elif what in ("source", "target"):
        key = "src" if what == "source" else "tgt"
        while odd[key] == base[key]:
            odd[key] = layout(rng, sizes, even)
    elif what == "dtype":
        odd["dtype"] = {"f32": "i32", "i32": "f32", "f64": "i64", "u16": "f16"}[dtype]
    else:
        odd["strategy"] = "exchange" if strategy == "collectives" else "collectives"
        if not even:  # the collectives take even sizes only: mutate the target instead
            odd["strategy"] = strategy
            while odd["tgt"] == base["tgt"]:
                odd["tgt"] = layout(rng, sizes, even)
            what = "target"
    return (f"random {k}: {what} on rank", rng.randrange(4), flags(**base), flags(**odd))


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for name, odd, a, b in FIXED + [random_case(rng, k) for k in range(count)]:
        if name.endswith(" on rank"):
            name += f" {odd}"
        print(f"{name}|{odd}|{a}|{b}")


if __name__ == "__main__":
    main()
