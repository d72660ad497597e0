"""Moves in place (redist.mpi.plan_in_place, Executor.run_in_place;
redist.torch.redistribute(..., transport="mpi", in_place=True)) on 4 ranks
of mpirun, torch.distributed's gloo group beside it:
 - redist.mpi on a numpy buffer, staging of one element: every element of
   every rank's target box at the buffer's start; the plan's figures;
 - random problems (meshes (4,), 2x2 and (4,) over ranks out of order, and
   (4,) to a 2x2 mesh over ranks out of order; uneven among them; staging
   of one element, a few elements and unbounded; local tensors of
   empty_for_in_place or views at the start of a larger storage): every
   element of every rank equal to its part of the true array and to the
   out-of-place move's, the result a view of the source's storage at the
   same first element;
 - redist.mpi.plan_within: the cost model's choice within a memory budget
   (out of place at source + destination, in place one byte below, both
   run, every element checked; below the least in-place figure refused);
 - memory: a move in place on numpy buffers allocates (tracemalloc's
   peak) less than half the target box, out of place at least it;
 - misuse, each refused on every rank in one line, the next move right: a
   storage too small on one rank, a DTensor that requires grad, Partial
   placements, async_op, transport "torch", out=, staging_bytes without
   in_place, staging below one element; redist.mpi: start() on a plan in
   place, run_in_place on a plan out of place, a short buffer on one rank.
Rank 0 prints the TAP document (every rank's verdict on every test)."""
import math
import os
import random
import sys
import tracemalloc

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Shard

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_torch import dtensor_of, local_equal, random_placements, refused, true_local  # noqa: E402
from test_mpi import refused_by_runtime  # noqa: E402

import redist  # noqa: E402
import redist.mpi  # noqa: E402
import redist.torch as rt  # noqa: E402

WORLD = 4
RANDOM_CASES = 48
STAGINGS = ("one element", "a few elements", "unbounded")


