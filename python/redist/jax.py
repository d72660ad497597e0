"""redist for JAX: layouts from and to NamedSharding, and reshard, which runs
the verified plan under jit as a shard_map of jax.lax collectives.

A Mesh's devices, flattened row-major, are redist's ranks 0..n-1, and a
PartitionSpec is a redist type (docs/model.md, "Translating JAX and PyTorch
layouts"): P(('x', 'y'), None) on shape (8, 6) is [{x,y}8, 6].

reshard runs a plan by the collectives (the planner's strategy
"collectives": every step a dyn_slice, all_gather, all_to_all or
all_permute whose local arrays are the plan's, so no step holds more than
the plan's peak).  Each collective's group is a set of mesh positions that
differ in one run of mixed-radix digits of the rank; the shard_map runs over
the mesh reshaped into those digits, so every group is a tuple of its axes.
Between two meshes over the same devices, reshard runs the planner's
direct exchange: rounds of ppermute in which every device sends and
receives at most one piece of one extent (dynamic_slice to cut it,
dynamic_update_slice to place it), each rank receiving exactly its target
box less what it holds; the per-device results become the target array
without a copy.
Pending sums (PartitionSpec's unreduced axes, redist's sum{...}) reduce by
the plan's reduce_scatter (psum_scatter), all_reduce (psum) and add_pending
(every member but coordinate 0 set to zero), on the caller's own mesh.
Unreduced axes are always sums: JAX's sharding has no other pending
reduction (redist's max{..}, min{..}, prod{..}, avg{..} are redist.torch's
Partial(reduce_op) and the command's).
The framework's collectives are trusted, as the C runtime's MPI is.
"""
import contextlib
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec

from . import _plan
from ._lib import RedistError

_DTYPES = {"float32": "f32", "float64": "f64", "bfloat16": "bf16", "float16": "f16", "float8_e4m3fn": "f8e4m3",
           "float8_e5m2": "f8e5m2", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
           "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "bool", "complex64": "c64",
           "complex128": "c128"}


def dtype_name(dtype):
    """redist's name of a JAX/NumPy element type."""
    name = _dtype(dtype).name
    if name not in _DTYPES:
        raise RedistError("dtype %s: redist knows %s" % (name, ", ".join(sorted(_DTYPES))))
    return _DTYPES[name]


def mesh_text(mesh):
    """The Mesh in redist's notation, "{x:2, y:4}"."""
    for name in mesh.axis_names:
        if not isinstance(name, str):
            raise RedistError("mesh axis %r: redist names axes by strings" % (name,))
    return "{" + ", ".join("%s:%d" % (a, n) for a, n in mesh.shape.items()) + "}"


def spec_axes(spec, ndim, what="sharding"):
    """Per dimension, the mesh axes of a PartitionSpec, major to minor."""
    partitions = tuple(getattr(spec, "partitions", spec))  # without the unreduced axes
    entries = partitions + (None,) * (ndim - len(partitions))
    if len(entries) > ndim:
        raise RedistError("%s: PartitionSpec %s has %d entries for an array of %d dimensions"
                          % (what, spec, len(partitions), ndim))
    axes = []
    for d, entry in enumerate(entries):
        if entry is None:
            axes.append(())
        elif entry is PartitionSpec.UNCONSTRAINED:
            raise RedistError("%s: dimension %d is UNCONSTRAINED; redist needs the layout itself" % (what, d))
        elif isinstance(entry, str):
            axes.append((entry,))
        else:
            axes.append(tuple(entry))
    return axes


def type_text(shape, axes, pending=()):
    """A redist type from a global shape, each dimension's axes and the
    pending-sum axes (PartitionSpec's unreduced)."""
    return ("[" + ", ".join("{%s}%d" % (",".join(a), n) if a else str(n) for n, a in zip(shape, axes)) + "]"
            + (" sum{%s}" % ",".join(pending) if pending else ""))


def spec_pending(spec, mesh):
    """The mesh axes a PartitionSpec leaves unreduced (pending sums), in mesh order."""
    unreduced = set(getattr(spec, "unreduced", ()))
    return tuple(a for a in mesh.axis_names if a in unreduced)


