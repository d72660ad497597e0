"""redist.jax on CPU host devices (16, so that the benchmark's 16-device
problem fits; the random problems use 8):
 - random problems: reshard's every shard equals the target box of the
   array (and jax.device_put's shard) on every device;
 - the benchmark problems where XLA falls back to full rematerialization:
   reshard's compiled HLO has no collective as large as the global array
   (bench/hlo_traffic.py reads it) and its memory_analysis() temp size is
   below XLA's own for the same move;
 - pending sums: JAX's unreduced axes (from jnp.dot's out_sharding) to
   sharded, replicated and unreduced targets, values equal the product;
 - layout/sharding round trip, and one-line errors for what redist.jax
   cannot run (uneven dimensions, which JAX itself refuses too) and for
   arguments it cannot take (a traced array whose sharding is not known);
 - reshard under jax.jit and jax.grad (its gradient the reverse move) equal
   to the un-jitted values, and on a mesh of Explicit axes without
   jax.set_mesh; its gradient with unreduced axes refused in one line."""
import math
import os
import random
import sys

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=16").strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "bench"), os.path.dirname(os.path.abspath(__file__))]

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import problems  # noqa: E402  (bench/problems.py)
import redist  # noqa: E402
import redist.jax as rjax  # noqa: E402
import checks  # noqa: E402
from checks import one_line_error, test  # noqa: E402
from hlo_traffic import traffic  # noqa: E402  (bench/hlo_traffic.py)

RANDOM_CASES, BETWEEN_MESHES_CASES = 120, 24
MESHES_8 = [[("x", 8)], [("x", 2), ("y", 4)], [("x", 4), ("y", 2)], [("x", 2), ("y", 2), ("z", 2)]]


def make_mesh(axes):
    n = int(np.prod([s for _, s in axes]))
    return Mesh(np.array(jax.devices()[:n]).reshape([s for _, s in axes]), [a for a, _ in axes])


def spec_of(dims):
    return P(*[None if not a else (a[0] if len(a) == 1 else tuple(a)) for a in dims])


def random_type(axes, ndim, rng):
    names = [a for a, _ in axes]
    rng.shuffle(names)
    dims = [[] for _ in range(ndim)]
    for a in names:
        k = rng.randrange(ndim + 1)
        if k < ndim:
            dims[k].append(a)
    return dims


def exact_shards(out, sharding, want):
    """Every device's shard of out is the box of `want` that sharding gives it."""
    return out.sharding.is_equivalent_to(sharding, want.ndim) and all(
        np.array_equal(np.asarray(s.data), want[s.index]) for s in out.addressable_shards)


@test("random problems on 8 devices: reshard's every shard is the target box (%d cases)" % RANDOM_CASES)
def random_problems():
    rng = random.Random(17)
    dtypes = [np.float32, np.int32, jnp.bfloat16, np.float64]
    bad = []
    steps = 0
    for case in range(RANDOM_CASES):
        axes = rng.choice(MESHES_8)
        size = dict(axes)
        ndim = rng.randint(1, 3)
        src, tgt = random_type(axes, ndim, rng), random_type(axes, ndim, rng)
        shape = tuple(math.lcm(math.prod(size[a] for a in s), math.prod(size[a] for a in t)) * rng.randint(1, 3)
                      for s, t in zip(src, tgt))
        mesh = make_mesh(axes)
        want = np.arange(int(np.prod(shape))).reshape(shape).astype(dtypes[case % len(dtypes)])
        x = jax.device_put(want, NamedSharding(mesh, spec_of(src)))
        target = NamedSharding(mesh, spec_of(tgt))
        out = rjax.reshard(x, target)
        steps += len(rjax.resharder(x.sharding, target, shape, want.dtype)[0].step_texts)
        if not exact_shards(out, target, want) or not exact_shards(jax.device_put(x, target), target, want):
            bad.append("%s %s -> %s shape %s" % (axes, src, tgt, shape))
    return not bad, "%d plan steps run; wrong: %s" % (steps, bad[:3])


def remat_problems():
    """The benchmark's problems where XLA gathers to the global shape
    (bench/results/summary.txt: move_dim_28, np2_23, rand01, rand11, rand13,
    rand15)."""
    names = {"move_dim_28", "np2_23", "rand01", "rand11", "rand13", "rand15"}
    return [p for p in problems.all_problems() if p["name"] in names]


