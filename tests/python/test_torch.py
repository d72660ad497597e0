"""redist.torch on 4 CPU processes (gloo):
 - random problems on a 4-device mesh and a 2x2 mesh, even and uneven
   (torch.chunk's blocks, empty ones included), by the collectives and by
   the exchange: every rank's local tensor equals its part of the true
   array (true_local) and DTensor.redistribute's;
 - moves between meshes (a 1-D mesh to a 2x2 one, a mesh on permuted ranks);
 - a hybrid (the cost model's choice for an uneven gather on a 2x2 mesh):
   its two parts (the exchange, then all_gather) run in turn, every rank's
   tensor right;
 - pytorch#103306's uneven round trip (5 x 10 over 4 ranks, Replicate ->
   Shard(0) -> Replicate), and an uneven gather on a mesh over ranks out of
   order, which DTensor gets wrong: redist's and DTensor's results side by
   side;
 - Partial() sources (pending sums) on a 2x2 mesh to Shard, Replicate and
   Partial targets, random problems (integer dtypes exact, f32 and bf16
   within a stated bound): each Partial group's contributions sum to the
   true array; redist's result is compared with the true array (a Partial
   target summed over its groups) and with DTensor.redistribute's; an
   uneven Partial -> Shard (the reducing exchange) and a Partial on a mesh
   over ranks out of order against the true sums, and two runs of a float
   plan bitwise equal; the Partial() tests again over NCCL on 4 GPUs (skipped without);
 - every Shard/Replicate/Partial layout of 1- and 2-dimensional tensors
   on meshes (4,), 2x2 and 2x3 (the last in the world of 6), both shard
   orders (DTensorSpec.shard_order and _StridedShard), even and uneven
   sizes, as source and as target: every move accepted (nested uneven
   shards are composed cuts) but Partial ones with a composed cut (the
   planner's one line: not planned yet; the test's own account of which
   nested chunks are one ceil block), each the true array and
   DTensor.redistribute's result where DTensor's is right (its source's
   full_tensor() the array); the moves by the region exchange counted apart;
 - _StridedShard as DTensor makes it (DTensor.view of sharded dimensions,
   distribute_tensor): to Replicate() the array, as DTensor's, and back
   each rank's local tensor; a view of uneven blocks refused in one line;
 - issue 26: [Shard(0), Shard(0)] with mesh dimension 1 cutting first
   ({b,a}), as shard_order and as _StridedShard, to Replicate(): the array;
   the same order of an uneven (6, 4) tensor ([{b}{a}6, 4]) to Replicate()
   and back;
 - the translation of placements to redist's types ({a,b}N where it is
   DTensor's holding, composed cuts otherwise, {a}%B for a view's split);
 - Partial(op) for op in product, max, min, avg, as source and target, with
   every dtype that has it (integers, floats, complex), random problems even,
   uneven and between meshes: every rank's tensor reduced over its Partial
   groups is the host reference of op over the members' random
   contributions (exact for integers, max and min; within the rounding
   bound for float products and averages), and DTensor.redistribute's on
   the same inputs is the same;
 - one-line errors for Partial('bxor'), mixed reduce_ops, Partial('avg') of
   int32, and a _StridedShard whose blocks no redist cut gives;
 - a rank's bad input to redistribute (a local tensor that does not fit its
   box or is on another device, a plain tensor, ranks asking different
   moves) is a RedistError on every rank, agreed before any data moves, and
   the next valid call is right on every element of every rank; refused on
   every rank: arguments of the wrong type;
 - gradients: redistribute's backward (the reverse move, planned by
   redist) against DTensor.redistribute's on 7 placement pairs (Partial and
   Replicate both ways; where DTensor refuses, against the true gradient),
   and a training step (forward, backward, SGD) whose parameters equal
   DTensor's step on every element; async_op=True equal to the sync move;
 - the reducing exchange's bytes alive on each rank, measured with a
   TorchDispatchMode over 60 random uneven Partial() problems, within
   Plan.live_bytes;
 - in a world of 6, DTensors on meshes over some of its ranks ([1, 3],
   [2, 0, 5], [[4, 1], [0, 3]], [[2, 0]]), random problems and a hybrid:
   members hold the true values, every other rank an empty tensor."""
import datetime
import itertools
import math
import os
import random
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
WORLD = 4
RANDOM_CASES = 80
PARTIAL_CASES = 40
SUBMESH_CASES = 48
REDUCING_CASES = 60
REDUCE_OP_CASES = 24
SUBMESH_WORLD = 6


def random_placements(ndim, mesh_dims, shape, rng, composed=True):
    """Random Shard and Replicate placements: a tensor dimension sharded
    over two mesh dimensions too, of any size (DTensor's nested chunks,
    redist's composed cuts where they are not its ceil blocks), or with
    composed=False only where 4 divides it (one ceil block over the
    product: for moves in place and with pending sums, which composed cuts
    do not take yet)."""
    while True:
        choice = [Shard(rng.randrange(ndim)) if rng.random() < 0.7 else Replicate() for _ in range(mesh_dims)]
        dims = [p.dim for p in choice if isinstance(p, Shard)]
        if composed or all(shape[d] % 4 == 0 for d in set(dims) if dims.count(d) > 1):
            return choice


def true_local(full, mesh, placements, order=None):
    """This rank's part of `full` under DTensor's documented semantics,
    computed here from the mesh coordinate: each Shard(d), in mesh-dimension
    order (or the mesh dimensions in `order`: a shard order), keeps chunk
    coordinate[i] of torch.chunk's blocks (ceil(N/n), the last short or
    empty); a rank outside the mesh holds an empty tensor."""
    coordinate = mesh.get_coordinate()
    if coordinate is None:
        return torch.empty(0, dtype=full.dtype)
    x = full
    for i in order or range(len(placements)):
        p = placements[i]
        if isinstance(p, Shard):
            lo, hi = chunk_bounds(x.shape[p.dim], mesh.size(i), coordinate[i])
            x = x.narrow(p.dim, lo, hi - lo)
    return x.contiguous()


def chunk_bounds(size, n, k):
    """[lo, hi) of torch.chunk's block k of `size` in n: ceil(size/n)
    long, the last ones short or empty."""
    block = -(-size // n)
    return min(size, k * block), min(size, (k + 1) * block)


def dtensor_of(full, mesh, placements):
    """A DTensor holding the true local parts (not distribute_tensor, which
    itself misplaces uneven blocks on a mesh over ranks out of order)."""
    from torch.distributed.tensor import DTensor
    return DTensor.from_local(true_local(full, mesh, placements), mesh, placements, shape=full.shape,
                              stride=full.stride())


def local_equal(a, b):
    return a.shape == b.shape and torch.equal(a, b)


def random_problems(rank, results):
    import redist.torch as rt
    rng = random.Random(5)
    meshes = [init_device_mesh("cpu", (4,), mesh_dim_names=("x",)),
              init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))]
    bad, strategies, uneven, dtensor_wrong = [], {True: 0, False: 0}, 0, []
    for case in range(RANDOM_CASES):
        mesh = meshes[case % 2]
        ndim = rng.randint(1, 3)
        shape = tuple(rng.choice([1, 2, 3, 4, 5, 6, 7, 8]) for _ in range(ndim))
        src = random_placements(ndim, mesh.ndim, shape, rng)
        dst = random_placements(ndim, mesh.ndim, shape, rng)
        dtype = [torch.float32, torch.int64, torch.bfloat16][case % 3]
        full = torch.arange(int(torch.tensor(shape).prod())).reshape(shape).to(dtype)
        d = dtensor_of(full, mesh, src)
        out = rt.redistribute(d, dst)
        truth = true_local(full, mesh, dst)
        plan = rt.plan(mesh, tuple(src), mesh, tuple(dst), shape, dtype)
        strategies[plan.by_exchange] += 1
        uneven += any(n % 4 for n in shape)
        if not local_equal(out.to_local(), truth) or tuple(out.placements) != tuple(dst):
            bad.append("%s %s -> %s" % (shape, src, dst))
        if not local_equal(d.redistribute(mesh, dst).to_local(), truth):
            dtensor_wrong.append("%s %s -> %s" % (shape, src, dst))
    results.append(("random problems on meshes (4,) and (2, 2): every rank's tensor is its target box (%d cases)"
                    % RANDOM_CASES,
                    not bad, "%d by the collectives, %d by the exchange, %d with an uneven dimension; DTensor "
                    "agrees on %d; wrong: %s" % (strategies[False], strategies[True], uneven,
                                                 RANDOM_CASES - len(dtensor_wrong), bad[:2])))


def layouts(mesh, ndim):
    """Every layout of a tensor of ndim dimensions on mesh: each mesh
    dimension Shard(d), Replicate() or Partial(), as (placements, order):
    order the mesh dimensions in the order they cut (None: mesh order), and
    where two mesh dimensions cut one tensor dimension, also the other
    order (mesh dimension 1 cutting first)."""
    options = [Shard(d) for d in range(ndim)] + [Replicate(), Partial()]
    out = []
    for choice in itertools.product(options, repeat=mesh.ndim):
        out.append((choice, None))
        if mesh.ndim == 2 and isinstance(choice[0], Shard) and choice[0] == choice[1]:
            out.append((choice, (1, 0)))
    return out