def _named(sharding, what):
    if not isinstance(sharding, NamedSharding):
        raise RedistError("%s: expected a jax.sharding.NamedSharding, got %s (redist reads a mesh and a "
                          "PartitionSpec)" % (what, type(sharding).__name__))
    return sharding


def _dtype(dtype):
    """np.dtype(dtype), without its reading of None as float64."""
    try:
        if dtype is not None:
            return np.dtype(dtype)
    except TypeError:
        pass
    raise RedistError("dtype %r: not an element type" % (dtype,))


def layout(sharding, shape):
    """(mesh, type) in redist's notation for a NamedSharding of an array of
    this global shape: layout(NamedSharding(mesh, P('x')), (8, 6)) ==
    ("{x:2, y:4}", "[{x}8, 6]")."""
    _named(sharding, "sharding")
    return mesh_text(sharding.mesh), type_text(shape, spec_axes(sharding.spec, len(shape)),
                                               spec_pending(sharding.spec, sharding.mesh))


def sharding(mesh, axes):
    """The NamedSharding of a layout given per dimension as its mesh axes
    (major to minor), the inverse of layout."""
    return NamedSharding(mesh, PartitionSpec(*[a[0] if len(a) == 1 else (tuple(a) or None) for a in axes]))


def plan(src, dst, shape, dtype):
    """The verified plan from NamedSharding src to dst: by the collectives
    on one mesh; by the exchange between two meshes over the same devices
    (world ranks: the source mesh's devices, flattened)."""
    shape = _plan.sizes(shape)
    src_mesh, src_type = layout(src, shape)
    dst_mesh, dst_type = layout(dst, shape)
    for what, sharding_of in (("source", src), ("target", dst)):
        sizes = dict(sharding_of.mesh.shape)
        for d, (n, a) in enumerate(zip(shape, spec_axes(sharding_of.spec, len(shape)))):
            parts = math.prod(sizes[x] for x in a if x in sizes)
            if n % parts:
                raise RedistError("%s: dimension %d of size %d over %s (%d parts) is uneven; JAX %s holds no such "
                                  "array (jax.device_put and jit's out_shardings raise IndivisibleError for a "
                                  "NamedSharding whose axes do not divide the dimension), so redist.jax runs even "
                                  "layouts only" % (what, d, n, a, parts, jax.__version__))
    if src.mesh == dst.mesh:
        return _plan.plan(src_mesh, src_type, dst_type, dtype_name(dtype), strategy="collectives")
    if spec_pending(src.spec, src.mesh) or spec_pending(dst.spec, dst.mesh):
        raise RedistError("sharding: unreduced axes (pending sums) between two meshes: redist.jax runs pending sums "
                          "on one mesh only (the reducing exchange has no traceable form)")
    rank_of = {d: r for r, d in enumerate(src.mesh.devices.flat)}
    if set(dst.mesh.devices.flat) != set(rank_of) or dst.mesh.devices.size != len(rank_of):
        raise RedistError("sharding: the target mesh's devices are not the source mesh's; redist.jax moves "
                          "between meshes over one set of devices")
    ranks = ", ".join(str(rank_of[d]) for d in dst.mesh.devices.flat)
    # By the exchange, the one plan between meshes with a traceable form here (not a hybrid through the target mesh).
    return _plan.plan(src_mesh, src_type, dst_type, dtype_name(dtype), target_mesh="%s @ [%s]" % (dst_mesh, ranks),
                      strategy="exchange")


