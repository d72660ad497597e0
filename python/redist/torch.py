"""redist for PyTorch: layouts from DTensor placements, and redistribute,
which runs the verified plan with torch.distributed (gloo on CPU, NCCL on
GPU), or with redist's C runtime over MPI (transport="mpi": redist.mpi,
in place, one copy on a host from tensors of empty(), async handles),
called on every rank of the default process group.

A DeviceMesh is redist's mesh with one axis per mesh dimension (named by
mesh_dim_names, else d0, d1, ...), placed on the world ranks its `mesh`
tensor lists, row-major.  A tensor dimension that Shard(d) cuts on mesh
dimensions i then j (DTensor's shard order: mesh order by default, the
order DTensorSpec.shard_order or the _StridedShard placements encoding it
name otherwise) is redist's composed cut {i}{j}N, j's ceil blocks of each
of i's (torch.chunk of a chunk; j cutting first: {j}{i}N), written {i,j}N,
one ceil block over the product, where that is the same on every device
(even sizes, and some uneven ones), since the collectives can plan that
and composed cuts take the region exchange.  A _StridedShard of no shard
order (what DTensor.view leaves when it flattens sharded dimensions) is
blocks dealt round robin, {i}%B, where its blocks have one size B.
Replicate() leaves the axis out, and Partial(reduce_op) is
redist's pending reduction over its mesh dimensions: "sum", "product",
"max", "min", "avg" are `sum{...}`, `prod{...}`, `max{...}`, `min{...}`,
`avg{...}` (one operation per move, as redist plans it; the bitwise
"band", "bor", "bxor" are refused in one line).
Every translation is checked before it runs: on every device of the mesh,
the indices DTensor's placements give it along each tensor dimension
(torch's own per-placement split), in local order, must be the ones
redist holds there (the planner's answer: a box, or a composed holding
as the region exchange's local copies to the replicated layout list it),
else the next candidate is tried, and where none is the move is refused
in one line naming the placements, the mesh dimensions and a device where
they differ (a _StridedShard whose blocks have several sizes).

A plan of composed cuts (kind "regions") runs, with torch.distributed,
the messages and copies of the extracted lowering (Plan.regions: each a
peer and boxes of the local arrays, sent point-to-point as their elements
in order), and with transport="mpi" through the C runtime's region
exchange.

A move on one DeviceMesh is planned on the mesh alone (its devices
numbered row-major, as its `mesh` tensor lists their world ranks), so
every strategy is open to the planner whatever ranks the mesh is on: a
pipeline stage's mesh of 2 ranks in a world of 8 included; ranks outside
it take part only in creating the subgroups (which torch requires of every
rank) and keep their empty local tensor.  A move between two meshes is
planned on the world ranks.

A plan by the collectives runs as all_gather over subgroups (one per group
of the plan, made once, by every rank), all_to_all and permutes as
point-to-point messages (gloo has no all_to_all); a plan by the exchange sends each piece of a rank's target box
from the rank the plan names, point-to-point; a plan by the reducing
exchange stages every member's contribution to a rank's target box apart
(point-to-point) and adds them; a hybrid runs its two parts (Plan.parts) in
turn through the intermediate layout.  The framework's collectives are trusted,
as the C runtime's MPI is.

Pending reductions are combined as the C runtime combines them, in
ascending group member order ((c_0 op c_1) op c_2 ...), so that a plan
gives the same bits run after run (and the same as the MPI runtime's):
reduce_scatter sends member c chunk c of every member's array
(point-to-point) and each member combines what it receives in member
order; all_reduce does that on pieces of the flattened array (the n % size
tail gathered by every member), then all_gathers the pieces.  bf16 and f16
are combined in f32 and rounded once, as the runtime does; avg adds in
every step (the sum as the element type stores it) and divides once at the
end by the product of the sizes of the groups the plan reduced (in f32 for
bf16 and f16, then rounded), as the runtime does; max and min keep a NaN (the first) and, of
equal values, the earlier member's; complex products are (ac-bd) + (ad+bc)i
in the part type.  A new pending axis (add_pending) keeps the value on
every member for max, min and avg (DTensor's Replicate to Partial) and on
member 0 for sum and product, the others holding the identity (0, 1); the
reducing exchange's ranks that are not designated hold the identity.
"""
import functools
import hashlib
import itertools
import math

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard
from torch.distributed.tensor import placement_types
from torch.distributed.tensor._dtensor_spec import DTensorSpec
from torch.distributed.tensor.placement_types import _StridedShard, _StridedShardOffsetMode
from torch.distributed._functional_collectives import AsyncCollectiveTensor

from . import _plan
from . import mpi as _mpi
from ._lib import RedistError

_DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.bfloat16: "bf16", torch.float16: "f16",
           torch.int8: "i8", torch.int16: "i16", torch.int32: "i32", torch.int64: "i64", torch.uint8: "u8",
           torch.bool: "bool", torch.complex64: "c64", torch.complex128: "c128"}


# DTensor's Partial reduce_op names (Partial.ALL_REDUCE_OPS) and redist's operation of each.
_REDUCE_OPS = {"sum": "sum", "product": "prod", "max": "max", "min": "min", "avg": "avg"}


def dtype_name(dtype):
    if dtype not in _DTYPES:
        raise RedistError("dtype %s: redist.torch knows %s" % (dtype, ", ".join(map(str, _DTYPES))))
    return _DTYPES[dtype]


def axis_names(device_mesh):
    return list(device_mesh.mesh_dim_names or ["d%d" % i for i in range(device_mesh.ndim)])


def mesh_text(device_mesh, placed=True):
    """The DeviceMesh in redist's notation, "{dp:2, tp:2}", placed on its
    world ranks ("{dp:2, tp:2} @ [0, 1, 2, 3]") unless placed is False."""
    axes = "{" + ", ".join("%s:%d" % (a, n) for a, n in zip(axis_names(device_mesh), device_mesh.mesh.shape)) + "}"
    if not placed:
        return axes
    return axes + " @ [" + ", ".join(map(str, device_mesh.mesh.flatten().tolist())) + "]"


def _normalized(placements, ndim, what):
    """placements with each Shard(-d) and _StridedShard(-d) counted from
    the end, as torch's shard-order functions need them."""
    out = []
    for p in placements:
        if isinstance(p, (Shard, _StridedShard)):
            if not -ndim <= p.dim < ndim:
                raise RedistError("%s: %r of a tensor of %d dimensions" % (what, p, ndim))
            p = _StridedShard(p.dim % ndim, split_factor=p.split_factor) if isinstance(p, _StridedShard) \
                else Shard(p.dim % ndim)
        out.append(p)
    return tuple(out)


def _checked_placements(device_mesh, placements, what):
    """The placements, one per mesh dimension, each a Shard, _StridedShard,
    Replicate or Partial of one of redist's reductions."""
    names = axis_names(device_mesh)
    if len(placements) != len(names):
        raise RedistError("%s: %d placements for a mesh of %d dimensions" % (what, len(placements), len(names)))
    for name, p in zip(names, placements):
        if isinstance(p, Partial):
            if p.reduce_op not in _REDUCE_OPS:
                raise RedistError("%s: Partial(%r) on mesh dimension %s: redist's pending reductions are %s"
                                  % (what, p.reduce_op, name, ", ".join(_REDUCE_OPS)))
        elif not isinstance(p, (Shard, _StridedShard, Replicate)):
            raise RedistError("%s: %r on mesh dimension %s has no redist layout (Shard, Replicate, Partial only)"
                              % (what, p, name))