def encodings(mesh, placements, order):
    """The ways a DTensor holds a layout: its placements (mesh order);
    another order both as DTensorSpec.shard_order and as the _StridedShard
    placements that encode it (mesh dimension 0 split by mesh dimension
    1's size first)."""
    from torch.distributed.tensor.placement_types import _StridedShard
    if order is None:
        return [("placements", placements, None)]
    from torch.distributed.tensor._dtensor_spec import ShardOrderEntry
    d = placements[0].dim
    return [("shard_order", placements, (ShardOrderEntry(tensor_dim=d, mesh_dims=tuple(order)),)),
            ("_StridedShard", (_StridedShard(d, split_factor=mesh.size(1)), Shard(d)), None)]


def one_block(mesh, placements, order, shape):
    """Whether DTensor's nested torch.chunk blocks of every tensor dimension
    cut by two mesh dimensions (in `order`) are one ceil block over their
    product, the first to cut major, on every coordinate (redist's {i,j}N,
    no composed cut): the test's own account, from torch.chunk's bounds."""
    for d, size in enumerate(shape):
        axes = [i for i in order or range(mesh.ndim) if placements[i] == Shard(d)]
        if len(axes) < 2:
            continue
        n = [mesh.size(i) for i in axes]
        for c in itertools.product(*map(range, n)):
            lo, hi = chunk_bounds(size, n[0], c[0])
            nested_lo, nested_hi = chunk_bounds(hi - lo, n[1], c[1])
            nested = range(lo + nested_lo, lo + nested_hi)
            if nested != range(*chunk_bounds(size, n[0] * n[1], c[0] * n[1] + c[1])):  # empty ranges are equal
                return False
    return True


def layout_dtensor(full, mesh, placements, order, encoded, shard_order, seed):
    """A DTensor of `full` in this layout, its local tensors placed by the
    test's true_local in the layout's order (Partial groups: random
    contributions summing to full), held as `encoded` (and shard_order)."""
    from torch.distributed.tensor import DTensor
    from torch.distributed.tensor._dtensor_spec import DTensorSpec, TensorMeta
    parts = contributions(full, mesh, placements, seed)
    plain = [Replicate() if isinstance(p, Partial) else p for p in placements]
    local = true_local(parts[member_index(mesh, placements)], mesh, plain, order)
    if shard_order is None:
        return DTensor.from_local(local, mesh, encoded, shape=full.shape, stride=full.stride())
    spec = DTensorSpec(mesh, tuple(encoded), TensorMeta(full.shape, full.stride(), full.dtype), shard_order=shard_order)
    return DTensor(local, spec, requires_grad=False)


def sweep_shapes(mesh):
    """Even and uneven sizes: on a 2x2 mesh 8 (even), 7 and 3 (uneven, and
    DTensor's nested blocks are redist's ceil blocks over the product), 6, 5
    and 2 (they are not: redist's composed cuts)."""
    if mesh.ndim == 1:
        return [(8,), (7,), (2,), (6, 3)]
    if mesh.size(1) == 2:
        return [(8,), (7,), (6,), (2,), (8, 4), (7, 6), (5, 3)]
    return [(12,), (11,), (5,), (7,), (12, 6), (7, 4)]


def layout_sweep(rank, results, shape_of_mesh):
    """Every Shard/Replicate/Partial layout of 1- and 2-dimensional tensors
    (both shard orders, as shard_order and as _StridedShard) on a mesh of
    this shape, even and uneven sizes: each layout as the source of moves
    to all-Replicate and to another layout, and each as the target of a move
    from all-Replicate.  Every move is accepted (nested uneven shards are
    redist's composed cuts) but those with Partial placements and a layout
    whose nested blocks are no one block (one_block), which the planner
    refuses in one line (pending axes with composed cuts are not planned
    yet); an accepted move's result equals the true array and
    DTensor.redistribute's on the same input element by element (a Partial
    target: its group sums).  Two results: all moves, and the moves between
    composed layouts (the region exchange), counted apart."""
    import redist
    import redist.torch as rt
    names = ("a", "b", "c")[:len(shape_of_mesh)]
    mesh = init_device_mesh("cpu", shape_of_mesh, mesh_dim_names=names)
    counts = {"moves": 0, "refused: pending with composed": 0, "DTensor agrees": 0, "DTensor refuses": 0}
    bad, dtensor_wrong, composed, composed_bad = [], [], {"shard order": 0, "_StridedShard": 0, "mesh order": 0}, []
    for case, shape in enumerate(sweep_shapes(mesh)):
        full = torch.arange(1, math.prod(shape) + 1, dtype=torch.int64).reshape(shape) * 1009
        every = layouts(mesh, len(shape))
        everywhere = (tuple(Replicate() for _ in names), None)
        moves = []
        for k, (placements, order) in enumerate(every):
            for target in (everywhere, every[(k * 7 + 3) % len(every)]):
                moves += [((placements, order), target, enc) for enc in encodings(mesh, placements, order)]
            moves.append((everywhere, (placements, order), encodings(mesh, *everywhere)[0]))
        for m, ((src, src_order), (dst, dst_order), (how, encoded, shard_order)) in enumerate(moves):
            d = layout_dtensor(full, mesh, src, src_order, encoded, shard_order, seed=case * 1000 + m)
            # DTensor's own reading of the test's source (its full_tensor()): the array, or the test is wrong.
            if (src, src_order) != everywhere and not local_equal(d.full_tensor(), full):
                bad.append("%s %s %s: DTensor's full_tensor() of the source is not the array" % (shape, how, src))
                continue
            target = encodings(mesh, dst, dst_order)[-1][1]
            what = "%s %s (%s) -> %s" % (shape, list(encoded), how if shard_order is None else "shard_order %s"
                                         % (src_order,), list(target))
            pending = any(isinstance(p, Partial) for p in src + dst)
            composed_cut = not (one_block(mesh, src, src_order, shape) and one_block(mesh, dst, dst_order, shape))
            try:
                out = rt.redistribute(d, target)
            except redist.RedistError as e:
                counts["refused: pending with composed"] += 1
                if not (pending and composed_cut) or "\n" in str(e) or "pending axes with composed cuts" not in str(e):
                    bad.append("%s refused: %s" % (what, e))
                continue
            if pending and composed_cut:
                bad.append("%s accepted, with pending axes and a composed cut" % what)
            counts["moves"] += 1
            plain = [Replicate() if isinstance(p, Partial) else p for p in dst]
            truth = true_local(full, mesh, plain, dst_order)
            ours = group_sums(out.to_local(), mesh, dst)
            right = local_equal(ours, truth) and tuple(out.placements) == tuple(target)
            if not right:
                bad.append("%s: wrong" % what)
            if rt.plan(mesh, rt._placements_in_order(d), mesh, tuple(target), shape, full.dtype).kind == "regions":
                composed[{"placements": "mesh order", "shard_order": "shard order"}.get(how, how)] += 1
                if not right:
                    composed_bad.append(what)
            try:
                theirs = d.redistribute(mesh, target).to_local()
            except RuntimeError:  # DTensor's "Can not redistribute from R to P(sum)"
                counts["DTensor refuses"] += 1
                continue
            same = local_equal(out.to_local(), theirs) if not any(isinstance(p, Partial) for p in dst) \
                else local_equal(ours, group_sums(theirs, mesh, dst))
            counts["DTensor agrees"] += same
            if not same:  # redist's is the true array and DTensor reads the source as the array: DTensor's is wrong
                dtensor_wrong.append(what)
    everyone = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, sorted(dtensor_wrong))
    dtensor_wrong = sorted(set().union(*everyone))
    results.append(("every Shard/Replicate/Partial layout on a %s mesh, both shard orders, even and uneven sizes: "
                    "every move accepted (but Partial with composed cuts, refused in one line), the true array, as "
                    "DTensor.redistribute's result is where it is right"
                    % "x".join(map(str, shape_of_mesh)), not bad,
                    "on rank 0 %s; wrong: %s; DTensor.redistribute wrong on some rank in %d (the source's "
                    "full_tensor() the array): %s"
                    % (counts, bad[:3], len(dtensor_wrong), dtensor_wrong[:2])))
    if len(shape_of_mesh) > 1:
        everyone = [None] * dist.get_world_size()
        dist.all_gather_object(everyone, (composed, composed_bad))
        results.append(("composed layouts on a %s mesh (nested uneven shards in mesh order, in the other shard order "
                        "as shard_order and as _StridedShard): every move by the region exchange the true array"
                        % "x".join(map(str, shape_of_mesh)),
                        all(c["shard order"] and c["_StridedShard"] and c["mesh order"] and not b for c, b in everyone),
                        "moves by the region exchange on rank 0: %s; wrong on some rank: %s"
                        % (composed, sorted(set().union(*[b for _, b in everyone]))[:3])))


def sweep_line(rank, results):
    layout_sweep(rank, results, (4,))


def sweep_square(rank, results):
    layout_sweep(rank, results, (2, 2))


def sweep_two_by_three(rank, results):
    layout_sweep(rank, results, (2, 3))