def _digits(world, boundaries):
    """The mixed-radix digits of ranks 0..world-1 that the boundaries (each
    dividing the next) cut: sizes major first, and for every boundary b the
    index of the first digit below it."""
    cuts = sorted(set(boundaries) | {1, world})
    sizes = [cuts[i + 1] // cuts[i] for i in reversed(range(len(cuts) - 1))]
    first_below = {b: len(cuts) - 1 - cuts.index(b) for b in cuts}
    return sizes, first_below


class _RankSpace:
    """The mesh reshaped into the digits that every group and every user
    axis is a run of; axis names "r0" (major) .. "rK"."""

    def __init__(self, mesh, steps):
        world = mesh.devices.size
        strides = [math.prod(list(mesh.shape.values())[i + 1:]) for i in range(len(mesh.shape))]
        bounds = [b for s, n in zip(strides, mesh.shape.values()) for b in (s, s * n)]
        bounds += [b for st in steps if st.op != "all_permute" for b in (st.group_stride, st.group_stride * st.group_size)]
        sizes, self._first_below = _digits(world, bounds)
        # When no group cuts a mesh axis the digits are the axes: the
        # caller's own mesh, which unreduced inputs and outputs need (JAX
        # matches them against the mesh in context).
        self.own = sizes == list(mesh.shape.values())
        self.names = tuple(mesh.axis_names) if self.own else tuple("r%d" % i for i in range(len(sizes)))
        self.mesh = mesh if self.own else Mesh(mesh.devices.reshape(sizes), self.names)
        self._user = {a: self.run(s, n) for (a, n), s in zip(mesh.shape.items(), strides)}

    def run(self, stride, size):
        """The axes of the group of ranks differing in (rank // stride) % size."""
        return self.names[self._first_below[stride * size]:self._first_below[stride]]

    def spec(self, axes, pending=()):
        dims = [tuple(n for a in dim for n in self._user[a]) or None for dim in axes]
        if not pending:
            return PartitionSpec(*dims)
        return PartitionSpec(*dims, unreduced=frozenset(n for a in pending for n in self._user[a]))


def _permute(x, recv_from, everyone):
    """all_permute: rank r takes rank recv_from[r]'s array.  A source may feed
    several ranks (replicated boxes), so the moves go in rounds of
    ppermute, each sending from every rank at most once."""
    rounds, round_of = [], {}
    for r, s in enumerate(recv_from):
        if s == r:
            continue
        k = next((k for k, pairs in enumerate(rounds) if all(p[0] != s for p in pairs)), len(rounds))
        if k == len(rounds):
            rounds.append([])
        rounds[k].append((s, r))
        round_of[r] = k
    me = jax.lax.axis_index(everyone)
    table = jnp.asarray([round_of.get(r, -1) for r in range(len(recv_from))], dtype=jnp.int32)[me]
    out = x
    for k, pairs in enumerate(rounds):
        out = jnp.where(table == k, jax.lax.ppermute(x, everyone, pairs), out)
    return out


def _run_steps(x, steps, space):
    for st in steps:
        group = space.run(st.group_stride, st.group_size)
        if st.op != "all_permute" and st.group_size == 1:
            continue  # a group of one: the step changes no array
        if st.op == "dyn_slice":
            n = st.shape[st.dim_a] // st.group_size
            x = jax.lax.dynamic_slice_in_dim(x, jax.lax.axis_index(group) * n, n, axis=st.dim_a)
        elif st.op == "all_gather":
            x = jax.lax.all_gather(x, group, axis=st.dim_a, tiled=True)
        elif st.op == "all_to_all":
            x = jax.lax.all_to_all(x, group, st.dim_b, st.dim_a, tiled=True)
        elif st.op == "reduce_scatter":
            x = jax.lax.psum_scatter(x, group, scatter_dimension=st.dim_a, tiled=True)
        elif st.op == "all_reduce":
            x = jax.lax.psum(x, group)
        elif st.op == "add_pending":
            x = jnp.where(jax.lax.axis_index(group) == 0, x, jnp.zeros_like(x))
        else:
            x = _permute(x, st.recv_from, space.names)
    return x


def _exchange_rounds(p):
    """The exchange's pieces as rounds of one extent in which every rank
    sends at most one piece and receives at most one: (extent, [(sender,
    receiver, where in the sender's array, where in the receiver's)])."""
    rounds = []
    for r in range(p.devices):
        target_corner, _ = p.tgt_box(r)
        for piece in p.receives(r):
            source_corner, _ = p.src_box(piece.from_rank)
            move = (piece.from_rank, r, tuple(o - c for o, c in zip(piece.offset, source_corner)),
                    tuple(o - c for o, c in zip(piece.offset, target_corner)))
            fits = (k for k, (extent, moves) in enumerate(rounds) if extent == piece.extent
                    and (move[0] == move[1]) == (moves[0][0] == moves[0][1])
                    and all(m[0] != move[0] and m[1] != move[1] for m in moves))
            k = next(fits, None)
            if k is None:
                rounds.append((piece.extent, [move]))
            else:
                rounds[k][1].append(move)
    return rounds


def _run_exchange(x, rounds, world, target_shape, everyone):
    """Each round: every sender cuts its piece, one ppermute (none for the
    pieces a rank keeps), every receiver writes it in place."""
    me = jax.lax.axis_index(everyone)
    out = jnp.zeros(target_shape, x.dtype)
    for extent, moves in rounds:
        send_at, recv_at, receives = np.zeros((world, len(extent)), np.int32), np.zeros((world, len(extent)), np.int32), \
            np.zeros(world, bool)
        for sender, receiver, at_sender, at_receiver in moves:
            send_at[sender], recv_at[receiver], receives[receiver] = at_sender, at_receiver, True
        piece = jax.lax.dynamic_slice(x, tuple(jnp.asarray(send_at)[me]), extent)
        if moves[0][0] != moves[0][1]:
            piece = jax.lax.ppermute(piece, everyone, [(s, r) for s, r, _, _ in moves])
        out = jnp.where(jnp.asarray(receives)[me], jax.lax.dynamic_update_slice(out, piece, tuple(jnp.asarray(recv_at)[me])),
                        out)
    return out[None]


def _explicit(mesh):
    return any(t == AxisType.Explicit for t in getattr(mesh, "axis_types", ()))


def _placed(y, sharding):
    """y given the target's NamedSharding (an equivalent layout: no data
    moves): with_sharding_constraint on Auto axes, jax.sharding.reshard on
    Explicit ones (which with_sharding_constraint refuses)."""
    if _explicit(sharding.mesh):
        return jax.sharding.reshard(y, sharding)
    return jax.lax.with_sharding_constraint(y, sharding)


def _differentiable(move, src, dst, shape, dtype):
    """move with the reverse move as its gradient (jax.custom_vjp): a
    reshard is the identity on values, so the cotangent goes back to the
    source's sharding, by redist's plan from dst to src."""
    @jax.custom_vjp
    def moved(x):
        return move(x)

    def backward(_, cotangent):
        if spec_pending(src.spec, src.mesh) or spec_pending(dst.spec, dst.mesh):
            raise RedistError("reshard: the gradient of a move with unreduced axes (pending sums) is not supported: "
                              "differentiate through jax.sharding.reshard there")
        return (_resharder(dst, src, shape, dtype)[1](cotangent),)
    moved.defvjp(lambda x: (moved(x), None), backward)
    return moved


@functools.lru_cache(maxsize=256)
def _resharder(src, dst, shape, dtype):
    p = plan(src, dst, shape, dtype)
    if p.by_exchange:
        everyone = tuple(src.mesh.axis_names)
        target_shape = p.tgt_box(0)[1]
        body = functools.partial(_run_exchange, rounds=_exchange_rounds(p), world=p.devices,
                                 target_shape=target_shape, everyone=everyone)
        # Rank r's target array is row r of a stacked array, which reshard
        # hands to the target's devices as they are.
        return p, jax.shard_map(body, mesh=src.mesh, in_specs=PartitionSpec(*spec_axes(src.spec, len(shape))),
                                out_specs=PartitionSpec(everyone), check_vma=False)
    steps = p.collective_steps()
    space = _RankSpace(src.mesh, steps)
    src_pending, dst_pending = spec_pending(src.spec, src.mesh), spec_pending(dst.spec, dst.mesh)
    if (src_pending or dst_pending) and not space.own:
        raise RedistError("sharding: unreduced axes (pending sums) with a plan whose groups split a mesh axis "
                          "(%s): redist.jax runs those on the caller's mesh only" % "; ".join(p.step_texts))
    in_spec = space.spec(spec_axes(src.spec, len(shape)), src_pending)
    out_spec = space.spec(spec_axes(dst.spec, len(shape)), dst_pending)
    body = jax.shard_map(functools.partial(_run_steps, steps=steps, space=space), mesh=space.mesh,
                         in_specs=in_spec, out_specs=out_spec, check_vma=False)
    if dst_pending:
        return p, _differentiable(body, src, dst, shape, dtype)  # the caller's mesh: already the target's sharding
    # The result is the target's NamedSharding on the caller's mesh, not the
    # rank-space mesh's equivalent one.
    return p, _differentiable(lambda x: _placed(body(x), dst), src, dst, shape, dtype)


def resharder(src, dst, shape, dtype):
    """The traceable form of reshard, for use inside jit and grad: (the
    plan, a function moving an array of this shape and dtype from
    NamedSharding src to dst on one mesh by the plan).  The function is
    differentiable: its gradient is the reverse move, planned by redist.
    reshard calls it on a traced array."""
    p, move = _resharder(_named(src, "source sharding"), _named(dst, "target sharding"), _plan.sizes(shape),
                         _dtype(dtype))
    if p.by_exchange:
        raise RedistError("sharding: a move between meshes has no traceable form (its result is assembled on the "
                          "target mesh's devices); use reshard outside jit")
    return p, move


def _traced_source(x, sharding, source):
    """The sharding a traced x is in: `source`, else its type's where its
    mesh has Explicit axes (the type names the layout)."""
    if source is not None:
        return _named(source, "source")
    typed = getattr(jax.typeof(x), "sharding", None)
    if typed is not None and _explicit(typed.mesh) and dict(typed.mesh.shape) == dict(sharding.mesh.shape):
        return NamedSharding(sharding.mesh, typed.spec)
    raise RedistError("reshard: x is traced (inside jit or grad) and its type does not say its sharding (its mesh's "
                      "axes are not Explicit): pass source=, the NamedSharding x is in")


def _mesh_context(mesh):
    """jax.set_mesh(mesh) where mesh has Explicit axes and no mesh is set
    (JAX's explicit sharding needs one), else nothing."""
    if _explicit(mesh) and not jax.sharding.get_abstract_mesh().shape:
        return jax.set_mesh(mesh)
    return contextlib.nullcontext()


def reshard(x, sharding, *, source=None, donate=False):
    """x, a jax.Array with a NamedSharding, moved to `sharding` by redist's
    verified plan, run under jit.  Values equal jax.device_put(x, sharding).
    Traceable and differentiable on one mesh: inside jit or grad it runs
    resharder's move, x's sharding being `source` (required where the
    mesh's axes are Auto, since the trace does not say it) or the one its
    type states (Explicit axes); its gradient is the reverse move.
    donate=True (eager only) hands x's buffers to the move (jit's
    donate_argnums), which XLA may reuse for the result: x is deleted.
    JAX arrays are immutable, so this is JAX's form of a move in place;
    redist's proven in-place schedule runs on numpy and torch buffers over
    MPI (redist.mpi.plan_in_place, redist.torch's in_place=True)."""
    if not isinstance(sharding, NamedSharding):
        _named(sharding, "sharding")
    if isinstance(x, jax.core.Tracer):
        if donate:
            raise RedistError("reshard: donate=True of a traced array: donate the jitted function's argument "
                              "(jax.jit's donate_argnums) instead")
        src = _traced_source(x, sharding, source)
        return resharder(src, sharding, tuple(x.shape), x.dtype)[1](x)
    if not isinstance(x, jax.Array):
        raise RedistError("reshard: expected a jax.Array, got %s (place it first: jax.device_put(x, sharding))"
                          % type(x).__name__)
    p, move = _resharder(_named(x.sharding, "x's sharding"), sharding, tuple(x.shape), np.dtype(x.dtype))
    with _mesh_context(x.sharding.mesh):
        moved = _jitted(move, bool(donate))(x)
    if not p.by_exchange:
        return moved
    rows = {s.device: s.data for s in moved.addressable_shards}
    return jax.make_array_from_single_device_arrays(
        x.shape, sharding, [rows[d].reshape(rows[d].shape[1:]) for d in sharding.mesh.devices.flat])


@functools.lru_cache(maxsize=256)
def _jitted(move, donate):
    return jax.jit(move, donate_argnums=(0,) if donate else ())