def _shard_order(device_mesh, placements):
    """{tensor dimension: the mesh dimensions cutting it in DTensor's shard
    order (the first cuts first)}, as torch decodes the placements: mesh
    order for Shard, the order _StridedShard's split factors encode; None
    where no order gives those split factors (a view's split)."""
    order = DTensorSpec._maybe_convert_StridedShard_to_shard_order(placements, device_mesh)
    return None if order is None else {entry.tensor_dim: entry.mesh_dims for entry in order}


def _candidate_cuts(names, mesh_shape, placements, order, dim, size):
    """redist's cuts of tensor dimension `dim` that may be DTensor's, best
    first, each a list of cut texts (outermost first; none: not cut): in
    the shard order, one ceil block over the product of the mesh dimensions
    (which the collectives can plan, where composed cuts take the region
    exchange), then the nested ceil blocks (torch.chunk of a chunk, DTensor's
    meaning); then the placements left to right as torch applies them, each
    on the extent E the ones before left: Shard a ceil block, and
    _StridedShard(sf) on a mesh dimension of P blocks of E // (sf * P) dealt
    round robin (what a view flattening sharded dimensions holds), E taken
    on the mesh's first device.  Which one is DTensor's is _dim_text's
    check, not this guess."""
    found = []
    if order is not None:
        axes = [names[m] for m in order.get(dim, ())]
        if len(axes) > 1:
            found.append(["{%s}" % ",".join(axes)])
        found.append(["{%s}" % a for a in axes])
    left_to_right = []
    for m, p in enumerate(placements):
        if isinstance(p, _StridedShard) and p.dim == dim:
            extent = len(_dtensor_indices(placements[:m], mesh_shape, (0,) * len(mesh_shape), dim, size))
            block = extent // (p._split_factor_int() * mesh_shape[m])
            if block == 0:
                return found
            left_to_right.append("{%s}%%%d" % (names[m], block))
        elif isinstance(p, Shard) and p.dim == dim:
            left_to_right.append("{%s}" % names[m])
    if left_to_right not in found:
        found.append(left_to_right)
    return found


def _cut_text(cuts, size):
    """A dimension in redist's notation: "{a}{b}7", "{a}%2 8", "7"."""
    return "".join(cuts) + (" " if cuts and "%" in cuts[-1] else "") + str(size)


def _merged(runs):
    """Runs (first, length) of indices, in order, with each run that
    continues the one before joined to it (and empty ones left out)."""
    out = []
    for first, n in runs:
        if out and out[-1][0] + out[-1][1] == first:
            out[-1][1] += n
        elif n:
            out.append([first, n])
    return tuple(map(tuple, out))


def _runs(indices):
    """Indices in local order as runs (first, length) of consecutive ones."""
    if isinstance(indices, range):
        return _merged([(indices.start, len(indices))])
    return _merged((i, 1) for i in indices)


def _runs_text(runs):
    if not runs:
        return "nothing"
    shown = ["%d" % first if n == 1 else "%d..%d" % (first, first + n - 1) for first, n in runs[:4]]
    return "indices " + ", ".join(shown + (["..."] if len(runs) > 4 else []))


@functools.lru_cache(maxsize=1024)
def _redist_indices(axes, text, size):
    """The global indices each device of the mesh `axes` (redist's notation,
    devices row-major) holds of the one-dimensional layout `text`, in local
    order, as runs: redist's own answer, not computed here.  One ceil-block
    cut: the box of the plan to the replicated layout.  Composed cuts: the
    copies of that plan's region exchange, since a replicated target holds
    every index at its global place and each device copies all it holds
    (hexchange_recv_exact: it receives only what it does not hold)."""
    p = _plan.plan(axes, "[%s]" % text, "[%d]" % size, "u8")
    if p.kind != "regions":
        return tuple(_merged([(p.src_box(d)[0][0], p.src_box(d)[1][0])]) for d in range(p.devices))
    # A copy is (source box, target box) of local indices; the target's are the global ones.
    return tuple(_merged((to[0][0], to[1][0]) for _, to in sorted(p.regions(d).copies)) for d in range(p.devices))


@functools.lru_cache(maxsize=1024)
def _dim_text(device_mesh, placements, dim, size, what):
    """Tensor dimension `dim` (of this size) in redist's notation: the first
    of _candidate_cuts whose indices on every device of the mesh, in local
    order, are those torch's own placements give it (_dtensor_indices);
    refused in one line where none is (naming the placements, the mesh
    dimensions, and a device where DTensor's and the last candidate's
    differ)."""
    names = axis_names(device_mesh)
    mesh_shape = tuple(device_mesh.mesh.shape)
    cutting = [m for m, p in enumerate(placements) if isinstance(p, (Shard, _StridedShard)) and p.dim == dim]
    if not cutting:
        return str(size)
    coordinates = list(itertools.product(*map(range, mesh_shape)))
    dtensors = [_runs(_dtensor_indices(placements, mesh_shape, c, dim, size)) for c in coordinates]
    order = _shard_order(device_mesh, placements)
    axes = mesh_text(device_mesh, placed=False)
    tried = None
    for cuts in _candidate_cuts(names, mesh_shape, placements, order, dim, size):
        text = _cut_text(cuts, size)
        theirs = _redist_indices(axes, text, size)
        differ = next((k for k, runs in enumerate(dtensors) if runs != theirs[k]), None)
        if differ is None:
            return text
        tried = (text, differ, theirs[differ])
    where = "which are no redist cut's (a _StridedShard whose split factor is no shard order and deals no fixed blocks)"
    if tried:
        text, k, theirs = tried
        where = "which are no redist cut's: at %s DTensor holds %s, redist's %s holds %s" % (
            ", ".join("%s=%d" % (n, c) for n, c in zip(names, coordinates[k])), _runs_text(dtensors[k]), text,
            _runs_text(theirs))
    raise RedistError("%s: %s on mesh dimensions %s split tensor dimension %d of size %d into DTensor's blocks, %s; "
                      "redistribute it with DTensor.redistribute to placements that cut it otherwise first"
                      % (what, ", ".join(repr(placements[m]) for m in cutting), ", ".join(names[m] for m in cutting),
                         dim, size, where))


def type_text(device_mesh, placements, shape, what="placements"):
    """redist's type for DTensor placements of a tensor of this global
    shape: each tensor dimension as _dim_text gives it (checked to be
    DTensor's on every device), Partial mesh dimensions pending."""
    names = axis_names(device_mesh)
    _checked_placements(device_mesh, placements, what)
    placements = _normalized(placements, len(shape), what)
    pending = [(name, p.reduce_op) for name, p in zip(names, placements) if isinstance(p, Partial)]
    ops = sorted({op for _, op in pending})
    if len(ops) > 1:
        raise RedistError("%s: %s: one reduce_op per DTensor (redist's pending axes share one operation)"
                          % (what, ", ".join("Partial(%r) on mesh dimension %s" % (op, name) for name, op in pending)))
    dims = "[" + ", ".join(_dim_text(device_mesh, placements, d, n, what) for d, n in enumerate(shape)) + "]"
    return dims + (" %s{%s}" % (_REDUCE_OPS[ops[0]], ",".join(name for name, _ in pending)) if pending else "")