def strided_shards(rank, results):
    """_StridedShard placements as DTensor itself makes them: views that
    flatten sharded dimensions (DTensor.view) and distribute_tensor with
    the encoding of a shard order.  Each moved to Replicate() (the array,
    as DTensor.redistribute's result) and from the replicated array back to
    its placements (each rank's local tensor DTensor's); a view whose blocks
    are uneven is refused in one line on every rank."""
    import redist.torch as rt
    from torch.distributed.tensor import distribute_tensor
    from torch.distributed.tensor.placement_types import _StridedShard
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    cases = [(line, (3, 8), [Shard(1)], (24,)), (square, (4, 8), [Shard(1), Replicate()], (32,)),
             (square, (4, 8), [Shard(1), Shard(1)], (32,)), (square, (4, 8), [Shard(0), Shard(1)], (32,)),
             (square, (2, 4, 8), [Shard(2), Shard(1)], (2, 32))]
    made = []
    for mesh, shape, placements, flat in cases:
        full = torch.arange(math.prod(shape), dtype=torch.float32).reshape(shape)
        made.append(("DTensor.view %s %s -> %s" % (list(shape), placements, list(flat)),
                     distribute_tensor(full, mesh, placements).view(flat), full.reshape(flat)))
    eight = torch.arange(32, dtype=torch.float32).reshape(8, 4)
    made.append(("distribute_tensor (8, 4) [_StridedShard(0, sf=2), Shard(0)]",
                 distribute_tensor(eight, square, [_StridedShard(0, split_factor=2), Shard(0)]), eight))
    for what, d, full in made:
        mesh, replicated = d.device_mesh, [Replicate()] * d.device_mesh.ndim
        text = rt.type_text(mesh, tuple(d.placements), tuple(full.shape))
        ours = rt.redistribute(d, replicated).to_local()
        theirs = d.redistribute(mesh, replicated).to_local()
        back = rt.redistribute(DTensor.from_local(full, mesh, replicated), list(d.placements)).to_local()
        results.append(("_StridedShard of %s (%s): to Replicate() the array, as DTensor.redistribute's; back, each "
                        "rank's local tensor DTensor's" % (what, list(d.placements)),
                        "{" in text and local_equal(ours, full) and local_equal(theirs, full)
                        and local_equal(back, d.to_local()), "rank %d: %s" % (rank, text)))
    uneven = distribute_tensor(torch.arange(18.0).reshape(3, 6), line, [Shard(1)]).view(18)
    results.append(("_StridedShard of DTensor.view [3, 6] [Shard(1)] -> [18] over 4 (column blocks 2, 2, 2, 0: no "
                    "fixed blocks) is refused on every rank in one line",
                    *refused(lambda: rt.redistribute(uneven, [Replicate()]), range(WORLD),
                             "_StridedShard(dim=0, sf=3) on mesh dimensions x", "no redist cut's")))


def between_meshes(rank, results):
    import redist.torch as rt
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    square = DeviceMesh("cpu", [[3, 1], [2, 0]], mesh_dim_names=("a", "b"))
    full = torch.arange(7 * 5, dtype=torch.float32).reshape(7, 5)
    for what, src_mesh, src, dst_mesh, dst in [
            ("(4,) Shard(0) -> 2x2 [Shard(1), Shard(0)]", line, [Shard(0)], square, [Shard(1), Shard(0)]),
            ("2x2 on ranks [[3, 1], [2, 0]] [Shard(0), Replicate()] -> itself [Replicate(), Shard(1)]",
             square, [Shard(0), Replicate()], square, [Replicate(), Shard(1)])]:
        out = rt.redistribute(dtensor_of(full, src_mesh, src), dst, device_mesh=dst_mesh)
        truth = true_local(full, dst_mesh, dst)
        results.append(("between meshes: " + what, local_equal(out.to_local(), truth),
                        "rank %d holds %s" % (rank, tuple(out.to_local().shape))))


def hybrid(rank, results):
    """[Shard(1), Shard(0)] of a 6 x 5 tensor on a 2x2 mesh to Replicate()
    twice ([{b}6, {a}5] -> [6, 5]): the cost model picks the exchange, then
    all_gather(0) through [{b}6, 5]."""
    import redist.torch as rt
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    full = torch.arange(30, dtype=torch.int16).reshape(6, 5)
    src, dst = [Shard(1), Shard(0)], [Replicate(), Replicate()]
    plan = rt.plan(mesh, tuple(src), mesh, tuple(dst), tuple(full.shape), full.dtype)
    parts = [part.kind for part in plan.parts()] if plan.kind == "hybrid" else []
    out = rt.redistribute(dtensor_of(full, mesh, src), dst).to_local()
    results.append(("a hybrid on a 2x2 mesh (%s): its parts (%s) in turn, every rank's tensor the array"
                    % ("; ".join(plan.step_texts), ", ".join(parts)),
                    plan.kind == "hybrid" and parts == ["exchange", "collectives"] and local_equal(out, full),
                    "plan %s, rank %d holds %s" % (plan.kind, rank, out.tolist())))


def issue_103306(rank, results):
    """pytorch#103306: x (5, 10) replicated on 4 ranks, to Shard(0) (blocks
    2, 2, 1, 0) and back to Replicate; the report saw (8, 10) come back."""
    import redist.torch as rt
    from torch.distributed.tensor import DTensor
    mesh = init_device_mesh("cpu", (4,))
    x = torch.arange(50, dtype=torch.float32).reshape(5, 10)
    start = DTensor.from_local(x, mesh, [Replicate()])
    ours = rt.redistribute(rt.redistribute(start, [Shard(0)]), [Replicate()]).to_local()
    theirs = start.redistribute(mesh, [Shard(0)]).redistribute(mesh, [Replicate()]).to_local()
    results.append(("pytorch#103306 round trip: redist's result is the array", local_equal(ours, x),
                    "redist %s %s, DTensor.redistribute %s %s (torch %s)"
                    % (tuple(ours.shape), "equal" if local_equal(ours, x) else "WRONG", tuple(theirs.shape),
                       "equal" if local_equal(theirs, x) else "WRONG", torch.__version__)))


def permuted_mesh(rank, results):
    """An uneven case DTensor gets wrong (torch 2.15): a 7 x 5 tensor
    Shard(0) over a 1-D DeviceMesh on ranks [3, 1, 2, 0] (blocks 2, 2, 2, 1)
    to Replicate().  DTensor's gather keeps the padding and orders the blocks
    by rank, not by mesh position; redist's exchange returns the array."""
    import redist.torch as rt
    mesh = DeviceMesh("cpu", [3, 1, 2, 0])
    full = torch.arange(35, dtype=torch.float32).reshape(7, 5)
    start = dtensor_of(full, mesh, [Shard(0)])
    ours = rt.redistribute(start, [Replicate()]).to_local()
    theirs = start.redistribute(mesh, [Replicate()]).to_local()
    results.append(("uneven Shard(0) -> Replicate() on a mesh over ranks [3, 1, 2, 0]: redist's result is the array",
                    local_equal(ours, full), "rows' first elements: redist %s; DTensor.redistribute %s (%s)"
                    % (ours[:, 0].tolist(), theirs[:, 0].tolist(), "right" if local_equal(theirs, full) else "WRONG")))


def member_index(mesh, placements):
    """This rank's member index in its Partial group: its coordinates on the
    Partial mesh dimensions, row-major (0 outside the mesh)."""
    coordinate, k = mesh.get_coordinate(), 0
    if coordinate is None:
        return 0
    for i, p in enumerate(placements):
        if isinstance(p, Partial):
            k = k * mesh.size(i) + coordinate[i]
    return k


def contributions(full, mesh, placements, seed):
    """Every member's contribution to `full` under `placements` (global
    arrays): members k > 0 hold random values, member 0 the rest, so that
    each Partial group sums to `full` (integers wrap)."""
    members = 1
    for i, p in enumerate(placements):
        if isinstance(p, Partial):
            members *= mesh.size(i)
    gen = torch.Generator().manual_seed(seed)
    others = [(torch.randint(-50, 50, full.shape, generator=gen) if not full.is_floating_point()
               else torch.rand(full.shape, generator=gen) * 4 - 2).to(full.dtype) for _ in range(members - 1)]
    first = full
    for c in others:
        first = first - c
    return [first] + others


def partial_dtensor(full, mesh, placements, seed, device="cpu"):
    """A DTensor whose Partial groups sum to `full` (on the host), and the
    sum of the members' magnitudes (for float tolerances)."""
    from torch.distributed.tensor import DTensor
    parts = contributions(full, mesh, placements, seed)
    plain = [Replicate() if isinstance(p, Partial) else p for p in placements]
    mine = true_local(parts[member_index(mesh, placements)], mesh, plain).to(device)
    magnitude = sum(c.double().abs() for c in parts)
    return DTensor.from_local(mine, mesh, placements, shape=full.shape, stride=full.stride()), magnitude, len(parts)


def random_partial(ndim, mesh, rng, shape):
    """Source placements with at least one Partial(); Shard(d) only on
    dimensions every mesh dimension divides."""
    while True:
        choice = [rng.choice([Partial(), Partial(), Shard(rng.randrange(ndim)), Replicate()]) for _ in range(mesh.ndim)]
        if any(isinstance(p, Partial) for p in choice):
            return choice


def agrees(got, truth, bound, dtype):
    """Integers: equal.  f32: within members * 2^-24 of the magnitudes' sum
    per element (G - 1 additions in f32), and the rounding of the truth and
    of the contributions themselves; bf16: members * 2^-8."""
    if not dtype.is_floating_point:
        return got.shape == truth.shape and torch.equal(got, truth)
    eps = 2.0 ** -8 if dtype == torch.bfloat16 else 2.0 ** -24
    return got.shape == truth.shape and bool(((got.double() - truth.double()).abs() <= 4 * eps * bound + 1e-30).all())


