"""redist.mpi and redist.torch's transport="mpi" on 4 ranks of mpirun (the
C runtime over MPI; torch.distributed over gloo beside it, the same ranks):
 - redist.mpi on numpy arrays: a plan by the exchange whose source is in
   redist's shared memory (redist.mpi.empty) receives every byte from the
   other ranks with one copy (redist_exec_direct_bytes: the bytes of its
   pieces from other ranks), from plain memory none; every element right;
 - random problems (meshes (4,), 2x2 and (4,) over ranks out of order;
   even and uneven, nested uneven shards by the region exchange and
   Partial() sources among them): for each, source and
   destination in shared memory, the source only, the destination only,
   neither, blocking and async_op=True: every element of every rank's
   tensor equal to its part of the true array (a Partial target: its
   groups' sums) and to the default transport's result; the handle's
   direct bytes those of the pieces from other ranks where the plan is the
   exchange or the reducing exchange and the source shared, else 0;
 - a move between meshes ((4,) to a 2x2 mesh over ranks out of order) from
   a shared source: every element, the pieces from other ranks by one copy;
 - composed cuts (nested uneven shards in both shard orders, a view's
   _StridedShard) by the region exchange, blocking and async: every
   element equal to the true array and to the default transport's;
 - async overlapped with a torch computation (matmuls, is_completed() polled
   between them) gives the blocking move's result, every element;
 - misuse: wait twice; a handle dropped without wait (a RuntimeWarning,
   waited for at the drop, the next move right); two starts of one plan
   without a wait (refused on every rank, the first then waited for and
   right); a wrong out= on one rank, a DTensor that requires grad, an
   unknown transport, out= with the default transport: a RedistError on
   every rank, and the next move right; free of a tensor that is not
   redist's, and of one freed already, an allocation of a bad shape or
   dtype and a free of a non-tensor on one rank: refused on every rank
   (agreed by the C ABI), the next allocation right.
Rank 0 prints the TAP document (every rank's verdict on every test)."""
import gc
import math
import os
import random
import sys
import warnings

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import Partial, Replicate, Shard

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_torch import (dtensor_of, group_sums, local_equal, partial_dtensor, random_placements,  # noqa: E402
                        refused, true_local)

import redist  # noqa: E402
import redist.mpi  # noqa: E402
import redist.torch as rt  # noqa: E402

WORLD = 4
RANDOM_CASES = 24
BUFFERS = ("both shared", "source shared", "destination shared", "neither shared")


def received_from_others(plan, me):
    """The bytes of device me's target box that a plan by the exchange brings from other devices."""
    return sum(math.prod(piece.extent) for piece in plan.receives(me) if piece.from_rank != me) * plan.elem_bytes


def contributions_from_others(plan, me):
    """The bytes a plan by the reducing exchange brings device me from other devices' sources to combine."""
    return sum(math.prod(c.extent) for c in plan.sum_receives(me).contributions if c.from_rank != me) * plan.elem_bytes


def collective_bytes_in(plan):
    """The bytes a plan by the collectives brings this rank from other ranks in its all_gather, all_to_all
    and all_permute steps: what single copy reads out of the peers' arrays."""
    total = 0
    for step in plan.collective_steps():
        local = math.prod(step.shape) * plan.elem_bytes
        if step.op == "all_gather":
            total += local * (step.group_size - 1)
        elif step.op == "all_to_all":
            total += local // step.group_size * (step.group_size - 1)
        elif step.op == "all_permute" and step.recv_from[dist.get_rank()] != dist.get_rank():
            total += local
    return total


def direct_bytes_expected(plan, me, src_shared, dst_shared):
    """What single copy moves: the exchange's and the reducing exchange's pieces from other devices when the
    source is shared; a plan by the collectives' gathered, exchanged and permuted pieces when source and
    destination are shared and it needs no workspace (the executor's workspace is plain memory)."""
    if me is None or not src_shared:
        return 0
    if plan.kind == "exchange":
        return received_from_others(plan, me)
    if plan.kind == "reducing_exchange":
        return contributions_from_others(plan, me)
    if plan.kind == "collectives" and dst_shared and plan.workspace_bytes == 0:
        return collective_bytes_in(plan)
    return 0