def compiled_move(fn, x):
    c = fn.lower(x).compile()
    return c, traffic(c.as_text(), x.sharding.mesh.devices.size)


for p in remat_problems():
    @test("bench %s: no collective above the plan's peak, temp below XLA's, every shard right" % p["name"])
    def against_xla(p=p):
        mesh = make_mesh(p["mesh"])
        shape = tuple(p["shape"])
        src, tgt = NamedSharding(mesh, spec_of(p["src"])), NamedSharding(mesh, spec_of(p["tgt"]))
        want = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        x = jax.device_put(want, src)
        plan, move = rjax.resharder(src, tgt, shape, np.float32)
        ours, (_, _, our_largest) = compiled_move(jax.jit(move), x)
        xla, (_, _, xla_largest) = compiled_move(jax.jit(lambda a: a, in_shardings=src, out_shardings=tgt), x)
        global_elems = want.size
        our_temp = ours.memory_analysis().temp_size_in_bytes
        xla_temp = xla.memory_analysis().temp_size_in_bytes
        right = exact_shards(ours(x), tgt, want)
        detail = ("plan %s; largest collective result %d elements (XLA %d, global %d); temp %d B (XLA %d B)"
                  % ("; ".join(plan.step_texts), our_largest, xla_largest, global_elems, our_temp, xla_temp))
        peak_elems = plan.peak_bytes // plan.elem_bytes
        return right and our_largest <= peak_elems < global_elems and our_temp < xla_temp, detail


@test("resharder inside a larger jit: the move composes with other operations")
def inside_jit():
    mesh = make_mesh([("x", 2), ("y", 4)])
    src, tgt = NamedSharding(mesh, P(None, ("x", "y"))), NamedSharding(mesh, P("y", "x"))
    want = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    x = jax.device_put(want, src)
    _, move = rjax.resharder(src, tgt, want.shape, want.dtype)
    out = jax.jit(lambda a: move(a * 2) + 1)(x)
    return exact_shards(out, tgt, want * 2 + 1), str(out.sharding.spec)


@test("layout and sharding: PartitionSpec with tuples of axes to redist's type and back")
def round_trip():
    mesh = make_mesh([("x", 2), ("y", 4)])
    mesh_text, type_text = rjax.layout(NamedSharding(mesh, P(("y", "x"), None)), (8, 6))
    back = rjax.sharding(mesh, [["y", "x"], []])
    ok = (mesh_text, type_text) == ("{x:2, y:4}", "[{y,x}8, 6]") and back.spec == P(("y", "x"), None)
    return ok, "%s %s, back %s" % (mesh_text, type_text, back.spec)


@test("errors: an uneven dimension is one line naming it and why (JAX itself cannot hold such an array)")
def uneven():
    mesh = make_mesh([("x", 4)])
    x = jax.device_put(np.zeros((8, 6), np.float32), NamedSharding(mesh, P("x")))
    passed, detail = one_line_error(lambda: rjax.reshard(x, NamedSharding(mesh, P(None, "x"))), "dimension 1",
                                    "uneven", "IndivisibleError")
    # The reason the message gives, checked against the installed JAX: it
    # refuses to place or produce such an array.
    refusals = []
    for place in (lambda a, s: jax.device_put(a, s), lambda a, s: jax.jit(lambda v: v, out_shardings=s)(a)):
        try:
            place(np.zeros((8, 6), np.float32), NamedSharding(mesh, P(None, "x")))
            refusals.append("accepted")
        except ValueError as e:
            refusals.append("divide" in str(e))
    return passed and refusals == [True, True], "%s; JAX device_put / out_shardings refuse: %s" % (detail, refusals)


# Pending sums: JAX's unreduced axes (PartitionSpec(..., unreduced={...}) on a
# mesh of Explicit axes), as a matrix product leaves them.  Integer-valued
# float32 entries keep every sum exact whatever the order.
def _explicit_mesh(axes):
    return jax.make_mesh(tuple(n for _, n in axes), tuple(a for a, _ in axes),
                         axis_types=(jax.sharding.AxisType.Explicit,) * len(axes), devices=jax.devices()[:8])