def group_sums(local, mesh, placements):
    """A Partial target's values: the local tensors added over each Partial
    mesh dimension's group (gloo's all_reduce, in int64 or f64, then the
    dtype: integers wrap as the runtime's do)."""
    wide = local.to(torch.float64 if local.is_floating_point() else torch.int64)
    for i, p in enumerate(placements):
        if isinstance(p, Partial):
            dist.all_reduce(wide, group=mesh.get_group(i))
    return wide.to(local.dtype)


def partial_problems(rank, results, device="cpu"):
    """Partial() sources on a 2x2 mesh to Shard, Replicate and Partial."""
    import redist.torch as rt
    rng = random.Random(11)
    mesh = init_device_mesh(device, (2, 2), mesh_dim_names=("a", "b"))
    dtypes = [torch.int32, torch.int64, torch.int16, torch.float32, torch.bfloat16]
    bad, dtensor_wrong, dtensor_refused, kinds = [], [], [], {}
    targets = {"Shard": 0, "Replicate": 0, "Partial": 0}
    for case in range(PARTIAL_CASES):
        ndim = rng.randint(1, 3)
        shape = tuple(rng.choice([4, 8, 12]) for _ in range(ndim))
        src = random_partial(ndim, mesh, rng, shape)
        dst = [rng.choice([Shard(rng.randrange(ndim)), Replicate(), Partial()]) for _ in range(mesh.ndim)]
        for p in dst:
            targets[type(p).__name__] += 1
        dtype = dtypes[case % len(dtypes)]
        gen = torch.Generator().manual_seed(1000 + case)
        full = (torch.randint(-1000, 1000, shape, generator=gen) if not dtype.is_floating_point
                else torch.rand(shape, generator=gen) * 8 - 4).to(dtype)
        d, magnitude, members = partial_dtensor(full, mesh, src, seed=case, device=device)
        try:
            out = rt.redistribute(d, dst)
        except RuntimeError as e:
            bad.append("%s %s %s -> %s: %s" % (dtype, shape, src, dst, e))
            continue
        plan = rt.plan(mesh, tuple(src), mesh, tuple(dst), shape, dtype)
        kinds[plan.kind] = kinds.get(plan.kind, 0) + 1
        plain = [Replicate() if isinstance(p, Partial) else p for p in dst]
        ours = group_sums(out.to_local(), mesh, dst).cpu()
        truth, bound = true_local(full, mesh, plain), true_local(magnitude, mesh, plain) * members
        what = "%s %s %s -> %s" % (dtype, shape, src, dst)
        if not agrees(ours, truth, bound, dtype) or tuple(out.placements) != tuple(dst):
            bad.append(what)
        try:
            theirs = d.redistribute(mesh, dst).redistribute(mesh, plain).to_local().cpu()
            if not agrees(theirs, truth, bound, dtype):
                dtensor_wrong.append(what)
        except RuntimeError:  # e.g. "Can not redistribute from R to P(sum)"
            dtensor_refused.append(what)
    results.append(("Partial() sources on a 2x2 mesh (%s): every rank's tensor holds the true sums (%d random "
                    "problems)" % (dist.get_backend(), PARTIAL_CASES), not bad,
                    "plans: %s; target placements: %s; DTensor.redistribute agrees on %d, refuses %d, "
                    "differs on %d %s; wrong: %s"
                    % (kinds, targets, PARTIAL_CASES - len(dtensor_wrong) - len(dtensor_refused),
                       len(dtensor_refused), len(dtensor_wrong), dtensor_wrong[:1], bad[:2])))


def uneven_partial(rank, results, device="cpu"):
    """A 7 x 3 Partial() over a 1-D mesh of 4 to Shard(0) (blocks 2, 2, 2, 1):
    the reducing exchange, against the true sums; then a float plan run
    twice, bitwise equal."""
    import redist.torch as rt
    mesh = init_device_mesh(device, (4,), mesh_dim_names=("x",))
    full = torch.arange(21, dtype=torch.int64).reshape(7, 3) * 1000003
    d, _, _ = partial_dtensor(full, mesh, [Partial()], seed=7, device=device)
    out = rt.redistribute(d, [Shard(0)])
    plan = rt.plan(mesh, (Partial(),), mesh, (Shard(0),), (7, 3), torch.int64)
    truth = true_local(full, mesh, [Shard(0)])
    ours = out.to_local().cpu()
    results.append(("uneven Partial() -> Shard(0) of 7 rows on 4 ranks (%s): the true sums (%s)"
                    % (dist.get_backend(), plan.kind), local_equal(ours, truth) and plan.kind == "reducing_exchange",
                    "rank %d holds rows %s" % (rank, ours[:, 0].div(1000003, rounding_mode="floor").tolist())))
    permuted = DeviceMesh(device, [[3, 1], [2, 0]], mesh_dim_names=("a", "b"))
    full = torch.arange(45, dtype=torch.int32).reshape(9, 5) * 7919
    d, _, _ = partial_dtensor(full, permuted, [Partial(), Shard(1)], seed=9, device=device)
    ours = rt.redistribute(d, [Shard(0), Replicate()]).to_local().cpu()
    results.append(("Partial() on a 2x2 mesh over ranks [[3, 1], [2, 0]], 9 x 5 int32 -> [Shard(0), Replicate()] "
                    "(%s): the true sums" % dist.get_backend(),
                    local_equal(ours, true_local(full, permuted, [Shard(0), Replicate()])),
                    "rank %d holds %s" % (rank, tuple(ours.shape))))
    square = init_device_mesh(device, (2, 2), mesh_dim_names=("a", "b"))
    noisy = torch.rand(8, 8, generator=torch.Generator().manual_seed(3))
    f, _, _ = partial_dtensor(noisy, square, [Partial(), Partial()], seed=5, device=device)
    first = rt.redistribute(f, [Shard(0), Shard(1)]).to_local()
    second = rt.redistribute(f, [Shard(0), Shard(1)]).to_local()
    results.append(("f32 pending sums (%s): two runs of one plan are bitwise equal (ascending member order)"
                    % dist.get_backend(),
                    torch.equal(first.view(torch.int32), second.view(torch.int32)), ""))


# Partial(reduce_op) beyond "sum": the element types each is drawn with (redist refuses avg of integers and
# max/min of complex numbers, as it must; DTensor's gloo has no complex product, so that is checked against the
# truth only).
REDUCE_OP_DTYPES = {"product": (torch.int32, torch.int16, torch.uint8, torch.float32, torch.bfloat16, torch.complex64),
                    "max": (torch.int64, torch.int16, torch.uint8, torch.float32, torch.bfloat16),
                    "min": (torch.int32, torch.int8, torch.uint8, torch.float64, torch.bfloat16),
                    "avg": (torch.float32, torch.bfloat16, torch.float64, torch.complex64)}


def wrapped(values, dtype):
    """int64 values as the integer dtype keeps them: modulo 2^bits, signed
    or not (the runtime's wrapping product), computed here by hand."""
    info = torch.iinfo(dtype)
    span = info.max - info.min + 1
    return ((values - info.min) % span + info.min).to(dtype)


def reference(op, stacked, dtype):
    """op over the members (dimension 0 of `stacked`), exactly where the
    result is exact (integers, max and min), else in f64 / c128: the
    independent host reference the results are checked against."""
    if op in ("max", "min"):
        return stacked.amax(0) if op == "max" else stacked.amin(0)
    if not dtype.is_floating_point and not dtype.is_complex:
        return wrapped(stacked.to(torch.int64).prod(0), dtype)
    wide = stacked.to(torch.complex128 if dtype.is_complex else torch.float64)
    return wide.prod(0) if op == "product" else wide.mean(0)


def op_contributions(op, dtype, shape, members, gen):
    """members random contributions of a dtype: integers small enough that
    a product of four wraps only in 8 and 16 bits, floats in [0.5, 2) for
    products (no underflow) or [-4, 4) otherwise."""
    if dtype.is_complex:
        parts = torch.rand((members,) + shape + (2,), generator=gen) * 1.5 + 0.5
        return torch.view_as_complex(parts).to(dtype)
    if dtype.is_floating_point:
        low, high = (0.5, 2.0) if op == "product" else (-4.0, 4.0)
        return (torch.rand((members,) + shape, generator=gen) * (high - low) + low).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(info.min, -60), min(info.max, 60) + 1, (members,) + shape, generator=gen).to(dtype)


def op_agrees(got, truth, bound, dtype, exact):
    """Exactly equal where the operation is exact; else within 4 x members x
    2^-24 (f32; 2^-53 f64, 2^-8 bf16) of `bound` (the truth's magnitude
    times the group size) per element, complex numbers part by part."""
    if exact:
        return got.shape == truth.shape and torch.equal(got, truth.to(got.dtype))
    if dtype.is_complex:
        got, truth, bound = torch.view_as_real(got), torch.view_as_real(truth), bound.unsqueeze(-1)
        dtype = got.dtype
    eps = {torch.bfloat16: 2.0 ** -8, torch.float64: 2.0 ** -53}.get(dtype, 2.0 ** -24)
    return got.shape == truth.shape and bool(((got.double() - truth.double()).abs() <= 4 * eps * bound + 1e-30).all())