def numpy_exchange(results):
    plan = redist.plan("{x:4}", "[{x}16, 8]", "[16, {x}8]", "f32", strategy="exchange")
    me = redist.mpi.rank()
    full = np.arange(16 * 8, dtype=np.float32).reshape(16, 8)
    (so, se), (to, te) = plan.src_box(me), plan.tgt_box(me)
    truth = full[to[0]:to[0] + te[0], to[1]:to[1] + te[1]]
    bad = []
    for shared in (True, False):
        src = redist.mpi.empty(se, np.float32) if shared else np.empty(se, np.float32)
        src[...] = full[so[0]:so[0] + se[0], so[1]:so[1] + se[1]]
        dst = np.zeros(te, np.float32)
        op = redist.mpi.executor(plan).start(src, dst)
        got = op.wait()
        want = received_from_others(plan, me) if shared else 0
        if got is not dst or not np.array_equal(dst, truth) or op.direct_bytes != want:
            bad.append("shared %s: equal %s, direct bytes %s (expected %d)"
                       % (shared, np.array_equal(dst, truth), op.direct_bytes, want))
        if shared:
            redist.mpi.free(src.ctypes.data)
    src = np.zeros(se, np.float32)
    strided = np.zeros((se[0], se[1] * 2), np.float32)[:, ::2]
    passed, detail = refused_by_runtime(
        lambda: redist.mpi.executor(plan).start(strided if me == 1 else src, np.zeros(te, np.float32)), 1,
        "source", "not C-contiguous")
    bad += [] if passed else ["a strided source on rank 1: %s" % detail]
    results.append(("redist.mpi: an exchange from redist.mpi.empty receives its %d bytes from other ranks with one "
                    "copy, from plain memory none; every element right; a strided source on one rank refused on "
                    "every rank" % received_from_others(plan, me),
                    not bad, "; ".join(bad)))


def placed(values, shared):
    """values in a tensor of redist.torch.empty (shared) or a plain one."""
    if not shared:
        return values.clone()
    t = rt.empty(values.shape, values.dtype)
    t.copy_(values)
    return t


def source_of(full, mesh, placements, seed, shared):
    """A DTensor of `full` (Partial: contributions summing to it) whose local
    tensor is shared or plain."""
    from torch.distributed.tensor import DTensor
    if any(isinstance(p, Partial) for p in placements):
        d = partial_dtensor(full, mesh, placements, seed)[0]
    else:
        d = dtensor_of(full, mesh, placements)
    return DTensor.from_local(placed(d.to_local(), shared), mesh, placements, shape=full.shape, stride=full.stride())


def random_problems(results):
    rng = random.Random(11)
    meshes = [init_device_mesh("cpu", (4,), mesh_dim_names=("x",)),
              init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b")),
              DeviceMesh("cpu", [3, 1, 2, 0], mesh_dim_names=("p",))]
    bad, kinds, direct, moves = [], {}, 0, 0
    for case in range(RANDOM_CASES):
        mesh = meshes[case % 3]
        ndim = rng.randint(1, 2)
        shape = tuple(rng.choice([2, 3, 5, 6, 7, 8]) for _ in range(ndim))
        src = random_placements(ndim, mesh.ndim, shape, rng, composed=case % 4 != 3)
        dtype = [torch.float32, torch.int64, torch.bfloat16][case % 3]
        if case % 4 == 3:  # a Partial() source, of integers: its sums exact
            src[rng.randrange(mesh.ndim)] = Partial()
            dtype = torch.int32
        dst = random_placements(ndim, mesh.ndim, shape, rng, composed=case % 4 != 3)
        full = torch.arange(math.prod(shape)).reshape(shape).to(dtype)
        plan = rt.plan(mesh, tuple(src), mesh, tuple(dst), shape, dtype)
        kinds[plan.kind] = kinds.get(plan.kind, 0) + 1
        me = mesh.get_coordinate()
        me = None if me is None else int(np.ravel_multi_index(me, tuple(mesh.mesh.shape)))
        truth = true_local(full, mesh, dst)
        by_torch = rt.redistribute(source_of(full, mesh, src, case, False), dst).to_local()
        for buffers in BUFFERS:
            src_shared, dst_shared = buffers in ("both shared", "source shared"), buffers in ("both shared",
                                                                                          "destination shared")
            x = source_of(full, mesh, src, case, src_shared)
            for async_op in (False, True):
                out = rt.empty(truth.shape, dtype) if dst_shared else None
                moved = rt.redistribute(x, dst, transport="mpi", async_op=async_op, out=out)
                got = moved.wait() if async_op else moved
                local = got.to_local()
                moves += 1
                what = "%s %s %s -> %s (%s, %s, %s)" % (dtype, shape, src, dst, plan.kind, buffers,
                                                       "async" if async_op else "blocking")
                if out is not None and local.data_ptr() != out.data_ptr():
                    bad.append(what + ": the result is not out=")
                if not local_equal(local, truth) or not local_equal(local, by_torch) \
                        or tuple(got.placements) != tuple(dst):
                    bad.append(what + ": wrong values")
                if async_op:
                    want = direct_bytes_expected(plan, me, src_shared, dst_shared)
                    direct += want > 0
                    if moved.direct_bytes != want:
                        bad.append("%s: direct bytes %s, expected %d" % (what, moved.direct_bytes, want))
                if out is not None:
                    rt.free(out)
            if src_shared:
                rt.free(x.to_local())
    results.append(("transport=\"mpi\": %d random problems, source and destination shared, one, neither, blocking "
                    "and async, nested uneven shards (composed cuts, the region exchange) among them: every element "
                    "equal to the true array and to the default transport's; one copy (direct bytes) exactly where the "
                    "exchange or the reducing exchange reads a shared source" % RANDOM_CASES,
                    not bad and direct > 0 and kinds.get("regions", 0) > 0,
                    "%d moves, plans %s, %d async moves by one copy; wrong: %s" % (moves, kinds, direct, bad[:3])))