def _dtensor_indices(placements, mesh_shape, coordinate, dim, size):
    """The indices along tensor dimension `dim` that DTensor gives the
    device at `coordinate`: each Shard or _StridedShard on it, mesh
    dimensions left to right, keeps the part torch's own
    _local_shard_size_and_offset names (as compute_local_shape_and_global_offset
    applies them).  A range while they are one block."""
    held = range(size)
    for mesh_dim, p in enumerate(placements):
        if isinstance(p, _StridedShard) and p.dim == dim:
            kept, picks = p._local_shard_size_and_offset(len(held), mesh_shape[mesh_dim], coordinate[mesh_dim],
                                                          _StridedShardOffsetMode.ALL)
            held = [held[i] for i in picks[:kept]]
        elif isinstance(p, Shard) and p.dim == dim:
            kept, first = p._local_shard_size_and_offset(len(held), mesh_shape[mesh_dim], coordinate[mesh_dim])
            held = held[first:first + kept]
    return held


def _placements(placements, what):
    """placements as a tuple, each checked to be a Placement."""
    if not isinstance(placements, (list, tuple)):
        raise RedistError("%s: expected a list of Shard, Replicate or Partial, got %s"
                          % (what, type(placements).__name__))
    for i, p in enumerate(placements):
        if not isinstance(p, placement_types.Placement):
            raise RedistError("%s: element %d is a %s, not a placement (Shard, Replicate, Partial)"
                              % (what, i, type(p).__name__))
    return tuple(placements)


def _device_mesh(mesh, what):
    if not isinstance(mesh, DeviceMesh):
        raise RedistError("%s: expected a DeviceMesh, got %s" % (what, type(mesh).__name__))
    return mesh


def plan(src_mesh, src_placements, dst_mesh, dst_placements, shape, dtype):
    """The verified plan between two DTensor layouts (made once per problem
    and world): on the mesh's devices for a move on one mesh, else on the
    world ranks."""
    return _plan_of(_device_mesh(src_mesh, "source mesh"), _placements(src_placements, "source placements"),
                    _device_mesh(dst_mesh, "target mesh"), _placements(dst_placements, "target placements"),
                    _plan.sizes(shape), dtype)[0]


def _problem_of(src_mesh, src_placements, dst_mesh, dst_placements, shape, dtype):
    """The move in redist's notation, (mesh, target mesh or None, source,
    target, dtype): on the mesh alone for a move on one mesh, else on the
    world ranks."""
    src_type = type_text(src_mesh, src_placements, shape, "source placements")
    dst_type = type_text(dst_mesh, dst_placements, shape, "target placements")
    if src_mesh == dst_mesh:
        return mesh_text(src_mesh, placed=False), None, src_type, dst_type, dtype_name(dtype)
    return mesh_text(src_mesh), mesh_text(dst_mesh), src_type, dst_type, dtype_name(dtype)


def _placed(p, src_mesh, dst_mesh):
    """The world rank of each of the plan's devices: the mesh's, for a
    move on one mesh, else the world's."""
    return tuple(src_mesh.mesh.flatten().tolist()) if src_mesh == dst_mesh else tuple(range(p.devices))


@functools.lru_cache(maxsize=256)
def _plan_of(src_mesh, src_placements, dst_mesh, dst_placements, shape, dtype):
    """The plan and the world rank of each of its devices."""
    mesh, target_mesh, source, target, dtype_text = _problem_of(src_mesh, src_placements, dst_mesh, dst_placements,
                                                                shape, dtype)
    p = _plan.plan(mesh, source, target, dtype_text, target_mesh=target_mesh)
    return p, _placed(p, src_mesh, dst_mesh)


@functools.lru_cache(maxsize=256)
def _in_place_plan_of(src_mesh, src_placements, dst_mesh, dst_placements, shape, dtype, staging_bytes):
    """The plan in place (redist.mpi.plan_in_place) and the world rank of
    each of its devices."""
    if any(isinstance(pl, Partial) for pl in src_placements + dst_placements):
        raise RedistError("redistribute: in place takes no Partial placements (pending sums in place are not yet "
                          "supported): move out of place, or reduce first")
    mesh, target_mesh, source, target, dtype_text = _problem_of(src_mesh, src_placements, dst_mesh, dst_placements,
                                                                shape, dtype)
    p = _mpi.plan_in_place(mesh, source, target, dtype_text, target_mesh=target_mesh, staging_bytes=staging_bytes)
    return p, _placed(p, src_mesh, dst_mesh)


def _region(tensor, box_offset, offset, extent):
    """The part of a local array (whose corner is box_offset) covering the
    global region offset/extent."""
    for d, (o, corner, n) in enumerate(zip(offset, box_offset, extent)):
        tensor = tensor.narrow(d, o - corner, n)
    return tensor


@functools.lru_cache(maxsize=64)
def _subgroup(groups):
    """This rank's process group among `groups` (tuples of world ranks), or
    None; every rank of the world creates every group, in one order, as
    new_group requires."""
    mine, _ = dist.new_subgroups_by_enumeration([list(g) for g in groups])
    return mine