def group_reduced(op, local, mesh, placements):
    """A Partial(op) target's values: the local tensors gathered over each
    Partial mesh dimension's group (as bytes: gloo gathers only some
    dtypes) and reduced by the host reference."""
    for i, p in enumerate(placements):
        if isinstance(p, Partial):
            raw = local.contiguous().reshape(-1).view(torch.uint8)
            parts = [torch.empty_like(raw) for _ in range(mesh.size(i))]
            dist.all_gather(parts, raw, group=mesh.get_group(i))
            stacked = torch.stack([part.view(local.dtype).reshape(local.shape) for part in parts])
            local = reference(op, stacked, local.dtype).to(local.dtype)
    return local


def op_placements(op, ndim, mesh, shape, rng, pending):
    """Placements of a 1-D or 2x2 mesh with Partial(op) drawn (at least one
    where pending is True): a tensor dimension that both mesh dimensions
    shard divides by 4 (redist's ceil blocks are DTensor's then)."""
    while True:
        choice = [rng.choice([Partial(op), Partial(op), Shard(rng.randrange(ndim)), Replicate()] if pending
                             else [Shard(rng.randrange(ndim)), Replicate(), Partial(op)]) for _ in range(mesh.ndim)]
        dims = [p.dim for p in choice if isinstance(p, Shard)]
        if (not pending or any(isinstance(p, Partial) for p in choice)) and \
                all(shape[d] % 4 == 0 for d in set(dims) if dims.count(d) > 1):
            return choice


def reduce_op_problems(rank, results):
    """Partial(op) for op in product, max, min, avg, as source and target,
    with each dtype that has it: random problems (REDUCE_OP_CASES per op)
    on a 2x2 mesh (even), on a mesh of 4 (uneven: the reducing exchange
    where the planner picks it) and from a 2x2 mesh to a mesh of 4 over
    ranks [3, 1, 2, 0] (between meshes).  Every member's contribution is
    drawn at random; the truth is the host reference of op over them
    (reference).  redist's result, reduced over its Partial target groups,
    must be the truth on every element (exactly for integers, max and min;
    within the stated rounding bound for float products and averages);
    DTensor.redistribute's on the same inputs (one mesh) must be redist's
    (in the same sense) wherever it gives one."""
    import redist.torch as rt
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    permuted = DeviceMesh("cpu", [3, 1, 2, 0], mesh_dim_names=("y",))
    layouts_of = {"even": (square, square, (4, 8)), "uneven": (line, line, (1, 3, 5, 6, 7, 9)),
                  "between meshes": (square, permuted, (2, 4, 5, 8))}
    for op, dtypes in REDUCE_OP_DTYPES.items():
        rng = random.Random("reduce " + op)
        bad, kinds, layouts_run, dtensor = [], {}, {}, {"agrees": 0, "refuses": 0, "differs": []}
        for case in range(REDUCE_OP_CASES):
            dtype = dtypes[case % len(dtypes)]
            layout = list(layouts_of)[case % 3]
            src_mesh, dst_mesh, sizes = layouts_of[layout]
            ndim = rng.randint(1, 3)
            shape = tuple(rng.choice(sizes) for _ in range(ndim))
            src = op_placements(op, ndim, src_mesh, shape, rng, pending=True)
            dst = op_placements(op, ndim, dst_mesh, shape, rng, pending=False)
            if op == "avg" and src_mesh != dst_mesh:  # an avg target's members all hold the value: one mesh only
                dst = [Replicate() if isinstance(p, Partial) else p for p in dst]
            members = math.prod(src_mesh.size(i) for i, p in enumerate(src) if isinstance(p, Partial))
            gen = torch.Generator().manual_seed(case)
            parts = op_contributions(op, dtype, shape, members, gen)
            truth = reference(op, parts, dtype)
            exact = op in ("max", "min") or not (dtype.is_floating_point or dtype.is_complex)
            magnitude = truth.abs() * members if op == "product" else parts.to(truth.dtype).abs().sum(0)
            plain_src = [Replicate() if isinstance(p, Partial) else p for p in src]
            mine = true_local(parts[member_index(src_mesh, src)], src_mesh, plain_src)
            d = DTensor.from_local(mine, src_mesh, src, shape=shape, stride=parts[0].stride())
            what = "%s %s %s %s -> %s" % (layout, dtype, shape, src, dst)
            try:
                out = rt.redistribute(d, dst, device_mesh=dst_mesh)
            except Exception as e:
                bad.append("%s: %s" % (what, e))
                continue
            kind = rt.plan(src_mesh, tuple(src), dst_mesh, tuple(dst), shape, dtype).kind
            kinds[kind] = kinds.get(kind, 0) + 1
            layouts_run[layout] = layouts_run.get(layout, 0) + 1
            plain = [Replicate() if isinstance(p, Partial) else p for p in dst]
            ours = group_reduced(op, out.to_local(), dst_mesh, dst)
            if dst_mesh.get_coordinate() is None:
                continue
            if not op_agrees(ours, true_local(truth, dst_mesh, plain), true_local(magnitude, dst_mesh, plain),
                             dtype, exact) or tuple(out.placements) != tuple(dst):
                bad.append(what)
            if src_mesh != dst_mesh:
                continue
            try:
                theirs = d.redistribute(src_mesh, dst).redistribute(src_mesh, plain).to_local()
            except Exception:  # e.g. "Can not redistribute from R to P(max)", gloo's complex product
                dtensor["refuses"] += 1
                continue
            if op_agrees(ours, theirs, true_local(magnitude, dst_mesh, plain), dtype, exact):
                dtensor["agrees"] += 1
            else:
                dtensor["differs"].append(what)
        results.append(("Partial(%r) as source and target (%s), even, uneven and between meshes: every rank's "
                        "tensor reduces to the host reference of %s over the members' contributions, as "
                        "DTensor.redistribute's does (%d random problems)"
                        % (op, ", ".join(str(t).split(".")[1] for t in dtypes), op, REDUCE_OP_CASES),
                        not bad and not dtensor["differs"] and len(kinds) > 1 and len(layouts_run) == 3,
                        "plans %s; layouts %s; DTensor.redistribute agrees on %d, refuses %d, differs on %s; wrong: %s"
                        % (kinds, layouts_run, dtensor["agrees"], dtensor["refuses"], dtensor["differs"][:2],
                           bad[:2])))


def submeshes(rank, results):
    """DTensors on meshes of fewer ranks than the world (a pipeline stage's
    mesh), in a world of SUBMESH_WORLD: 1-D meshes on ranks [1, 3] and
    [2, 0, 5], a 2x2 mesh on [[4, 1], [0, 3]] and a 1x2 mesh on [[2, 0]];
    random problems, Partial() sources among them, then a hybrid on the 2x2
    mesh: every member holds its part of the true array (a Partial target
    summed over its groups), every other rank an empty tensor, whichever
    strategy the cost model picks."""
    import redist.torch as rt
    rng = random.Random(17)
    square = DeviceMesh("cpu", [[4, 1], [0, 3]], mesh_dim_names=("a", "b"))
    meshes = [DeviceMesh("cpu", [1, 3], mesh_dim_names=("x",)), DeviceMesh("cpu", [2, 0, 5], mesh_dim_names=("x",)),
              square, DeviceMesh("cpu", [[2, 0]], mesh_dim_names=("a", "b"))]
    bad, kinds, outside, dtensor_agrees = [], {}, 0, 0

    def check(what, mesh, out, truth):
        nonlocal outside
        if mesh.get_coordinate() is None:
            outside += 1
            if out.numel() != 0:
                bad.append(what + ": a rank outside the mesh holds %s" % (tuple(out.shape),))
        elif not local_equal(out, truth):
            bad.append(what)

    for case in range(SUBMESH_CASES):
        mesh = meshes[case % len(meshes)]
        ndim = rng.randint(1, 3)
        shape = tuple(rng.choice([2, 3, 4, 5, 6, 12]) for _ in range(ndim))
        partial = case % 4 == 3
        src = random_partial(ndim, mesh, rng, shape) if partial else random_placements(ndim, mesh.ndim, shape, rng)
        dst = random_placements(ndim, mesh.ndim, shape, rng, composed=not partial)
        # Sums of integers are exact; gloo's all_gather (DTensor's) has no int16.
        dtype = [torch.int64, torch.int32][case % 2] if partial else [torch.float32, torch.int64, torch.bfloat16][case % 3]
        full = torch.arange(math.prod(shape)).reshape(shape).to(dtype)
        d = partial_dtensor(full, mesh, src, seed=case)[0] if partial else dtensor_of(full, mesh, src)
        out = rt.redistribute(d, dst).to_local()
        kind = rt.plan(mesh, tuple(src), mesh, tuple(dst), shape, dtype).kind
        kinds[kind] = kinds.get(kind, 0) + 1
        truth = true_local(full, mesh, dst)
        check("%s on %s %s %s -> %s" % (dtype, mesh.mesh.tolist(), shape, src, dst), mesh, out, truth)
        theirs = None if partial else d.redistribute(mesh, dst).to_local()  # on every rank, as DTensor requires
        dtensor_agrees += theirs is not None and mesh.get_coordinate() is not None and local_equal(theirs, truth)
    # The hybrid test's problem on the 2x2 mesh (the exchange, then all_gather).
    full = torch.arange(30, dtype=torch.int16).reshape(6, 5)
    src, dst = [Shard(1), Shard(0)], [Replicate(), Replicate()]
    hybrid = rt.plan(square, tuple(src), square, tuple(dst), tuple(full.shape), full.dtype)
    kinds[hybrid.kind] = kinds.get(hybrid.kind, 0) + 1
    out = rt.redistribute(dtensor_of(full, square, src), dst).to_local()
    check("the hybrid %s" % "; ".join(hybrid.step_texts), square, out, full)
    results.append(("meshes on some ranks of a world of %d ([1, 3], [2, 0, 5], [[4, 1], [0, 3]], [[2, 0]]): members "
                    "hold the true values, the others an empty tensor (%d random problems and a hybrid)"
                    % (SUBMESH_WORLD, SUBMESH_CASES),
                    not bad and {"collectives", "exchange", "reducing_exchange", "hybrid"} <= set(kinds),
                    "plans %s; this rank outside the mesh in %d; DTensor.redistribute agrees on %d of this rank's "
                    "cases without Partial; wrong: %s" % (kinds, outside, dtensor_agrees, bad[:4])))