def between_meshes(results):
    """An uneven move from a (4,) mesh to a 2x2 one (planned on the world
    ranks: the exchange) from a shared source: one copy, every element."""
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    square = DeviceMesh("cpu", [[2, 0], [3, 1]], mesh_dim_names=("a", "b"))
    full = torch.arange(7 * 6, dtype=torch.int16).reshape(7, 6)
    src, dst = [Shard(0)], [Shard(1), Shard(0)]
    plan = rt.plan(line, tuple(src), square, tuple(dst), full.shape, full.dtype)
    x = source_of(full, line, src, 0, True)
    bad = []
    for async_op in (False, True):
        moved = rt.redistribute(x, dst, square, transport="mpi", async_op=async_op)
        got = moved.wait() if async_op else moved
        if not local_equal(got.to_local(), true_local(full, square, dst)) or got.device_mesh != square:
            bad.append("async" if async_op else "blocking")
    want = received_from_others(plan, dist.get_rank())
    results.append(("transport=\"mpi\" between meshes ((4,) to 2x2 over ranks out of order, uneven, int16): every "
                    "element, blocking and async, the %s's pieces from other ranks by one copy" % plan.kind,
                    not bad and plan.kind == "exchange" and moved.direct_bytes == want,
                    "wrong: %s; direct bytes %s of %d" % (bad, moved.direct_bytes, want)))
    rt.free(x.to_local())


def composed(results):
    """Plans of composed cuts (the region exchange) by transport="mpi":
    nested uneven shards in mesh order, in the other shard order (as
    _StridedShard), and a view's _StridedShard, blocking and async, every
    element equal to the true array and to the default transport's."""
    from torch.distributed.tensor import DTensor, distribute_tensor
    from torch.distributed.tensor.placement_types import _StridedShard
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    square = init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b"))
    five, six = torch.arange(15.0).reshape(5, 3), torch.arange(24.0).reshape(6, 4)
    a, b = square.get_coordinate()
    rows = [0, 1, 2, 3, 4, 5][3 * b:3 * b + 3][2 * a:2 * a + 2]  # b cuts first: 3 and 3 rows, a each into 2 and 1
    moves = [(dtensor_of(five, square, [Shard(0), Shard(0)]), [Shard(1), Shard(1)],
              true_local(five, square, [Shard(1), Shard(1)])),
             (DTensor.from_local(six[rows], square, [_StridedShard(0, split_factor=2), Shard(0)], shape=(6, 4),
                                 stride=(4, 1)), [Replicate(), Replicate()], six),
             (distribute_tensor(torch.arange(24.0).reshape(3, 8), line, [Shard(1)]).view(24), [Replicate()],
              torch.arange(24.0))]
    bad, kinds = [], []
    for x, dst, truth in moves:
        kinds.append(rt.plan(x.device_mesh, tuple(x.placements), x.device_mesh, tuple(dst), tuple(x.shape),
                             x.dtype).kind)
        by_torch = rt.redistribute(x, dst).to_local()
        for async_op in (False, True):
            moved = rt.redistribute(x, dst, transport="mpi", async_op=async_op)
            got = (moved.wait() if async_op else moved).to_local()
            if not local_equal(got, truth) or not local_equal(got, by_torch):
                bad.append("%s -> %s%s" % (list(x.placements), dst, " async" if async_op else ""))
    results.append(("transport=\"mpi\" on composed cuts (nested uneven in mesh order, b cutting first as "
                    "_StridedShard, a view's _StridedShard): the region exchange, blocking and async, every element "
                    "equal to the true array and to the default transport's",
                    not bad and kinds == ["regions"] * 3, "plans %s; wrong: %s" % (kinds, bad)))


def overlapped(results):
    mesh = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    full = torch.arange(203 * 64, dtype=torch.float32).reshape(203, 64)  # uneven: the exchange
    x = source_of(full, mesh, [Shard(0)], 0, True)
    blocking = rt.redistribute(x, [Shard(1)], transport="mpi").to_local()
    handle = rt.redistribute(x, [Shard(1)], transport="mpi", async_op=True)
    a, polls = torch.rand(96, 96), 0
    for _ in range(20):
        a = torch.tanh(a @ a)  # the computation the move overlaps
        polls += 1
        if handle.is_completed():
            break
    got = handle.wait().to_local()
    results.append(("async_op=True overlapped with torch matmuls (is_completed() polled between them) gives the "
                    "blocking move's result, every element",
                    local_equal(got, blocking) and local_equal(got, true_local(full, mesh, [Shard(1)]))
                    and bool(torch.isfinite(a).all()), "%d matmuls before completion" % polls))
    rt.free(x.to_local())