def _unreduced_product(mesh, contracted):
    """A @ B contracted over sharded axes, left unreduced over them, and the
    product computed on the host; under jax.set_mesh(mesh)."""
    a_np = (np.arange(8 * 16) % 7).astype(np.float32).reshape(8, 16)
    b_np = (np.arange(16 * 8) % 5).astype(np.float32).reshape(16, 8)
    a = jax.device_put(a_np, NamedSharding(mesh, P(None, contracted)))
    b = jax.device_put(b_np, NamedSharding(mesh, P(contracted, None)))
    unreduced = set(contracted if isinstance(contracted, tuple) else (contracted,))
    c = jax.jit(lambda u, v: jnp.dot(u, v, out_sharding=P(None, None, unreduced=unreduced)))(a, b)
    return c, a_np @ b_np


@test("pending sums: unreduced arrays from jnp.dot to sharded, replicated and unreduced targets, by "
      "psum_scatter/psum/zeroing in the plan's order; values equal the product")
def unreduced():
    results = []
    for axes, contracted, targets in (
            ([("x", 4), ("y", 2)], "x", [P("x"), P(None, None), P(("x", "y")), P(None, "y")]),
            ([("x", 2), ("y", 2), ("z", 2)], ("x", "z"),
             [P("y"), P(None, None, unreduced={"z"}), P("y", unreduced={"x", "z"}), P(("x", "y", "z"))])):
        mesh = _explicit_mesh(axes)
        with jax.set_mesh(mesh):
            c, want = _unreduced_product(mesh, contracted)
            source_type = rjax.layout(c.sharding, c.shape)[1]
            for spec in targets:
                target = NamedSharding(mesh, spec)
                p, _ = rjax._resharder(c.sharding, target, c.shape, np.dtype(np.float32))
                out = rjax.reshard(c, target)
                # An unreduced result is read through JAX's own reshard to replicated.
                got = np.asarray(jax.jit(lambda v: jax.sharding.reshard(v, P(None)))(out) if spec.unreduced else out)
                reductions = [t for t in p.step_texts if t.startswith(("reduce_scatter", "all_reduce"))]
                results.append((np.array_equal(got, want) and out.sharding.spec.unreduced == spec.unreduced
                                and len(reductions) > 0, "%s -> %s: %s" % (source_type, spec, "; ".join(p.step_texts))))
    bad = [d for ok, d in results if not ok]
    return not bad, "%d moves; wrong: %s" % (len(results), bad[:2])


@test("errors: unreduced axes with a plan that splits a mesh axis are one line saying so")
def unreduced_split():
    mesh = _explicit_mesh([("x", 4), ("y", 2)])
    with jax.set_mesh(mesh):
        c, _ = _unreduced_product(mesh, "x")
        return one_line_error(lambda: rjax.reshard(c, NamedSharding(mesh, P("y", None, unreduced={"x"}))),
                              "unreduced", "split a mesh axis")


@test("errors: meshes over different devices are one line saying so")
def two_device_sets():
    a, b = make_mesh([("x", 4)]), Mesh(np.array(jax.devices()[4:8]), ("x",))
    x = jax.device_put(np.zeros((8,), np.float32), NamedSharding(a, P("x")))
    return one_line_error(lambda: rjax.reshard(x, NamedSharding(b, P("x"))), "not the source mesh's")


@test("moves between meshes over the same 8 devices (reordered): the exchange's every shard right (%d cases)"
      % BETWEEN_MESHES_CASES)
def between_meshes():
    rng = random.Random(23)
    devices = jax.devices()[:8]
    bad, hlo_ops = [], set()
    for case in range(BETWEEN_MESHES_CASES):
        meshes = []
        for prefix in "st":
            axes = [(prefix + name, size) for name, size in rng.choice(MESHES_8)]
            order = list(range(8))
            rng.shuffle(order)
            devices_in_order = np.array([devices[i] for i in order]).reshape([size for _, size in axes])
            meshes.append((axes, Mesh(devices_in_order, [a for a, _ in axes])))
        (src_axes, src_mesh), (dst_axes, dst_mesh) = meshes
        ndim = rng.randint(1, 3)
        src, tgt = random_type(src_axes, ndim, rng), random_type(dst_axes, ndim, rng)
        sizes = dict(src_axes + dst_axes)
        shape = tuple(math.lcm(math.prod(sizes[a] for a in s), math.prod(sizes[a] for a in t)) * rng.randint(1, 2)
                      for s, t in zip(src, tgt))
        want = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        x = jax.device_put(want, NamedSharding(src_mesh, spec_of(src)))
        target = NamedSharding(dst_mesh, spec_of(tgt))
        out = rjax.reshard(x, target)
        if case < 4:
            _, move = rjax._resharder(x.sharding, target, shape, want.dtype)
            hlo_ops |= {op for op in ("all-gather", "all-to-all", "collective-permute", "all-reduce")
                        if op in jax.jit(move).lower(x).compile().as_text()}
        if not exact_shards(out, target, want):
            bad.append("%s %s -> %s %s shape %s" % (src_axes, src, dst_axes, tgt, shape))
    return not bad and hlo_ops <= {"collective-permute"}, "collectives in the HLO: %s; wrong: %s" % (
        sorted(hlo_ops), bad[:3])