def errors(rank, results):
    import redist
    import redist.torch as rt
    from checks import one_line_error
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    pending = rt.type_text(square, (Partial(), Shard(0)), (4, 4))
    results.append(("Partial() is redist's pending sum", pending == "[{b}4, 4] sum{a}", pending))
    maximum = rt.type_text(square, (Partial("max"), Partial("max")), (4, 4))
    results.append(("Partial('max') is redist's max{..}", maximum == "[4, 4] max{a,b}", maximum))
    bitwise = one_line_error(lambda: rt.type_text(square, (Partial("bxor"), Replicate()), (4, 4)), "'bxor'",
                             "mesh dimension a", "sum, product, max, min, avg")
    results.append(("errors: Partial('bxor') is one line naming the reductions redist has", *bitwise))
    mixed = one_line_error(lambda: rt.type_text(square, (Partial("max"), Partial("sum")), (4, 4)),
                           "Partial('max') on mesh dimension a", "Partial('sum') on mesh dimension b", "one reduce_op")
    results.append(("errors: Partial('max') and Partial('sum') in one DTensor is one line", *mixed))
    two_ops = one_line_error(lambda: rt.plan(square, (Partial("max"), Replicate()), square, (Partial("min"), Replicate()),
                                             (4, 4), torch.float32), "max", "min", "one operation")
    results.append(("errors: a Partial('max') source to a Partial('min') target is one line", *two_ops))
    average = one_line_error(lambda: rt.plan(square, (Partial("avg"), Replicate()), square, (Shard(0), Replicate()),
                                             (4, 4), torch.int32), "avg", "i32")
    results.append(("errors: Partial('avg') of int32 is one line", *average))
    from torch.distributed.tensor.placement_types import _StridedShard
    texts = [(placements, size, rt.type_text(square, placements, (size, 4)), want) for placements, size, want in [
        ((Shard(0), Shard(0)), 8, "[{a,b}8, 4]"), ((Shard(0), Shard(0)), 7, "[{a,b}7, 4]"),
        ((Shard(0), Shard(0)), 5, "[{a}{b}5, 4]"), ((_StridedShard(0, split_factor=2), Shard(0)), 6, "[{b}{a}6, 4]"),
        ((_StridedShard(0, split_factor=2), Replicate()), 8, "[{a}%2 8, 4]"),
        ((_StridedShard(0, split_factor=3), Shard(0)), 12, "[{a}%2{b}12, 4]")]]
    results.append(("placements to redist's types: one ceil block over the product where DTensor's nested blocks are "
                    "that (even, 7 on 2x2), composed cuts in the shard order otherwise, a _StridedShard of no shard "
                    "order as blocks dealt round robin", all(got == want for _, _, got, want in texts),
                    "; ".join("%s of %d: %s (expected %s)" % (p, n, got, want) for p, n, got, want in texts)))
    nested = one_line_error(lambda: rt.plan(square, (_StridedShard(0, split_factor=4), Replicate()), square,
                                            (Replicate(), Replicate()), (20, 4), torch.float32),
                            "_StridedShard(dim=0, sf=4) on mesh dimensions a", "tensor dimension 0 of size 20",
                            "no redist cut's", "at a=0, b=0 DTensor holds indices 0..2, 5..7, 10..12, 15..17")
    fp8 = one_line_error(lambda: rt.plan(square, (Partial(), Replicate()), square, (Shard(0), Replicate()),
                                         (4, 4), torch.bool), "from: sum{..} of bool", "the runtime computes sum only")
    results.append(("errors: Partial() of a dtype the runtime cannot add is one line", *fp8))
    results.append(("errors: a _StridedShard whose blocks no redist cut gives (20 split in 4, each over a of 2: "
                    "blocks of 3 and 2) is one line naming the placement, the mesh dimension and DTensor's indices",
                    *nested))
    negative = rt.plan(square, (Shard(-1), Replicate()), square, (Shard(0), Replicate()), (4, 6), torch.float32)
    results.append(("Shard(-1) is the last dimension", negative.report["source"] == "[4, 3{a}6]",
                    negative.report["source"]))
    results.append(("errors: the package's errors are RedistError (a ValueError)",
                    issubclass(redist.RedistError, ValueError), ""))


def refused(call, failing_ranks, *words):
    """(passed, detail): call() raises RedistError on this rank, one line
    naming every word; on a rank in failing_ranks its own error, on every
    other rank "failed on rank K" with K the lowest of them."""
    import redist
    try:
        call()
    except redist.RedistError as e:
        msg = str(e)
        others = "failed on rank %d: " % min(failing_ranks)
        own = dist.get_rank() in failing_ranks
        return ("\n" not in msg and all(w in msg for w in words) and (others not in msg) == own), msg
    return False, "no RedistError on rank %d" % dist.get_rank()