def refused_by_runtime(call, failing_rank, *words):
    """(passed, detail): call() raises RedistError on every rank: one line
    naming every word on failing_rank, the C ABI's agreed refusal (code 4,
    another rank's error) on the others."""
    try:
        call()
    except redist.RedistError as e:
        msg = str(e)
        if dist.get_rank() == failing_rank:
            return "\n" not in msg and all(w in msg for w in words), msg
        return "\n" not in msg and e.code == 4 and "another rank" in msg, msg
    return False, "no RedistError on rank %d" % dist.get_rank()


def misuse(results):
    mesh = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    full = torch.arange(30 * 4, dtype=torch.float32).reshape(30, 4)
    truth = true_local(full, mesh, [Shard(1)])
    x = source_of(full, mesh, [Shard(0)], 0, True)

    def move(**kw):
        return rt.redistribute(x, [Shard(1)], transport="mpi", **kw)

    def right():
        return local_equal(move().to_local(), truth)

    handle = move(async_op=True)
    first = handle.wait()
    try:
        handle.wait()
        twice = (False, "no error")
    except redist.RedistError as e:
        twice = ("\n" not in str(e) and "waited for already" in str(e), str(e))
    results.append(("wait() twice: one line, the first wait's result right",
                    twice[0] and local_equal(first.to_local(), truth), twice[1]))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        move(async_op=True)  # dropped at once
        gc.collect()
    dropped = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    results.append(("a handle dropped without wait(): a RuntimeWarning, waited for at the drop, the next move right",
                    len(dropped) == 1 and "without wait" in dropped[0] and right(), "; ".join(dropped)))

    handle = move(async_op=True)
    passed, detail = refused(lambda: move(async_op=True), range(WORLD), "already started")
    first = handle.wait()
    results.append(("two starts of one plan without a wait: refused on every rank, the first then right",
                    passed and local_equal(first.to_local(), truth) and right(), detail))

    wrong_out = torch.empty((3, 3)) if dist.get_rank() == 2 else None
    passed, detail = refused(lambda: move(out=wrong_out), [2], "out=", "target box")
    results.append(("a wrong out= on one rank: a RedistError on every rank, the next move right",
                    passed and right(), detail))

    grad = x.detach().requires_grad_(True)
    for what, call, words in [
            ("a DTensor that requires grad", lambda: rt.redistribute(grad, [Shard(1)], transport="mpi"),
             ("not differentiable",)),
            ("an unknown transport", lambda: rt.redistribute(x, [Shard(1)], transport="gloo"), ("transport 'gloo'",)),
            ("out= with the default transport", lambda: rt.redistribute(x, [Shard(1)], out=torch.empty(1)),
             ("out= is for transport",))]:
        passed, detail = refused(call, range(WORLD), *words)
        results.append(("%s: refused on every rank, the next move right" % what, passed and right(), detail))

    plain = torch.empty(4)
    passed, detail = refused(lambda: rt.free(plain), range(WORLD), "was not allocated by")
    results.append(("free of a tensor not of redist.torch.empty: refused on every rank", passed, detail))
    for what, call, words in [
            ("redist.torch.empty of a bad shape", lambda: rt.empty((2, -1) if dist.get_rank() == 1 else (2, 1)),
             ("shape", "-1")),
            ("redist.mpi.empty of a bad dtype", lambda: redist.mpi.empty((2,), "bogus" if dist.get_rank() == 1 else "f4"),
             ("dtype 'bogus'",)),
            ("redist.torch.free of a list", lambda: rt.free([1] if dist.get_rank() == 1 else x.to_local()),
             ("expected the address", "[1]"))]:
        passed, detail = refused_by_runtime(call, 1, *words)
        fresh = rt.empty((2, 3))
        fresh.fill_(dist.get_rank())
        results.append(("%s on one rank: refused on every rank (none waits), the next allocation right" % what,
                        passed and bool((fresh == dist.get_rank()).all()), detail))
        rt.free(fresh)
    rt.free(x.to_local())
    passed, detail = refused(lambda: rt.free(x.to_local()), range(WORLD), "freed already")
    results.append(("free of a tensor freed already: refused on every rank", passed, detail))


def main():
    import checks
    sys.exit(checks.run_parts_on_ranks((numpy_exchange, random_problems, between_meshes, composed, overlapped, misuse),
                                       WORLD))


if __name__ == "__main__":
    main()