@test("errors: the planner's bad input is RedistError code 2 with its one line")
def planner_error():
    passed, detail = one_line_error(lambda: redist.plan("{x:2, y:3}", "[3{x}7]", "[7]"), "from: ", "ceil block")
    try:
        redist.plan("{x:2}", "[{x}4]", "[{q}4]")
    except redist.RedistError as e:
        return passed and e.code == 2 and "q" in str(e), detail + "; " + str(e)
    return False, detail


@test("errors: a sharding other than NamedSharding is one line naming its type")
def not_named():
    mesh = make_mesh([("x", 2)])
    single = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    return one_line_error(lambda: rjax.plan(single, NamedSharding(mesh, P("x")), (4,), np.float32),
                          "SingleDeviceSharding")


def _weighted_sum(target, **source):
    """A loss through reshard: the moved array times fixed weights, summed
    (integer-valued float32, so every order of addition is exact)."""
    weights = (np.arange(8 * 16) % 5).astype(np.float32).reshape(8, 16)
    return lambda a: (rjax.reshard(a, target, **source) * weights).sum(), weights


@test("reshard under jax.jit and jax.grad (Auto axes, source= given): values and gradients equal the un-jitted "
      "ones, the gradient in the source's sharding")
def reshard_traced():
    results = []
    for axes, src_spec, dst_spec in (([("x", 2), ("y", 4)], P("y", "x"), P(None, ("x", "y"))),
                                     ([("x", 8)], P(None, "x"), P("x")),
                                     ([("x", 2), ("y", 2), ("z", 2)], P(("x", "y"), "z"), P("z", ("y", "x")))):
        mesh = make_mesh(axes)
        src, dst = NamedSharding(mesh, src_spec), NamedSharding(mesh, dst_spec)
        x = jax.device_put(np.arange(8 * 16, dtype=np.float32).reshape(8, 16), src)
        loss, weights = _weighted_sum(dst, source=src)
        eager, jitted = loss(x), jax.jit(loss)(x)
        gradient, jitted_gradient = jax.grad(loss)(x), jax.jit(jax.grad(loss))(x)
        moved = jax.jit(lambda a: rjax.reshard(a * 2, dst, source=src))(x)
        results.append((float(eager) == float(jitted) == float((np.asarray(x) * weights).sum())
                        and np.array_equal(np.asarray(gradient), weights)
                        and np.array_equal(np.asarray(jitted_gradient), weights)
                        and gradient.sharding.is_equivalent_to(src, 2) and exact_shards(moved, dst, np.asarray(x) * 2),
                        "%s -> %s" % (src_spec, dst_spec)))
    return all(ok for ok, _ in results), "; ".join(d for ok, d in results if not ok) or "%d moves" % len(results)


@test("reshard on a mesh of Explicit axes without jax.set_mesh: eager, under jit (the source read from the traced "
      "array's type) and under grad, values equal the array's")
def reshard_explicit():
    mesh = _explicit_mesh([("x", 2), ("y", 4)])
    src, dst = NamedSharding(mesh, P("y", "x")), NamedSharding(mesh, P(None, ("x", "y")))
    want = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    x = jax.device_put(want, src)
    moved = rjax.reshard(x, dst)
    loss, weights = _weighted_sum(dst)
    jitted, gradient = jax.jit(loss)(x), jax.jit(jax.grad(loss))(x)
    return (exact_shards(moved, dst, want) and float(jitted) == float((want * weights).sum())
            and np.array_equal(np.asarray(gradient), weights)), str(moved.sharding.spec)


@test("errors: reshard under jit of an array whose type does not say its sharding (Auto axes) and no source= is "
      "one line")
def reshard_traced_unknown():
    mesh = make_mesh([("x", 4)])
    x = jax.device_put(np.zeros((8,), np.float32), NamedSharding(mesh, P("x")))
    return one_line_error(lambda: jax.jit(lambda a: rjax.reshard(a, NamedSharding(mesh, P())))(x), "traced",
                          "source=")