def agreed_failures(rank, results):
    """A rank's bad input to redistribute is a RedistError on every rank
    (the ranks agree on a verdict before any data moves): none waits, and
    the next valid call moves the right data, not a failed call's messages."""
    import redist.torch as rt
    from torch.distributed.tensor import DTensor
    from torch.distributed.tensor._dtensor_spec import DTensorSpec, ShardOrderEntry, TensorMeta
    pair, line = DeviceMesh("cpu", [0, 1]), init_device_mesh("cpu", (WORLD,))
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    full = torch.arange(35, dtype=torch.float32).reshape(7, 5)

    def then_valid(what, mesh):
        """A valid Shard(0) -> Replicate() of `full` after a refused call:
        every element of every rank right."""
        out = rt.redistribute(dtensor_of(full, mesh, [Shard(0)]), [Replicate()]).to_local()
        truth = true_local(full, mesh, [Replicate()])
        results.append((what + ", then a valid Shard(0) -> Replicate() holds the array on every member",
                        local_equal(out, truth), "rank %d holds %s, first column %s"
                        % (rank, tuple(out.shape), out[:, 0].tolist() if out.numel() else [])))

    # The issue's case: (3, 5) local tensors on both ranks of a mesh of 2 for a (7, 5) Shard(0), whose boxes are
    # 4 and 3 rows: rank 0's does not fit.
    short = DTensor.from_local(torch.ones(3, 5), pair, [Shard(0)], shape=(7, 5), stride=(5, 1))
    results.append(("agreed errors: (3, 5) local tensors for a (7, 5) Shard(0) on a mesh over ranks [0, 1] are "
                    "refused on every rank of the world",
                    *refused(lambda: rt.redistribute(short, [Replicate()]), [0], "rank 0's local tensor",
                             "(3, 5)", "(4, 5)")))
    then_valid("agreed errors: after the (3, 5)-in-(7, 5) refusal", pair)
    # Only rank 3 wrong (2 rows for its 1) on a mesh of the whole world.
    local = true_local(full, line, [Shard(0)]) if rank != 3 else torch.zeros(2, 5)
    odd = DTensor.from_local(local, line, [Shard(0)], shape=(7, 5), stride=(5, 1))
    results.append(("agreed errors: rank 3's local tensor alone does not fit its box: refused on every rank",
                    *refused(lambda: rt.redistribute(odd, [Shard(1)]), [3], "rank 3's local tensor", "(1, 5)")))
    then_valid("agreed errors: after rank 3's refusal", line)
    # Rank 2's local tensor on another device than its mesh's.
    local = true_local(full, line, [Shard(0)])
    elsewhere = DTensor.from_local(local.to("meta") if rank == 2 else local, line, [Shard(0)], shape=(7, 5),
                                   stride=(5, 1))
    results.append(("agreed errors: rank 2's local tensor on the meta device for a cpu mesh: refused on every rank",
                    *refused(lambda: rt.redistribute(elsewhere, [Replicate()]), [2],
                             "rank 2's local tensor is on meta")))
    # Rank 1 a float64 tensor, the others float32: each rank's call is valid alone, not together.
    mixed = dtensor_of(full.double() if rank == 1 else full, line, [Shard(0)])
    results.append(("agreed errors: ranks asking different moves (rank 1 f64, the others f32) all refuse",
                    *refused(lambda: rt.redistribute(mixed, [Replicate()]), range(WORLD), "ask for different moves")))
    then_valid("agreed errors: after different moves", line)
    # Arguments of the wrong type, on one rank or on all.
    good = dtensor_of(full, line, [Shard(0)])
    results.append(("errors: a plain tensor on rank 1 is refused on every rank",
                    *refused(lambda: rt.redistribute(full if rank == 1 else good, [Replicate()]), [1],
                             "expected a DTensor, got Tensor")))
    results.append(("errors: a numpy array is one line naming its type",
                    *refused(lambda: rt.redistribute(full.numpy(), [Replicate()]), range(WORLD), "got ndarray")))
    results.append(("errors: redistribute(x, None) is one line",
                    *refused(lambda: rt.redistribute(good, None), range(WORLD), "placements", "got NoneType")))
    results.append(("errors: a placement that is not one (a string on ranks 1 and 3) is one line naming its place",
                    *refused(lambda: rt.redistribute(good, [Replicate(), "Shard(0)"][rank % 2:][:1]), [1, 3],
                             "element 0 is a str")))
    results.append(("errors: a device_mesh that is not a DeviceMesh is one line",
                    *refused(lambda: rt.redistribute(good, [Replicate()], device_mesh="cpu"), range(WORLD),
                             "device_mesh", "got str")))
    then_valid("errors: after the argument refusals", line)
    # Issue 26: a (8, 4) tensor on the 2x2 mesh, [Shard(0), Shard(0)] with mesh dimension 1 (b) cutting first: rank
    # (a, b) holds rows 4b + 2a, 4b + 2a + 1, which is redist's [{b,a}8, 4] (b major); the report saw rows
    # 0, 4, 16, 20, 8, 12, 24, 28 (first column) come back from [Replicate(), Replicate()].
    eight = torch.arange(32, dtype=torch.float32).reshape(8, 4)
    a, b = square.get_coordinate()

    def reordered(rows):
        spec = DTensorSpec(square, (Shard(0), Shard(0)), TensorMeta(rows.shape, rows.stride(), rows.dtype),
                           shard_order=(ShardOrderEntry(tensor_dim=0, mesh_dims=(1, 0)),))
        return DTensor(true_local(rows, square, [Shard(0), Shard(0)], order=(1, 0)), spec, requires_grad=False)
    ours = rt.redistribute(reordered(eight), [Replicate(), Replicate()]).to_local()
    theirs = reordered(eight).redistribute(square, [Replicate(), Replicate()]).to_local()
    results.append(("issue 26: [Shard(0), Shard(0)] of (8, 4) on a 2x2 mesh, shard_order b then a, to Replicate() "
                    "twice: the array on every rank, as DTensor.redistribute's",
                    local_equal(ours, eight) and local_equal(theirs, eight),
                    "rank %d: first column %s (%s)" % (rank, ours[:, 0].tolist(), rt.type_text(
                        square, rt._placements_in_order(reordered(eight)), (8, 4)))))
    from torch.distributed.tensor.placement_types import _StridedShard
    strided = DTensor.from_local(eight[4 * b + 2 * a:4 * b + 2 * a + 2], square,
                                 [_StridedShard(0, split_factor=2), Shard(0)], shape=(8, 4), stride=(4, 1))
    out = rt.redistribute(strided, [Replicate(), Replicate()]).to_local()
    results.append(("issue 26's order as _StridedShard placements ([_StridedShard(0, sf=2), Shard(0)]): the array "
                    "on every rank", local_equal(out, eight), "rank %d: first column %s" % (rank, out[:, 0].tolist())))
    # The same order of a (6, 4) tensor: DTensor's nested blocks are 2, 1, 2, 1 rows (b cuts 3 and 3, a each 2 and
    # 1), no ceil block over the product, so redist's [{b}{a}6, 4], by the region exchange; and back from the array.
    six = torch.arange(24, dtype=torch.float32).reshape(6, 4)
    gathered = rt.redistribute(reordered(six), [Replicate(), Replicate()])
    theirs = reordered(six).redistribute(square, [Replicate(), Replicate()]).to_local()
    back = rt.redistribute(gathered, [_StridedShard(0, split_factor=2), Shard(0)])
    text = rt.type_text(square, rt._placements_in_order(reordered(six)), (6, 4))
    results.append(("issue 26's order of an uneven (6, 4) tensor ([{b}{a}6, 4]) to Replicate() twice: the array on "
                    "every rank, as DTensor.redistribute's; and back to that order: each rank's rows",
                    text == "[{b}{a}6, 4]" and local_equal(gathered.to_local(), six) and local_equal(theirs, six)
                    and local_equal(back.to_local(), reordered(six).to_local()),
                    "rank %d: %s, first column %s, back %s" % (rank, text, gathered.to_local()[:, 0].tolist(),
                                                              back.to_local()[:, 0].tolist())))
    # An input that requires grad, detached or under no_grad: no graph kept.
    leaf = true_local(full, line, [Shard(0)]).clone().requires_grad_(True)
    learning = DTensor.from_local(leaf, line, [Shard(0)], shape=(7, 5), stride=(5, 1))
    detached = rt.redistribute(learning.detach(), [Replicate()])
    with torch.no_grad():
        quiet = rt.redistribute(learning, [Replicate()])
    results.append(("an input that requires grad, detached or under torch.no_grad(), moves right and keeps no graph",
                    local_equal(detached.to_local(), full) and local_equal(quiet.to_local(), full)
                    and not quiet.requires_grad and not detached.requires_grad, "rank %d" % rank))


def small_integers(shape, seed):
    """Random f32 small integers: sums in any order are exact, so redist's
    and DTensor's gradients compare bitwise."""
    return torch.randint(-3, 4, shape, generator=torch.Generator().manual_seed(seed)).to(torch.float32)


def gradients(rank, results):
    """The gradient through redist.torch.redistribute against
    DTensor.redistribute's, placement pairs with Partial and Replicate both
    ways: the source's gradient (a DTensor: placements and local tensor)
    and the leaf's gradient equal bitwise; where DTensor refuses the move
    (Replicate -> Partial), the gradient against the one it must be (the
    loss's weights, replicated)."""
    import redist.torch as rt
    from torch.distributed.tensor import DTensor
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    shape, pairs = (6, 4), [([Shard(0), Replicate()], [Replicate(), Shard(1)]),
                            ([Partial(), Shard(0)], [Replicate(), Replicate()]),
                            ([Shard(1), Partial()], [Shard(0), Replicate()]),
                            ([Partial(), Partial()], [Shard(0), Shard(1)]),
                            ([Replicate(), Shard(1)], [Partial(), Shard(1)]),
                            ([Replicate(), Replicate()], [Partial(), Partial()]),
                            ([Shard(0), Shard(1)], [Shard(1), Shard(0)])]
    weights = small_integers(shape, 1)
    bad, compared = [], 0
    for case, (src, dst) in enumerate(pairs):
        plain = [Replicate() if isinstance(p, Partial) else p for p in src]
        base = true_local(small_integers(shape, 10 + case) * (rank + 1 if src != plain else 1), mesh, plain)
        grads = {}
        for how in ("redist", "DTensor"):
            leaf = base.clone().requires_grad_(True)
            x = DTensor.from_local(leaf, mesh, src, shape=shape, stride=(4, 1))
            x.retain_grad()
            try:
                y = rt.redistribute(x, dst) if how == "redist" else x.redistribute(mesh, dst)
            except RuntimeError:  # DTensor's "Can not redistribute from R to P(sum)"
                continue
            (y.full_tensor() * weights).sum().backward()
            grads[how] = (tuple(x.grad.placements), x.grad.to_local(), leaf.grad)
        what = "%s -> %s" % (src, dst)
        if "DTensor" in grads:
            compared += 1
            ours, theirs = grads["redist"], grads["DTensor"]
            if ours[0] != theirs[0] or not local_equal(ours[1], theirs[1]) or not local_equal(ours[2], theirs[2]):
                bad.append("%s: redist %s, DTensor %s" % (what, ours[0], theirs[0]))
        elif not local_equal(grads["redist"][2], true_local(weights, mesh, plain)):
            bad.append(what + ": not the weights")
    results.append(("gradients through redistribute equal DTensor.redistribute's (%d placement pairs, Partial and "
                    "Replicate both ways)" % len(pairs), not bad,
                    "%d compared with DTensor's, %d (DTensor refuses) with the weights; wrong: %s"
                    % (compared, len(pairs) - compared, bad[:2])))


def training_step(rank, results):
    """One step of a two-layer model whose weights are DTensors: forward
    (the first weight gathered for the product, the second's Partial product
    reduced), backward, SGD; redist.torch.redistribute against
    DTensor.redistribute, every parameter element equal after the step."""
    import redist.torch as rt
    from torch.distributed.tensor import DTensor
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    inputs, labels = small_integers((8, 6), 20), small_integers((8, 4), 21)
    first = true_local(small_integers((6, 8), 22), mesh, [Replicate(), Shard(1)])
    second = true_local(small_integers((8, 4), 23), mesh, [Replicate(), Shard(0)])
    after = {}
    for how in ("redist", "DTensor"):
        move = (lambda t, p: rt.redistribute(t, p)) if how == "redist" else (lambda t, p: t.redistribute(mesh, p))
        w1, w2 = first.clone().requires_grad_(True), second.clone().requires_grad_(True)
        optimizer = torch.optim.SGD([w1, w2], lr=2.0 ** -6)
        d1 = DTensor.from_local(w1, mesh, [Replicate(), Shard(1)], shape=(6, 8), stride=(8, 1))
        d2 = DTensor.from_local(w2, mesh, [Replicate(), Shard(0)], shape=(8, 4), stride=(4, 1))
        hidden = inputs @ move(d1, [Replicate(), Replicate()]).to_local()          # all_gather over tp
        local = hidden[:, 4 * mesh.get_coordinate()[1]:][:, :4] @ d2.to_local()   # this rank's tp columns
        out = move(DTensor.from_local(local, mesh, [Replicate(), Partial()], shape=(8, 4), stride=(4, 1)),
                   [Shard(0), Replicate()])                                           # the sum, rows over dp
        rows = true_local(labels, mesh, [Shard(0), Replicate()])
        ((out.to_local() - rows) ** 2).sum().backward()
        optimizer.step()
        after[how] = (w1.detach(), w2.detach())
    equal = all(local_equal(a, b) for a, b in zip(after["redist"], after["DTensor"]))
    moved = not local_equal(after["redist"][0], first)
    results.append(("a training step (forward, backward, SGD) through redist.torch.redistribute: the parameters "
                    "equal DTensor.redistribute's step, every element", equal and moved,
                    "rank %d: weights %s and %s" % (rank, tuple(first.shape), tuple(second.shape))))