def _group_ranks(ranks, stride, size):
    """The plan's groups of devices differing in (device // stride) % size,
    as world ranks."""
    return tuple(tuple(ranks[base + k * stride] for k in range(size))
                 for base in range(len(ranks)) if (base // stride) % size == 0)


def _members(me, ranks, stride, size):
    """The world ranks of device me's group, in member order."""
    index = (me // stride) % size
    return index, [ranks[me + (k - index) * stride] for k in range(size)]


class _Pending:
    """A step's messages in flight (requests, their Work objects) and what
    makes its result of them (finish, called once they are done): sync
    callers take result() at once; async_op leaves the last step's pending
    until the result is first used."""

    def __init__(self, requests, finish):
        self.requests, self._finish = requests, finish

    @classmethod
    def done(cls, tensor):
        return cls([], lambda: tensor)

    def result(self):
        if self._finish:
            while self.requests:  # each Work dropped once waited: gloo's holds its tensors
                self.requests.pop(0).wait()
            self._value, self._finish = self._finish(), None
        return self._value

    def then(self, fn, *others):
        """A pending of these messages (and others'), whose result is fn of
        their results: each Work is waited once (a gloo Work waited twice
        may never return)."""
        parts = (self,) + others
        requests = [r for part in parts for r in part.requests]
        for part in parts:
            part.requests = []
        return _Pending(requests, lambda: fn(*[part.result() for part in parts]))


def _post(ops, finish):
    """Starts point-to-point messages together (batch_isend_irecv refuses
    an empty batch)."""
    return _Pending(dist.batch_isend_irecv(ops) if ops else [], finish)


def _all_gather(x, group, members, dim):
    """The members' arrays (members: their world ranks in member order)
    concatenated along dim in member order; torch numbers a group's ranks in
    ascending world rank, which is not member order on a mesh over ranks out
    of order.  Moved as bytes, since gloo's all_gather takes only some
    element types (not int16)."""
    x = x.contiguous()
    raw = x.reshape(-1).view(torch.uint8)
    parts = [torch.empty_like(raw) for _ in members]
    work = dist.all_gather(parts, raw, group=group, async_op=True)
    by_rank = dict(zip(sorted(members), parts))
    return _Pending([work], lambda: torch.cat([by_rank[m].view(x.dtype).reshape(x.shape) for m in members], dim))


def _all_to_all(x, me, ranks, stride, size, gather_dim, split_dim):
    """Member k's array cut along split_dim contributes chunk c to member c,
    concatenated along gather_dim in member order; point-to-point, since
    gloo has no all_to_all."""
    index, member = _members(me, ranks, stride, size)
    sends = [c.contiguous() for c in torch.chunk(x, size, split_dim)]
    recvs = [sends[k] if k == index else torch.empty_like(sends[k]) for k in range(size)]
    return _post([op for k in range(size) if k != index
                  for op in (dist.P2POp(dist.isend, sends[k], member[k]), dist.P2POp(dist.irecv, recvs[k], member[k]))],
                 lambda: torch.cat(recvs, gather_dim))


def _permute(x, recv_from, me, ranks):
    """all_permute: device d takes device recv_from[d]'s array."""
    ops = [dist.P2POp(dist.isend, x.contiguous(), ranks[d]) for d, s in enumerate(recv_from) if s == me and d != me]
    out = x
    if recv_from[me] != me:
        out = torch.empty_like(x)
        ops.append(dist.P2POp(dist.irecv, out, ranks[recv_from[me]]))
    return _post(ops, lambda: out)


def _wide_dtype(dtype):
    """What a reduction combines in: bf16 and f16 in f32, rounded once at
    the end, as the runtime does."""
    return torch.float32 if dtype in (torch.bfloat16, torch.float16) else dtype


def _combine_into(op, total, value):
    """total = total op value, elementwise and in place (total in the
    combining dtype, value in it or the stored one), as the runtime's fold
    step computes it: max and min keep total's NaN, else take value's, else
    value only where strictly greater (smaller), so that of equal values
    the earlier member's stays.  Complex numbers: sums part by part,
    products (ac-bd) + (ad+bc)i in the part type."""
    if op in ("sum", "avg"):
        total.add_(value)
    elif op == "prod" and total.is_complex():
        (a, b), (c, d) = torch.view_as_real(total).unbind(-1), torch.view_as_real(value).unbind(-1)
        re = a * c - b * d
        b.copy_(a * d + b * c)
        a.copy_(re)
    elif op == "prod":
        total.mul_(value)
    else:
        better = value > total if op == "max" else value < total
        better |= value.isnan() & ~total.isnan()
        torch.where(better, value, total, out=total)


def _step_op(op):
    """What one reduction step combines with: an avg adds, and the plan
    divides once at its end (_average)."""
    return "sum" if op == "avg" else op


def _average(x, divisor):
    """x divided by divisor as the runtime divides an avg once: in f32 for
    bf16 and f16, then rounded; complex numbers part by part."""
    if x.is_complex():
        return torch.view_as_complex(torch.view_as_real(x) / divisor)
    return (x.to(_wide_dtype(x.dtype)) / divisor).to(x.dtype)


def _identity(op, like):
    """A tensor like `like` holding op's identity: 0 (sum, avg), 1
    (product), the lowest value or -inf (max), the highest or +inf (min)."""
    if op in ("max", "min"):
        limits = torch.finfo(like.dtype) if like.dtype.is_floating_point else torch.iinfo(like.dtype)
        value = (-math.inf if op == "max" else math.inf) if like.dtype.is_floating_point else \
            (limits.min if op == "max" else limits.max)
        return torch.full_like(like, value)
    return torch.ones_like(like) if op == "prod" else torch.zeros_like(like)


def _reduce_in_order(op, parts, dtype):
    """((parts[0] op parts[1]) op parts[2]) ..., left to right, in the
    combining dtype (_wide_dtype), then rounded once."""
    total = parts[0].to(_wide_dtype(dtype), copy=True)
    for part in parts[1:]:
        _combine_into(op, total, part)
    return total.to(dtype)


def _reduce_scatter(op, x, me, ranks, stride, size, dim):
    """Member c gets chunk c along dim of the members' reduction, combined in member order."""
    index, member = _members(me, ranks, stride, size)
    chunks = [c.contiguous() for c in torch.chunk(x, size, dim)]
    received = [chunks[index] if k == index else torch.empty_like(chunks[index]) for k in range(size)]
    return _post([p2p for k in range(size) if k != index
                  for p2p in (dist.P2POp(dist.isend, chunks[k], member[k]),
                              dist.P2POp(dist.irecv, received[k], member[k]))],
                 lambda: _reduce_in_order(op, received, x.dtype))


def _all_reduce(op, x, me, ranks, group, stride, size):
    """Every member gets the members' reduction: the runtime's pieces
    (member k reduces piece k of the flattened array) then an all_gather;
    every member reduces the n % size tail itself."""
    flat = x.contiguous().reshape(-1)
    piece = flat.numel() // size
    _, members = _members(me, ranks, stride, size)
    parts = []
    if piece:
        mine = _reduce_scatter(op, flat[:piece * size], me, ranks, stride, size, 0).result()
        parts.append(_all_gather(mine, group, members, 0))
    if flat.numel() % size:
        tails = _all_gather(flat[piece * size:][None], group, members, 0)
        parts.append(tails.then(lambda gathered: _reduce_in_order(op, list(gathered), x.dtype)))
    return parts[0].then(lambda *reduced: torch.cat(reduced).reshape(x.shape), *parts[1:])


def _run_collectives(p, x, me, ranks):
    steps = p.collective_steps()
    # Every rank creates the groups, members of the plan's mesh or not.
    groups = [_subgroup(_group_ranks(ranks, st.group_stride, st.group_size))
              if st.op in ("all_gather", "all_reduce") and st.group_size > 1 else None for st in steps]
    if me is None:
        return _Pending.done(x)
    pending = _Pending.done(x)
    for st, group in zip(steps, groups):
        if st.op != "all_permute" and st.group_size == 1:
            continue  # a group of one: the step changes no array
        x = pending.result()
        index = (me // st.group_stride) % st.group_size
        if st.op == "reduce_scatter":
            pending = _reduce_scatter(_step_op(p.reduction), x, me, ranks, st.group_stride, st.group_size, st.dim_a)
        elif st.op == "all_reduce":
            pending = _all_reduce(_step_op(p.reduction), x, me, ranks, group, st.group_stride, st.group_size)
        elif st.op == "add_pending":
            keeps = index == 0 or p.reduction in ("max", "min", "avg")
            pending = _Pending.done(x if keeps else _identity(p.reduction, x))
        elif st.op == "dyn_slice":
            n = st.shape[st.dim_a] // st.group_size
            pending = _Pending.done(x.narrow(st.dim_a, index * n, n))
        elif st.op == "all_gather":
            pending = _all_gather(x, group, _members(me, ranks, st.group_stride, st.group_size)[1], st.dim_a)
        elif st.op == "all_to_all":
            pending = _all_to_all(x, me, ranks, st.group_stride, st.group_size, st.dim_a, st.dim_b)
        else:
            pending = _permute(x, st.recv_from, me, ranks)
    if p.reduction == "avg":
        divisor = math.prod(st.group_size for st in steps if st.op in ("reduce_scatter", "all_reduce"))
        return pending.then(lambda moved: _average(moved.contiguous(), divisor))
    return pending.then(lambda moved: moved.contiguous())


@functools.lru_cache(maxsize=64)
def _messages(p, me):
    """Device me's part of the exchange: (to which device it sends which
    global region, the pieces of its target box)."""
    sends = tuple((d, piece) for d in range(p.devices) if d != me for piece in p.receives(d) if piece.from_rank == me)
    return sends, tuple(p.receives(me))


def _run_exchange(p, x, me, ranks):
    if me is None:
        return _Pending.done(x)
    src_offset, _ = p.src_box(me)
    dst_offset, dst_extent = p.tgt_box(me)
    out = torch.empty(dst_extent, dtype=x.dtype, device=x.device)
    sends, pieces = _messages(p, me)
    ops = [dist.P2POp(dist.isend, _region(x, src_offset, piece.offset, piece.extent).contiguous(), ranks[d])
           for d, piece in sends]
    received = []
    for piece in pieces:
        target = _region(out, dst_offset, piece.offset, piece.extent)
        if piece.from_rank == me:
            target.copy_(_region(x, src_offset, piece.offset, piece.extent))
        else:
            buffer = torch.empty(piece.extent, dtype=x.dtype, device=x.device)
            ops.append(dist.P2POp(dist.irecv, buffer, ranks[piece.from_rank]))
            received.append((target, buffer))

    def finish():
        for target, buffer in received:
            target.copy_(buffer)
        return out
    return _post(ops, finish)


def _boxes_of_at_most(offset, extent, most):
    """The region offset/extent cut into boxes of at most `most` (>= 1)
    elements: slabs along its first dimension longer than 1, or, where one
    slice of that dimension is too big itself, that slice cut again."""
    if math.prod(extent) <= most or all(n <= 1 for n in extent):
        return [(offset, extent)]
    d = next(d for d, n in enumerate(extent) if n > 1)
    inner = math.prod(extent[d + 1:])
    rows = max(1, most // inner)
    boxes = []
    for lo in range(0, extent[d], rows):
        n = min(rows, extent[d] - lo)
        box = (offset[:d] + (offset[d] + lo,) + offset[d + 1:], extent[:d] + (n,) + extent[d + 1:])
        boxes += [box] if inner <= most else _boxes_of_at_most(*box, most)
    return boxes


def _sum_dtype(dtype, members):
    """What the reducing exchange combines in: _wide_dtype when there is
    anything to combine."""
    return _wide_dtype(dtype) if members > 1 else dtype


@functools.lru_cache(maxsize=64)
def _sum_schedule(p, dtype):
    """The reducing exchange as rounds that every device runs in one order:
    member by member (ascending, so that sums are added in member order),
    each member's messages in rounds in which no device stages more than
    the plan's live bytes leave beside its source array and its running sum
    (messages larger than that cut into boxes).  Returns (group size, rounds
    of (member, first round of this member, messages (sender, receiver,
    offset, extent)), per device the bytes of its staging workspace: the
    most a round stages there, each box it sends (unless a view of its
    source is contiguous) or receives)."""
    receives = [p.sum_receives(d) for d in range(p.devices)]
    members = max(r.group_size for r in receives)
    elem = p.elem_bytes
    total_elem = _sum_dtype(dtype, members).itemsize

    def room(d):
        held = math.prod(p.src_box(d)[1]) * elem
        summed = math.prod(p.tgt_box(d)[1]) * total_elem if receives[d].designated else 0
        return max(elem, p.live_bytes - held - summed)
    rooms = [room(d) for d in range(p.devices)]
    rounds, workspace = [], [0] * p.devices
    for member in range(members):
        staged = []  # per round: (bytes staged per device, messages)
        for receiver, mine in enumerate(receives):
            for c in mine.contributions if mine.designated else ():
                if c.member != member or c.from_rank == receiver:
                    continue
                ends = (c.from_rank, receiver)
                for offset, extent in _boxes_of_at_most(c.offset, c.extent, min(rooms[d] for d in ends) // elem):
                    size = math.prod(extent) * elem
                    k = next((k for k, (used, _) in enumerate(staged)
                              if all(used[d] + size <= rooms[d] for d in ends)), len(staged))
                    if k == len(staged):
                        staged.append(([0] * p.devices, []))
                    for d in ends:
                        staged[k][0][d] += size
                    staged[k][1].append((c.from_rank, receiver, offset, extent))
        rounds += [(member, k == 0, tuple(messages)) for k, (_, messages) in enumerate(staged or [(None, [])])]
        workspace = [max([workspace[d]] + [used[d] for used, _ in staged]) for d in range(p.devices)]
    return members, tuple(rounds), tuple(workspace)


def _sum_round(x, src_offset, me, ranks, messages, workspace, add):
    """One round of the reducing exchange on device me: its messages sent
    and received, the boxes staged in `workspace` (bytes), each received box
    added (add(offset, extent, values)) once they are in."""
    ops, received, used = [], [], 0

    def staged(extent):
        nonlocal used
        size = math.prod(extent) * x.element_size()
        box = workspace[used:used + size].view(x.dtype).view(extent)
        used += size
        return box
    for sender, receiver, offset, extent in messages:
        if sender == me:
            box = _region(x, src_offset, offset, extent)
            ops.append(dist.P2POp(dist.isend, box if box.is_contiguous() else staged(extent).copy_(box),
                                  ranks[receiver]))
        elif receiver == me:
            box = staged(extent)
            ops.append(dist.P2POp(dist.irecv, box, ranks[sender]))
            received.append((offset, extent, box))

    def finish():
        for box in received:
            add(*box)
    return _post(ops, finish)


def _run_reducing_exchange(p, x, me, ranks):
    """Each member's contributions to this device's target box combined
    (the plan's operation) into a running total in ascending member order
    (the C runtime's order), received in the rounds of _sum_schedule into
    one staging workspace, so that no more than the plan's live bytes are
    alive on a device (the source, the total and the workspace; then the
    result, the total rounded once for bf16 and f16).  A device that is
    not designated holds the operation's identity."""
    if me is None:
        return _Pending.done(x)
    members, rounds, workspace_bytes = _sum_schedule(p, x.dtype)
    workspace = torch.empty(workspace_bytes[me], dtype=torch.uint8, device=x.device)
    src_offset, _ = p.src_box(me)
    dst_offset, dst_extent = p.tgt_box(me)
    mine = p.sum_receives(me)
    total = torch.zeros(dst_extent, dtype=_sum_dtype(x.dtype, members), device=x.device) if mine.designated else None

    def add(member, offset, extent, values):
        target = _region(total, dst_offset, offset, extent)
        if member == 0:
            target.copy_(values)
        else:
            _combine_into(p.reduction, target, values)

    def result():
        if total is None:
            return _identity(p.reduction, torch.empty(dst_extent, dtype=x.dtype, device=x.device))
        result = total.to(x.dtype)
        return _average(result, mine.group_size) if p.reduction == "avg" else result
    pending = _Pending.done(None)
    for member, first, messages in rounds:
        pending.result()
        if first and total is not None:
            for c in mine.contributions:
                if c.member == member and c.from_rank == me:
                    add(member, c.offset, c.extent, _region(x, src_offset, c.offset, c.extent))
        pending = _sum_round(x, src_offset, me, ranks, messages, workspace, functools.partial(add, member))
    return pending.then(lambda _: result())


def _local_box(tensor, box):
    """The part of a local array in a box of its own indices (offset, extent)."""
    return _region(tensor, (0,) * tensor.dim(), *box)


def _run_regions(p, x, me, ranks):
    """The region exchange (composed cuts): device me's messages and copies
    as the extracted lowering lists them (Plan.regions), each message its
    boxes' elements in order, row-major within each box, point-to-point."""
    if p.reduction is not None:
        raise RedistError("redistribute: pending axes with composed cuts (the reducing region exchange, %s) run over "
                          "MPI only (transport=\"mpi\"): the torch.distributed transport sends the region messages "
                          "as copies, and these receives are combined" % p.reduction)
    if me is None:
        return _Pending.done(x)
    lists = _region_lists(p, me)
    out = torch.empty(p.tgt_shape(me), dtype=x.dtype, device=x.device)
    for source, target in lists.copies:
        _local_box(out, target).copy_(_local_box(x, source))
    ops = [dist.P2POp(dist.isend, torch.cat([_local_box(x, box).reshape(-1) for box in boxes]), ranks[peer])
           for peer, boxes in lists.sends]
    received = []
    for peer, boxes in lists.recvs:
        buffer = torch.empty(sum(math.prod(extent) for _, extent in boxes), dtype=x.dtype, device=x.device)
        ops.append(dist.P2POp(dist.irecv, buffer, ranks[peer]))
        received.append((boxes, buffer))

    def finish():
        for boxes, buffer in received:
            for box, part in zip(boxes, buffer.split([math.prod(extent) for _, extent in boxes])):
                _local_box(out, box).copy_(part.view(box[1]))
        return out
    return _post(ops, finish)


@functools.lru_cache(maxsize=64)
def _region_lists(p, me):
    return p.regions(me)


def _run(p, x, me, ranks):
    """Device me's local tensor x moved by plan p (me is None on a rank
    outside the plan's devices; ranks[d] is device d's world rank), its
    last messages pending; a hybrid's parts in turn, the first leaving this
    device's box of the intermediate layout."""
    if p.kind == "hybrid":
        first, second = p.parts()
        return _run(second, _run(first, x, me, ranks).result(), me, ranks)
    if p.kind == "exchange":
        return _run_exchange(p, x, me, ranks)
    if p.kind == "reducing_exchange":
        return _run_reducing_exchange(p, x, me, ranks)
    if p.kind == "regions":
        return _run_regions(p, x, me, ranks)
    return _run_collectives(p, x, me, ranks)


def _placements_in_order(dtensor):
    """The DTensor's placements with its shard order in them: as they are
    where they hold it (_StridedShard) or it is the default, else
    DTensorSpec.shard_order encoded as DTensor itself encodes it
    (_StridedShard where a later mesh dimension cuts first)."""
    spec = dtensor._spec
    if spec.shard_order is None or DTensorSpec.is_default_device_order(spec.shard_order):
        return tuple(spec.placements)
    return tuple(DTensorSpec._convert_shard_order_to_StridedShard(spec.shard_order, spec.placements, spec.mesh))


def _checked(dtensor, placements, device_mesh, plan_of=_plan_of):
    """A redistribute call's arguments checked on this rank (RedistError
    names the first that is wrong), and what it runs: the plan, its
    devices' world ranks, this rank's device (None outside), the target
    mesh and placements, and the move asked in redist's notation (meshes on
    their world ranks, layouts, dtype: equal on two ranks that ask the same)."""
    if not isinstance(dtensor, DTensor):
        raise RedistError("redistribute: expected a DTensor, got %s (make one with DTensor.from_local or "
                          "distribute_tensor)" % type(dtensor).__name__)
    placements = _placements(placements, "redistribute: placements")
    dst_mesh = dtensor.device_mesh if device_mesh is None else _device_mesh(device_mesh, "redistribute: device_mesh")
    src_mesh, src_placements, shape = dtensor.device_mesh, _placements_in_order(dtensor), tuple(dtensor.shape)
    p, ranks = plan_of(src_mesh, src_placements, dst_mesh, placements, shape, dtensor.dtype)
    rank = dist.get_rank()
    me = ranks.index(rank) if rank in ranks else None
    local = dtensor.to_local()
    if me is not None and tuple(local.shape) != p.src_shape(me):
        raise RedistError("redistribute: rank %d's local tensor has shape %s, but its box of the %s DTensor under %s "
                          "is %s" % (rank, tuple(local.shape), shape, list(src_placements), p.src_shape(me)))
    if me is not None and local.device.type != src_mesh.device_type:
        raise RedistError("redistribute: rank %d's local tensor is on %s, its DeviceMesh on %s devices"
                          % (rank, local.device, src_mesh.device_type))
    asked = "%s %s -> %s %s %s" % (mesh_text(src_mesh), type_text(src_mesh, src_placements, shape),
                                   mesh_text(dst_mesh), type_text(dst_mesh, placements, shape),
                                   dtype_name(dtensor.dtype))
    return p, ranks, me, dst_mesh, placements, asked


_NOT_ASKED = 2 ** 62  # a failed rank's key: above every key (56 bits), so MIN never picks it


def _agree(failure, asked):
    """Every rank's verdict on a call, agreed over the default group before
    any data moves: one all_reduce (MIN) of [the first failed rank, key,
    -key], the key a hash of the move asked.  A rank that failed raises its
    own error, every other rank that rank's message; ranks asking different
    moves all raise.  So no rank waits for a message that never comes, nor
    leaves one unread for the next call."""
    world, rank = dist.get_world_size(), dist.get_rank()
    device = torch.device("cuda", torch.cuda.current_device()) if dist.get_backend() == "nccl" else "cpu"
    key = int.from_bytes(hashlib.blake2b(asked.encode(), digest_size=7).digest(), "big") if asked else None
    mine = [rank, _NOT_ASKED, _NOT_ASKED] if failure else [world, key, -key]
    verdict = torch.tensor(mine, dtype=torch.int64, device=device)
    dist.all_reduce(verdict, op=dist.ReduceOp.MIN)
    first_failed, low, minus_high = verdict.tolist()
    if first_failed < world:
        message = [str(failure) if failure else None]
        dist.broadcast_object_list(message, src=first_failed)
        if failure:
            raise failure
        raise RedistError("redistribute failed on rank %d: %s" % (first_failed, message[0]))
    if low != -minus_high:
        raise RedistError("redistribute: the ranks ask for different moves (this rank: %s); every rank of the default "
                          "group must ask for the same one" % asked)


class _FinishOnWait(dist.Work):
    """The Work that torch's wait_tensor runs on an async result's first
    use: it waits for the last step's messages and writes the result."""

    def __init__(self, pending, out):
        super().__init__()
        self._pending, self._out = pending, out

    def wait(self, timeout=None):
        if self._pending:
            self._out.copy_(self._pending.result())
            self._pending = None
        return True


def _on_first_use(pending, shape, like):
    """The pending result as DTensor's async_op gives it: an
    AsyncCollectiveTensor, whose first use waits (wait_tensor runs the Work
    registered for its storage)."""
    out = torch.empty(shape, dtype=like.dtype, device=like.device)
    torch._C._distributed_c10d._register_work(out, _FinishOnWait(pending, out))
    return AsyncCollectiveTensor(out)


TRANSPORTS = ("torch", "mpi")


def _mpi_checked(dtensor, p, me, out):
    """The MPI path's own conditions on this rank: the same world in MPI
    and torch.distributed, a CPU tensor without autograd, and `out` (None,
    or a contiguous CPU tensor of this rank's target box and the dtype)."""
    if _mpi.size() != dist.get_world_size() or _mpi.rank() != dist.get_rank():
        raise RedistError("redistribute: transport \"mpi\" needs MPI_COMM_WORLD to be the default group: rank %d of %d "
                          "in MPI, %d of %d in torch.distributed"
                          % (_mpi.rank(), _mpi.size(), dist.get_rank(), dist.get_world_size()))
    if dtensor.requires_grad:
        raise RedistError("redistribute: transport \"mpi\" is not differentiable (the DTensor requires grad): use the "
                          "default transport, or detach it")
    if me is not None and dtensor.to_local().device.type != "cpu":
        raise RedistError("redistribute: transport \"mpi\" moves CPU tensors; rank %d's local tensor is on %s"
                          % (dist.get_rank(), dtensor.to_local().device))
    if out is None:
        return
    if me is None:
        raise RedistError("redistribute: out= on rank %d, which holds no part of the move" % dist.get_rank())
    box = p.tgt_shape(me)
    if not isinstance(out, torch.Tensor) or isinstance(out, DTensor) or out.device.type != "cpu" \
            or not out.is_contiguous() or tuple(out.shape) != box or out.dtype != dtensor.dtype:
        raise RedistError("redistribute: out= on rank %d must be a contiguous CPU tensor of shape %s and %s (its "
                          "target box), got %s" % (dist.get_rank(), box, dtensor.dtype,
                                                   "a %s %s of shape %s" % (out.device, out.dtype, tuple(out.shape))
                                                   if isinstance(out, torch.Tensor) else type(out).__name__))


def _in_place_asked(transport, async_op, out):
    """A move in place is by MPI, blocking and without out=."""
    if transport != "mpi":
        raise RedistError("redistribute: in_place=True is for transport=\"mpi\" (got transport %r)" % (transport,))
    if async_op:
        raise RedistError("redistribute: in_place=True runs blocking (its rounds run one after another, no split "
                          "phase): async_op=True is not supported with it")
    if out is not None:
        raise RedistError("redistribute: in_place=True writes the result into the source's storage: out= is not taken")


def _in_place_storage_checked(dtensor, p, me):
    """This rank's local tensor is contiguous and its storage from its first
    element holds the rank's buffer."""
    if me is None:
        return
    local, need = dtensor.to_local(), p.buffer_bytes(me)
    if not local.is_contiguous():
        raise RedistError("redistribute: in place, rank %d's local tensor is not contiguous" % dist.get_rank())
    held = local.untyped_storage().nbytes() - local.storage_offset() * local.element_size()
    if held < need:
        raise RedistError("redistribute: in place, rank %d's local tensor's storage holds %d bytes from its first "
                          "element; its buffer needs %d, max(source box, target box) (allocate it with "
                          "redist.torch.empty_for_in_place)" % (dist.get_rank(), held, need))


def _agreed(dtensor, placements, device_mesh, transport, out, in_place=False, staging_bytes=None, async_op=False):
    """The move checked on this rank and agreed on every rank (_agree),
    then what it runs (_checked's plan, ranks, device, mesh and placements)."""
    try:
        if transport not in TRANSPORTS:
            raise RedistError("redistribute: transport %r: redist.torch moves by %s"
                              % (transport, " or ".join(map(repr, TRANSPORTS))))
        if staging_bytes is not None and not in_place:
            raise RedistError("redistribute: staging_bytes is for in_place=True")
        if in_place:
            _in_place_asked(transport, async_op, out)
        plan_of = (lambda *problem: _in_place_plan_of(*problem, staging_bytes)) if in_place else _plan_of
        p, ranks, me, dst_mesh, placements, asked = _checked(dtensor, placements, device_mesh, plan_of)
        if transport == "mpi":
            _mpi_checked(dtensor, p, me, out)
        elif out is not None:
            raise RedistError("redistribute: out= is for transport=\"mpi\" (the default transport allocates its result)")
        if in_place:
            _in_place_storage_checked(dtensor, p, me)
            asked += " in place, staging %s" % staging_bytes
        failure, asked = None, asked + " by " + transport
    except Exception as e:  # any failure here is agreed, so that the other ranks raise instead of waiting
        failure, asked = e, None
    _agree(failure, asked)
    return p, ranks, me, dst_mesh, placements


def _moved(dtensor, placements, device_mesh, async_op, transport, out):
    """The move checked and agreed on every rank (a transport other than
    "torch", or out=, refused), then run by torch.distributed."""
    p, ranks, me, dst_mesh, placements = _agreed(dtensor, placements, device_mesh, transport, out)
    local = dtensor.to_local()
    pending = _run(p, local, me, ranks)
    if async_op and pending.requests:
        out = _on_first_use(pending, p.tgt_shape(me), local)
    else:
        out = pending.result()
    return DTensor.from_local(out, dst_mesh, placements, run_check=False, shape=dtensor.shape,
                              stride=dtensor.stride())


def _moved_by_mpi(dtensor, placements, device_mesh, out):
    """The move checked and agreed on every rank, then started by the C
    runtime (redist.mpi): a Redistribution whose wait() returns the DTensor."""
    p, ranks, me, dst_mesh, placements = _agreed(dtensor, placements, device_mesh, "mpi", out)
    local = dtensor.to_local()
    if me is not None and out is None:
        out = torch.empty(p.tgt_shape(me), dtype=local.dtype)
    src = local.contiguous() if me is not None else None
    result = out if me is not None else local

    def finish():
        return DTensor.from_local(result, dst_mesh, placements, run_check=False, shape=dtensor.shape,
                                  stride=dtensor.stride())
    return _mpi.executor(p, ranks).start(src, out, finish)


def _moved_in_place(dtensor, placements, device_mesh, transport, out, in_place, staging_bytes, async_op):
    """The move checked and agreed on every rank (a transport other than
    "mpi", out=, async_op or staging_bytes without in_place refused), then
    run in place by the C runtime (redist.mpi): the DTensor whose local
    tensor is the source's storage from its first element, now holding the
    target box."""
    p, ranks, me, dst_mesh, placements = _agreed(dtensor, placements, device_mesh, transport, out, in_place,
                                                 staging_bytes, async_op)
    local = dtensor.to_local()
    _mpi.executor(p, ranks).run_in_place(local if me is not None else None)
    if me is not None:
        local = torch.empty(0, dtype=local.dtype).set_(local.untyped_storage(), local.storage_offset(),
                                                       p.tgt_shape(me))
    return DTensor.from_local(local, dst_mesh, placements, run_check=False, shape=dtensor.shape,
                              stride=dtensor.stride())


def gradient_placements(grad_placements, source_placements):
    """The placements redistribute's backward moves a gradient to: the
    source's, except that a Partial source dimension where the gradient is
    Shard or Replicate gets Replicate (DTensor's rule in
    _redistribute_backward: turning a gradient back into partial sums would
    only cost a reduction later).  grad_placements is None between two
    meshes, where no dimension of the gradient's mesh is the source's."""
    grad_placements = grad_placements or [Replicate()] * len(source_placements)
    return tuple(Replicate() if isinstance(s, Partial) and (g.is_shard() or g.is_replicate()) else s
                 for g, s in zip(grad_placements, source_placements))


class _Redistribute(torch.autograd.Function):
    """redistribute as an autograd function: the gradient is the reverse
    move (gradient_placements), planned by redist as the forward is, so
    twice differentiable as DTensor's own."""

    @staticmethod
    def forward(ctx, dtensor, placements, device_mesh, async_op, transport, out):
        out = _moved(dtensor, placements, device_mesh, async_op, transport, out)
        ctx.source, ctx.async_op = (dtensor.device_mesh, _placements_in_order(dtensor)), async_op
        return out

    @staticmethod
    def backward(ctx, grad):
        mesh, placements = ctx.source
        same_mesh = isinstance(grad, DTensor) and grad.device_mesh == mesh
        back = gradient_placements(grad.placements if same_mesh else None, placements)
        return _Redistribute.apply(grad, back, mesh, ctx.async_op, "torch", None), None, None, None, None, None


def redistribute(dtensor, placements, device_mesh=None, *, async_op=False, transport="torch", out=None,
                 in_place=False, staging_bytes=None):
    """dtensor moved to `placements` (on `device_mesh`, default its own) by
    redist's verified plan; called on every rank of the default group (a
    rank outside the meshes keeps its empty local tensor).  Uneven shards
    are torch.chunk's, as DTensor's own.  Every rank checks its arguments
    and the ranks agree on the verdict (one small all_reduce) before any
    data moves: a rank's bad input is a RedistError on every rank.

    transport="torch" (default): torch.distributed's collectives.
    Differentiable: the backward is the reverse move, planned by redist
    (gradient_placements).  async_op=True returns while the last step's
    messages are in flight: its local tensor is an AsyncCollectiveTensor,
    which waits on first use, as DTensor.redistribute(async_op=True)'s.

    transport="mpi": the C runtime over MPI (redist.mpi; a program started
    by mpirun, whose MPI_COMM_WORLD is the default group), CPU tensors, not
    differentiable.  The local tensor is read in place and the result
    written into `out` (this rank's target box; default a new tensor):
    tensors of redist.torch.empty are read by the other ranks of a host
    with one copy.  async_op=True returns a redist.mpi.Redistribution:
    wait() (once) gives the DTensor, is_completed() tests; until then the
    source must not be written, nor `out` read or written.

    in_place=True (transport="mpi", blocking, no Partial placements, no
    out=): the caller gives up the local tensor's storage, which must hold
    this rank's buffer, max(source box, target box) bytes, from the local
    tensor's first element on (empty_for_in_place allocates such a
    tensor; any contiguous view at the start of a larger storage serves).
    The move runs in that storage (redist.mpi.plan_in_place, at most
    staging_bytes of staging: None unbounded, else at least one element)
    and the result's local tensor is a view of the same storage at the same
    first element (no new array); the source DTensor holds garbage after."""
    if not dist.is_initialized():
        raise RedistError("redistribute: torch.distributed is not initialized (call init_process_group on every rank)")
    if in_place or staging_bytes is not None:
        return _moved_in_place(dtensor, placements, device_mesh, transport, out, bool(in_place), staging_bytes,
                               bool(async_op))
    if transport == "mpi":
        handle = _moved_by_mpi(dtensor, placements, device_mesh, out)
        return handle if async_op else handle.wait()
    return _Redistribute.apply(dtensor, placements, device_mesh, bool(async_op), transport, out)


def empty(shape, dtype=torch.float32):
    """A new contiguous CPU tensor in redist's shared memory
    (redist.mpi.empty: redist_alloc over MPI_COMM_WORLD), which the other
    ranks of its host read with one copy when it is the local tensor of a
    move by transport="mpi" (or its `out`, which is written in place).
    Collective over the world: every rank calls it, in the same order; the
    values are undefined; a bad argument on one rank is a RedistError on
    every rank.  Free it with free(tensor) on every rank."""
    try:
        dtype_name(dtype)
        shape = _plan.sizes(shape)
        nbytes, failure = math.prod(shape) * torch.empty((), dtype=dtype).element_size(), None
    except RedistError as e:
        nbytes, failure = 0, e
    raw = torch.from_numpy(np.frombuffer(_mpi._allocate(nbytes, failure), dtype=np.uint8))
    return raw.view(dtype).view(shape)


def empty_for_in_place(device_mesh, placements, target_placements, shape, dtype=torch.float32, target_mesh=None):
    """A contiguous CPU tensor of this rank's source box (shape and dtype of
    the global array, `placements` on device_mesh) over a storage of the
    rank's buffer for the move in place to `target_placements` (on
    target_mesh, default device_mesh): max(source box, target box) bytes,
    what redistribute(..., transport="mpi", in_place=True) needs.  Plans
    in place (redist.mpi) but moves nothing: not collective.  The values
    are undefined; fill it, then DTensor.from_local it."""
    target_mesh = device_mesh if target_mesh is None else target_mesh
    src_mesh, dst_mesh = _device_mesh(device_mesh, "source mesh"), _device_mesh(target_mesh, "target mesh")
    p, ranks = _in_place_plan_of(src_mesh, _placements(placements, "source placements"), dst_mesh,
                                 _placements(target_placements, "target placements"), _plan.sizes(shape), dtype, None)
    me = ranks.index(dist.get_rank()) if dist.get_rank() in ranks else None
    box = p.src_shape(me) if me is not None else (0,) * len(shape)
    storage = torch.empty(p.buffer_bytes(me) if me is not None else 0, dtype=torch.uint8)
    return storage.view(dtype)[:math.prod(box)].view(box)


def free(tensor):
    """Frees the shared memory of a tensor of empty() (any view of it):
    collective over the world, in allocation order, as redist.mpi.free (a
    bad argument on one rank is a RedistError on every rank).  The tensor
    and its views are invalid afterwards."""
    _mpi.free(tensor.untyped_storage().data_ptr() if isinstance(tensor, torch.Tensor) else tensor)