@test("errors: jax.grad through reshard of an unreduced array (pending sums) is one line")
def reshard_unreduced_gradient():
    mesh = _explicit_mesh([("x", 4), ("y", 2)])
    with jax.set_mesh(mesh):
        a = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P(None, "x")))
        b = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(mesh, P("x", None)))
        loss = lambda u: rjax.reshard(jnp.dot(u, b, out_sharding=P(None, None, unreduced={"x"})),
                                      NamedSharding(mesh, P("x"))).sum()
        return one_line_error(lambda: jax.grad(loss)(a), "gradient", "unreduced")


@test("errors: reshard of a NumPy array, or to None, is one line naming the type")
def reshard_arguments():
    mesh = make_mesh([("x", 4)])
    x = jax.device_put(np.zeros((8,), np.float32), NamedSharding(mesh, P("x")))
    results = [one_line_error(lambda: rjax.reshard(np.zeros(8, np.float32), NamedSharding(mesh, P())),
                              "expected a jax.Array", "ndarray"),
               one_line_error(lambda: rjax.reshard(x, None), "sharding", "NoneType"),
               one_line_error(lambda: rjax.reshard(x, [P()]), "sharding", "list")]
    return all(ok for ok, _ in results), "; ".join(d for _, d in results)


@test("reshard(donate=True): the source's buffers handed to XLA (x deleted), every element right; without it x "
      "stays; donate=True of a traced array is one line")
def donated():
    mesh = make_mesh([("x", 2), ("y", 4)])
    values = np.arange(16 * 8, dtype=np.float32).reshape(16, 8)
    src, dst = NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", "x"))
    kept, given = jax.device_put(values, src), jax.device_put(values, src)
    plain, moved = rjax.reshard(kept, dst), rjax.reshard(given, dst, donate=True)
    traced = one_line_error(lambda: jax.jit(lambda a: rjax.reshard(a, dst, source=src, donate=True))(kept),
                            "donate=True", "donate_argnums")
    ok = (given.is_deleted() and not kept.is_deleted() and np.array_equal(np.asarray(moved), values)
          and np.array_equal(np.asarray(plain), values) and moved.sharding.is_equivalent_to(dst, 2) and traced[0])
    return ok, "donated deleted: %s, kept deleted: %s; %s" % (given.is_deleted(), kept.is_deleted(), traced[1])


@test("errors: resharder's shape and dtype are checked (None is no dtype, not float64)")
def resharder_arguments():
    mesh = make_mesh([("x", 4)])
    src, dst = NamedSharding(mesh, P("x")), NamedSharding(mesh, P())
    results = [one_line_error(lambda: rjax.resharder(src, dst, (8,), None), "dtype None"),
               one_line_error(lambda: rjax.resharder(src, dst, (8,), "bogus"), "dtype 'bogus'"),
               one_line_error(lambda: rjax.resharder(src, dst, 8, np.float32), "shape", "8"),
               one_line_error(lambda: rjax.resharder(src, "P()", (8,), np.float32), "target sharding", "str")]
    return all(ok for ok, _ in results), "; ".join(d for _, d in results)


@test("redist.plan: figures, guarantees and an SVG picture of a JAX move")
def figures():
    mesh = make_mesh([("x", 2), ("y", 4)])
    plan = rjax.plan(NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", "x")), (8, 16), jnp.bfloat16)
    svg = plan.picture("svg")
    names = [n for n, _ in plan.guarantees]
    ok = (plan.elem_bytes == 2 and plan.src_bytes == plan.dst_bytes == 8 * 16 * 2 // 8
          and plan.peak_bytes == plan.src_bytes and "plan_peak_le_max" in names and svg.lstrip().startswith("<?xml")
          and plan.recv_max_bytes >= plan.lower_bound_recv_bytes
          and plan.src_bytes + plan.dst_bytes <= plan.live_bytes <= plan.alloc_bytes
          and plan.alloc_bytes == plan.src_bytes + plan.dst_bytes + plan.workspace_bytes)
    return ok, "%s; peak %d B, live %d B, recv %d B >= bound %d B" % (
        plan.step_texts, plan.peak_bytes, plan.live_bytes, plan.recv_max_bytes, plan.lower_bound_recv_bytes)


sys.exit(checks.end())