def async_moves(rank, results):
    """async_op=True: the result's local tensor is an AsyncCollectiveTensor
    (waited on first use) for moves whose last step sends messages, equal to
    the sync result on every element; by the collectives, the exchange, the
    reducing exchange and a hybrid (the planner's choices, listed)."""
    import redist.torch as rt
    from torch.distributed._functional_collectives import AsyncCollectiveTensor
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    uneven, even = torch.arange(7 * 6, dtype=torch.float32).reshape(7, 6), torch.arange(8 * 6.0).reshape(8, 6)
    bad, kinds = [], set()
    for mesh, src, dst, full in [(square, [Shard(0), Shard(1)], [Replicate(), Replicate()], uneven),
                                 (square, [Shard(1), Replicate()], [Shard(0), Replicate()], uneven),
                                 (line, [Shard(0)], [Shard(1)], uneven),
                                 (line, [Shard(1)], [Replicate()], uneven),
                                 (line, [Shard(0)], [Replicate()], even),
                                 (square, [Partial(), Shard(1)], [Shard(0), Replicate()], uneven),
                                 (square, [Partial(), Partial()], [Replicate(), Replicate()], uneven)]:
        if any(isinstance(p, Partial) for p in src):
            d, _, _ = partial_dtensor(full.to(torch.int64), mesh, src, seed=3)
        else:
            d = dtensor_of(full, mesh, src)
        kinds.add(rt.plan(mesh, tuple(src), mesh, tuple(dst), tuple(d.shape), d.dtype).kind)
        later = rt.redistribute(d, dst, async_op=True)
        waiting = isinstance(later.to_local(), AsyncCollectiveTensor)
        now = rt.redistribute(d, dst).to_local()
        if not waiting or not torch.equal(later.to_local() + 0, now):
            bad.append("%s -> %s (%s)" % (src, dst, "not async" if not waiting else "differs"))
    results.append(("async_op=True: an AsyncCollectiveTensor, waited on first use, equal to the sync result",
                    not bad and len(kinds) == 4, "plans: %s; wrong: %s" % (sorted(kinds), bad)))


class LiveBytes:
    """The most bytes alive at once in the tensors that torch ops make while
    it is on (a TorchDispatchMode sampling after every op; a storage counted
    once, while a tensor on it is alive), the tensors given counted from the
    start."""

    def __init__(self, *held):
        from torch.utils._python_dispatch import TorchDispatchMode
        meter = self
        self.alive, self.most = {}, 0
        for t in held:
            self._track(t)

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                out = func(*args, **(kwargs or {}))
                for t in torch.utils._pytree.tree_leaves(out):
                    if isinstance(t, torch.Tensor):
                        meter._track(t)
                meter._sample()
                return out
        self.mode = Mode()

    def _track(self, t):
        import weakref
        storage = t.untyped_storage()
        self.alive.setdefault(storage.data_ptr(), [storage.nbytes(), []])[1].append(weakref.ref(t))

    def _sample(self):
        now = 0
        for key, (size, refs) in list(self.alive.items()):
            refs[:] = [r for r in refs if r() is not None]
            if refs:
                now += size
            else:
                del self.alive[key]
        self.most = max(self.most, now)

    def __enter__(self):
        self.mode.__enter__()
        return self

    def __exit__(self, *exc):
        self.mode.__exit__(*exc)


def reducing_exchange_bytes(rank, results):
    """The reducing exchange stays within the plan's live bytes: on random
    uneven Partial() problems on meshes (4,) and (2, 2) that the planner
    gives to the reducing exchange, the bytes alive on each rank while it
    runs (its source tensor and every tensor torch makes, measured) never
    exceed Plan.live_bytes, and the result holds the true sums."""
    import redist.torch as rt
    rng = random.Random(17)
    meshes = [init_device_mesh("cpu", (4,), mesh_dim_names=("x",)),
              init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))]
    dtypes = [torch.float32, torch.bfloat16, torch.int64, torch.int16]
    ran, over, wrong, tries = 0, [], [], 0
    while ran < REDUCING_CASES and tries < 50 * REDUCING_CASES:
        tries += 1
        mesh = meshes[tries % 2]
        ndim = rng.randint(1, 3)
        shape = tuple(rng.choice([1, 3, 5, 6, 7, 9, 13]) for _ in range(ndim))
        src = random_partial(ndim, mesh, rng, shape)
        dst = [rng.choice([Shard(rng.randrange(ndim)), Replicate(), Partial()]) for _ in range(mesh.ndim)]
        dtype = dtypes[tries % len(dtypes)]
        try:
            p, ranks = rt._plan_of(mesh, tuple(src), mesh, tuple(dst), shape, dtype)
        except rt.RedistError:  # a nested uneven split: no redist layout
            continue
        if p.kind != "reducing_exchange":
            continue
        ran += 1
        full = torch.randint(-1000, 1000, shape, generator=torch.Generator().manual_seed(tries)).to(dtype)
        d, _, _ = partial_dtensor(full, mesh, src, seed=tries)
        local = d.to_local().clone()  # its own storage, of its box's bytes
        with LiveBytes(local) as meter:
            out = rt._run(p, local, ranks.index(rank), ranks).result()
        what = "%s %s %s -> %s" % (dtype, shape, src, dst)
        if meter.most > p.live_bytes:
            over.append("%s: %d B > %d B" % (what, meter.most, p.live_bytes))
        plain = [Replicate() if isinstance(q, Partial) else q for q in dst]
        summed = group_sums(out, mesh, dst)
        if not agrees(summed, true_local(full, mesh, plain), true_local(full.double().abs(), mesh, plain) * 4, dtype):
            wrong.append(what)
    results.append(("the reducing exchange's bytes alive on a rank, measured, stay within Plan.live_bytes "
                    "(%d random uneven Partial() problems)" % REDUCING_CASES, ran == REDUCING_CASES and not over
                    and not wrong, "%d ran; above the plan's figure: %s; wrong sums: %s" % (ran, over[:2], wrong[:2])))


def suite(name):
    """The parts each rank runs in turn, and the world size they run in."""
    if name == "gloo":
        return (random_problems, sweep_line, sweep_square, strided_shards, between_meshes, hybrid, issue_103306, permuted_mesh,
                partial_problems, uneven_partial, reduce_op_problems, errors, agreed_failures, gradients, training_step, async_moves,
                reducing_exchange_bytes), WORLD
    if name == "gloo submeshes":
        return (submeshes, sweep_two_by_three), SUBMESH_WORLD
    return (lambda r, res: partial_problems(r, res, "cuda"), lambda r, res: uneven_partial(r, res, "cuda")), WORLD


def worker(rank, port, queue, name):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    backend = name.split()[0]
    if backend == "nccl":
        torch.cuda.set_device(rank)
    parts, world = suite(name)
    # A rank left waiting (a part that failed elsewhere) fails that part after 2 minutes instead of hanging.
    dist.init_process_group(backend, rank=rank, world_size=world, timeout=datetime.timedelta(seconds=120))
    results = []
    for part in parts:
        try:
            part(rank, results)
        except Exception as e:  # one part's crash is that part's failure; the others still run
            results.append(("%s on rank %d" % (part.__name__, rank), False, "%s: %s" % (type(e).__name__, e)))
    queue.put((rank, results))
    dist.barrier()
    dist.destroy_process_group()


def run_workers(name):
    """Every test of suite `name` on its world of processes, reported from rank 0."""
    import checks
    world = suite(name)[1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, port, queue, name)) for r in range(world)]
    for p in procs:
        p.start()
    by_rank = dict(queue.get(timeout=600) for _ in procs)
    for p in procs:
        p.join(60)
    for i, (test, _, detail) in enumerate(by_rank[0]):
        passed = all(len(by_rank[r]) > i and by_rank[r][i][1] for r in range(world))
        checks.check(test, passed, detail if passed else "; ".join(
            "rank %d: %s" % (r, by_rank[r][i][2]) for r in range(world) if len(by_rank[r]) > i and not by_rank[r][i][1]))
    checks.check("every rank reported every test (%s)" % name, len({len(v) for v in by_rank.values()}) == 1)


def main():
    import checks
    run_workers("gloo")
    run_workers("gloo submeshes")
    # The same adapter code over NCCL (CUDA tensors), where 4 GPUs are there.
    if torch.cuda.is_available() and torch.cuda.device_count() >= WORLD and dist.is_nccl_available():
        run_workers("nccl")
    else:
        checks.skip("Partial() over NCCL on %d GPUs" % WORLD, "this machine has %d" % torch.cuda.device_count())
    sys.exit(checks.end())


if __name__ == "__main__":
    main()