def numpy_in_place(results):
    plan = redist.mpi.plan_in_place("{x:4}", "[{x}7, 5]", "[7, {x}5]", "f32", staging_bytes=4)
    me = redist.mpi.rank()
    full = np.arange(7 * 5, dtype=np.float32).reshape(7, 5)
    (so, se), (to, te) = plan.src_box(me), plan.tgt_box(me)
    buf = np.full(plan.buffer_bytes(me) // 4, -1, np.float32)
    buf[:math.prod(se)] = full[so[0]:so[0] + se[0], so[1]:so[1] + se[1]].ravel()
    got = redist.mpi.executor(plan).run_in_place(buf)
    want = full[to[0]:to[0] + te[0], to[1]:to[1] + te[1]]
    right = got is buf and np.array_equal(buf[:math.prod(te)].reshape(te), want)
    figures = (plan.kind == "in_place" and plan.buffer_bytes(me) == 4 * max(math.prod(se), math.prod(te))
               and 0 < plan.workspace_bytes <= 4 and len(plan.step_texts) > 1
               and "inplace_sound" in dict(plan.guarantees))
    results.append(("redist.mpi: an uneven transpose in place on a numpy buffer with one element of staging: every "
                    "element at the buffer's start; buffer max(source, target), staging within the bound",
                    right and figures, "plan %s, buffer %d, staging %d, rounds %d"
                    % (plan.kind, plan.buffer_bytes(me), plan.workspace_bytes, len(plan.step_texts))))


def staging_of(stage, itemsize):
    return {"one element": itemsize, "a few elements": 3 * itemsize, "unbounded": None}[stage]


def in_place_source(full, mesh, placements, dst_mesh, dst, larger):
    """A DTensor of `full` whose local tensor holds this rank's buffer: from
    empty_for_in_place, or (larger) a view at the start of a storage larger
    than the buffer."""
    truth = true_local(full, mesh, placements)
    if larger:
        p, ranks = rt._in_place_plan_of(mesh, tuple(placements), dst_mesh, tuple(dst), tuple(full.shape),
                                        full.dtype, None)
        rank = dist.get_rank()
        elements = p.buffer_bytes(ranks.index(rank)) // full.element_size() if rank in ranks else 0
        local = torch.empty(elements + 5, dtype=full.dtype)[:truth.numel()].view(truth.shape)
    else:
        local = rt.empty_for_in_place(mesh, placements, dst, full.shape, full.dtype, dst_mesh)
    local.copy_(truth)
    return DTensor.from_local(local, mesh, placements, run_check=False, shape=full.shape, stride=full.stride())


def random_problems(results):
    rng = random.Random(28)
    line = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    meshes = [line, init_device_mesh("cpu", (2, 2), mesh_dim_names=("a", "b")),
              DeviceMesh("cpu", [3, 1, 2, 0], mesh_dim_names=("p",))]
    square = DeviceMesh("cpu", [[2, 0], [3, 1]], mesh_dim_names=("a", "b"))
    bad, counts = [], {}
    for case in range(RANDOM_CASES):
        between = case % 4 == 3
        mesh = line if between else meshes[case % 3]
        dst_mesh = square if between else mesh
        ndim = rng.randint(1, 2)
        shape = tuple(rng.choice([2, 3, 5, 6, 7, 8, 9]) for _ in range(ndim))
        src = random_placements(ndim, mesh.ndim, shape, rng, composed=False)
        dst = random_placements(ndim, dst_mesh.ndim, shape, rng, composed=False)
        dtype = [torch.float32, torch.int64, torch.bfloat16, torch.int16][case % 4]
        stage = STAGINGS[case % 3]
        full = torch.arange(math.prod(shape)).reshape(shape).to(dtype)
        what = "%s %s %s -> %s%s, staging %s" % (dtype, shape, src, dst, " between meshes" if between else "", stage)
        try:
            x = in_place_source(full, mesh, src, dst_mesh, dst, larger=case % 2 == 1)
            first = x.to_local().untyped_storage().data_ptr()  # the local tensors start their storage
            out_of_place = rt.redistribute(dtensor_of(full, mesh, src), dst, dst_mesh, transport="mpi").to_local()
            got = rt.redistribute(x, dst, dst_mesh, transport="mpi", in_place=True,
                                  staging_bytes=staging_of(stage, full.element_size()))
        except redist.RedistError as e:
            bad.append("%s: %s" % (what, e))
            continue
        local = got.to_local()
        counts[stage] = counts.get(stage, 0) + 1
        if not local_equal(local, true_local(full, dst_mesh, dst)) or not local_equal(local, out_of_place):
            bad.append(what + ": wrong values")
        if local.untyped_storage().data_ptr() + local.storage_offset() * local.element_size() != first:
            bad.append(what + ": the result is not at the source's first element")
        if tuple(got.placements) != tuple(dst) or got.device_mesh != dst_mesh:
            bad.append(what + ": wrong placements or mesh")
    results.append(("in_place=True: %d random problems (1-D and 2-D meshes, ranks out of order, between meshes, "
                    "uneven; staging of one element, a few, unbounded): every element equal to the true array and to "
                    "the out-of-place move's, the result in the source's storage at its first element" % RANDOM_CASES,
                    not bad and len(counts) == len(STAGINGS), "moves by staging %s; wrong: %s" % (counts, bad[:3])))


def traced_peak(move):
    """The most bytes Python and numpy allocate at once during move() (tracemalloc), and its result."""
    tracemalloc.start()
    try:
        kept = move()
        return tracemalloc.get_traced_memory()[1], kept
    finally:
        tracemalloc.stop()


def memory(results):
    """numpy's allocations are traced (tracemalloc): run_in_place allocates
    less than half of the target box, the out-of-place run at least
    the box.  (The planner in place is too slow for boxes of megabytes,
    where the resident set would tell.)"""
    mesh, source, target = "{x:4}", "[{x}16, 256]", "[16, {x}256]"
    me = redist.mpi.rank()
    in_place = redist.mpi.plan_in_place(mesh, source, target, "f32", staging_bytes=64)
    plain = redist.plan(mesh, source, target, "f32", strategy="exchange")
    full = np.arange(16 * 256, dtype=np.float32).reshape(16, 256)
    (so, se), (to, te) = in_place.src_box(me), in_place.tgt_box(me)
    src, want = full[so[0]:so[0] + se[0], so[1]:so[1] + se[1]], full[to[0]:to[0] + te[0], to[1]:to[1] + te[1]]
    buf = np.empty(in_place.buffer_bytes(me) // 4, np.float32)
    buf[:src.size] = src.ravel()
    executors = redist.mpi.executor(in_place), redist.mpi.executor(plain)  # made (and their staging) before measuring
    peak_in_place, _ = traced_peak(lambda: executors[0].run_in_place(buf))
    peak_out_of_place, dst = traced_peak(lambda: executors[1].run(np.ascontiguousarray(src), np.empty(te, np.float32)))
    right = np.array_equal(buf[:want.size].reshape(te), want) and np.array_equal(dst, want)
    results.append(("memory: a move in place allocates less than half the target box (tracemalloc's peak), "
                    "the same move out of place at least the box; both right",
                    right and peak_in_place < want.nbytes // 2 and peak_out_of_place >= want.nbytes,
                    "target box %d bytes: peak allocated in place %d, out of place %d"
                    % (want.nbytes, peak_in_place, peak_out_of_place)))


def misuse(results):
    mesh = init_device_mesh("cpu", (4,), mesh_dim_names=("x",))
    full = torch.arange(30 * 4, dtype=torch.float32).reshape(30, 4)
    truth = true_local(full, mesh, [Shard(1)])

    def fresh():
        return in_place_source(full, mesh, [Shard(0)], mesh, [Shard(1)], larger=False)

    def right():
        got = rt.redistribute(fresh(), [Shard(1)], transport="mpi", in_place=True).to_local()
        return local_equal(got, truth)

    backwards = true_local(full, mesh, [Shard(1)])  # 30 elements: rank 2's target box, Shard(0), has 32
    tight = DTensor.from_local(backwards.clone(), mesh, [Shard(1)], run_check=False, shape=full.shape,
                               stride=full.stride())
    short = tight if dist.get_rank() == 2 else in_place_source(full, mesh, [Shard(1)], mesh, [Shard(0)], larger=False)
    passed, detail = refused(lambda: rt.redistribute(short, [Shard(0)], transport="mpi", in_place=True), [2],
                             "storage holds", "empty_for_in_place")
    results.append(("in place, a storage too small on one rank: refused on every rank, the next move right",
                    passed and right(), detail))
    grad = fresh().detach().requires_grad_(True)
    partial = DTensor.from_local(torch.zeros(30, 4), mesh, [Partial()], run_check=False)
    for what, call, words in [
            ("a DTensor that requires grad", lambda: rt.redistribute(grad, [Shard(1)], transport="mpi", in_place=True),
             ("not differentiable",)),
            ("Partial placements", lambda: rt.redistribute(partial, [Shard(1)], transport="mpi", in_place=True),
             ("Partial", "not yet supported")),
            ("async_op=True", lambda: rt.redistribute(fresh(), [Shard(1)], transport="mpi", in_place=True,
                                                      async_op=True), ("async_op=True is not supported",)),
            ("transport \"torch\"", lambda: rt.redistribute(fresh(), [Shard(1)], in_place=True),
             ("in_place=True is for transport",)),
            ("out=", lambda: rt.redistribute(fresh(), [Shard(1)], transport="mpi", in_place=True,
                                             out=torch.empty(truth.shape)), ("out= is not taken",)),
            ("staging_bytes without in_place", lambda: rt.redistribute(fresh(), [Shard(1)], transport="mpi",
                                                                       staging_bytes=64),
             ("staging_bytes is for in_place=True",)),
            ("staging below one element", lambda: rt.redistribute(fresh(), [Shard(1)], transport="mpi",
                                                                  in_place=True, staging_bytes=2),
             ("staging_bytes", "less than one element"))]:
        passed, detail = refused(call, range(WORLD), *words)
        results.append(("in place, %s: refused on every rank in one line, the next move right" % what,
                        passed and right(), detail))

    plan = redist.mpi.plan_in_place("{x:4}", "[{x}8, 4]", "[8, {x}4]", "i32")
    me = redist.mpi.rank()
    executor = redist.mpi.executor(plan)
    passed, detail = refused(lambda: executor.start(np.zeros(8, np.int32), np.zeros(8, np.int32)), range(WORLD),
                             "call run_in_place")
    results.append(("redist.mpi: start() on a plan in place refused in one line", passed, detail))
    plain = redist.plan("{x:4}", "[{x}8, 4]", "[8, {x}4]", "i32", strategy="exchange")
    passed, detail = refused(lambda: redist.mpi.executor(plain).run_in_place(np.zeros(8, np.int32)), range(WORLD),
                             "not in place")
    results.append(("redist.mpi: run_in_place on a plan out of place refused in one line", passed, detail))
    buf = np.zeros(plan.buffer_bytes(me) // 4, np.int32)
    passed, detail = refused_by_runtime(lambda: executor.run_in_place(buf[:1] if me == 1 else buf), 1,
                                        "buffer has 4 bytes")
    full_i = np.arange(32, dtype=np.int32).reshape(8, 4)
    (so, se), (to, te) = plan.src_box(me), plan.tgt_box(me)
    buf[:math.prod(se)] = full_i[so[0]:so[0] + se[0], so[1]:so[1] + se[1]].ravel()
    executor.run_in_place(buf)
    after = np.array_equal(buf[:math.prod(te)].reshape(te), full_i[to[0]:to[0] + te[0], to[1]:to[1] + te[1]])
    results.append(("redist.mpi: a short buffer on one rank refused on every rank before anything moves, the next "
                    "run right", passed and after, detail))


def numpy_within(results):
    """redist.mpi.plan_within: 128 B per rank (source 64 + target 64) takes a
    plan out of place, one byte less the plan in place; both run, every
    element checked; below the least in-place figure, refused."""
    me = redist.mpi.rank()
    full = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    for budget, in_place in ((128, False), (127, True)):
        plan = redist.mpi.plan_within("{x:4}", "[{x}8, 8]", "[8, {x}8]", "f32", memory_budget=budget)
        (so, se), (to, te) = plan.src_box(me), plan.tgt_box(me)
        src = full[so[0]:so[0] + se[0], so[1]:so[1] + se[1]]
        want = full[to[0]:to[0] + te[0], to[1]:to[1] + te[1]]
        if in_place:
            buf = np.full(plan.buffer_bytes(me) // 4, -1, np.float32)
            buf[:src.size] = src.ravel()
            redist.mpi.executor(plan).run_in_place(buf)
            got = buf[:want.size].reshape(te)
        else:
            got = np.full(te, -1, np.float32)
            redist.mpi.executor(plan).run(np.ascontiguousarray(src), got)
        right = (plan.kind == "in_place") == in_place and np.array_equal(got, want)
        results.append(("redist.mpi.plan_within: a budget of %d B per rank chooses %s, every element right"
                        % (budget, "in place" if in_place else "out of place"), right, "kind %s" % plan.kind))
    passed, detail = refused(lambda: redist.mpi.plan_within("{x:4}", "[{x}8, 8]", "[8, {x}8]", "f32", memory_budget=67),
                             range(WORLD), "memory-budget", "67")
    results.append(("redist.mpi.plan_within: a budget below the largest buffer and one element is refused in one line",
                    passed, detail))


def main():
    import checks
    sys.exit(checks.run_parts_on_ranks((numpy_in_place, numpy_within, random_problems, memory, misuse), WORLD))


if __name__ == "__main__":
    main()
