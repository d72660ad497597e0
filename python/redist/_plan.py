"""redist.plan: the verified plan of the C ABI as a Python object."""
import ctypes
import json
import numbers
from dataclasses import dataclass
from typing import Optional, Tuple

from . import _lib

# redist_step_info_t.op: the collectives, then the pending-sum steps.
STEP_OPS = ("dyn_slice", "all_gather", "all_to_all", "all_permute", "reduce_scatter", "all_reduce", "add_pending")
KINDS = ("collectives", "exchange", "reducing_exchange", "hybrid", "in_place", "regions")  # redist_plan_by_exchange
SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1


@dataclass(frozen=True)
class Step:
    """One step of a plan, as the runtime's plan interpreter runs it: the
    group is the world ranks that differ only in (rank // group_stride) %
    group_size; shape is the local array's before the step; recv_from
    (all_permute) names, for every rank, the rank whose array it takes.
    Pending reductions (Plan.reduction): reduce_scatter (dim_a) and
    all_reduce combine over the group in ascending member order;
    add_pending leaves the array on every member for max, min and avg, on
    member 0 and the identity (0, 1) on the others for sum and prod."""
    op: str
    text: str
    group_stride: int
    group_size: int
    dim_a: int
    dim_b: int
    shape: Tuple[int, ...]
    recv_from: Optional[Tuple[int, ...]]


@dataclass(frozen=True)
class Piece:
    """A piece of a rank's target box in a plan by the exchange: the global
    region offset/extent, copied whole from world rank from_rank's source
    array (the rank itself: a local copy)."""
    from_rank: int
    offset: Tuple[int, ...]
    extent: Tuple[int, ...]


@dataclass(frozen=True)
class Contribution:
    """A plan by the reducing exchange: member `member` of the source pending
    group holding a piece, world rank from_rank, gives its values on the
    global region offset/extent; a target element is the sum of its
    members' contributions in ascending member order."""
    from_rank: int
    member: int
    offset: Tuple[int, ...]
    extent: Tuple[int, ...]


@dataclass(frozen=True)
class SumReceives:
    """What one rank adds up in the reducing exchange: designated (its
    target box gets the sums; otherwise it holds zeros), the members of a
    source pending group, and its Contributions, piece by piece."""
    designated: bool
    group_size: int
    contributions: Tuple[Contribution, ...]


@dataclass(frozen=True)
class RegionLists:
    """A rank's part of the region exchange (a plan of composed cuts), the
    extracted lowering's lists: sends and recvs, one (peer world rank,
    boxes) per peer, each box (offset, extent) of the rank's local array
    (the source for sends, the target for recvs); a message is its boxes'
    elements in order, row-major within each box, and the k-th box a rank
    sends to a peer is the k-th the peer receives from it.  copies: (source
    box, target box) pairs of equal extents, moved within the rank."""
    sends: Tuple[Tuple[int, Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], ...]], ...]
    recvs: Tuple[Tuple[int, Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], ...]], ...]
    copies: Tuple[Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], Tuple[Tuple[int, ...], Tuple[int, ...]]], ...]


# redist.h's REDIST_REGION_SENDS, _RECVS, _COPIES.
_REGION_SENDS, _REGION_RECVS, _REGION_COPIES = 0, 1, 2


class Plan:
    """A redistribution planned by redist's extracted, verified planner.

    Figures are the planner's (bytes of one element type); `guarantees` are
    the Coq theorems that hold of this plan, as "name: statement" pairs.
    """

    def __init__(self, handle, problem, lib=None):
        self._handle = handle
        self._problem = problem  # (mesh, target_mesh, source, target) as planned: a hybrid's parts are checked on it
        self._parts = None
        # The library the handle belongs to: the planner's, or redist.mpi's runtime for a plan in place.
        self._lib = lib = lib or _lib.lib()
        self._free = lib.redist_plan_free
        self.text = lib.redist_plan_text(handle).decode()
        self.report = json.loads(lib.redist_plan_json(handle).decode())
        self.guarantees = [tuple(line.split(": ", 1))
                           for line in lib.redist_plan_guarantees(handle).decode().splitlines()]
        self.devices = lib.redist_plan_devices(handle)
        self.ndim = lib.redist_plan_ndim(handle)
        self.kind = KINDS[lib.redist_plan_by_exchange(handle)]
        self.by_exchange = self.kind != "collectives"
        self.elem_bytes = lib.redist_plan_elem_bytes(handle)
        self.reduction = self.report.get("reduction")  # the pending axes' operation (sum, prod, max, min, avg), or None
        self.step_texts = [lib.redist_plan_step_text(handle, i).decode()
                           for i in range(lib.redist_plan_num_steps(handle))]
        self.src_bytes = lib.redist_plan_src_bytes(handle)
        self.dst_bytes = lib.redist_plan_dst_bytes(handle)
        self.peak_bytes = lib.redist_plan_peak_bytes(handle)
        self.workspace_bytes = lib.redist_plan_workspace_bytes(handle)
        self.live_bytes = lib.redist_plan_live_bytes(handle)  # the C runtime's most bytes alive on a rank
        self.alloc_bytes = lib.redist_plan_alloc_bytes(handle)  # source + destination + workspace, what a rank allocates
        self.recv_max_bytes = lib.redist_plan_recv_max_bytes(handle)
        self.lower_bound_recv_bytes = lib.redist_plan_lower_bound_recv_bytes(handle)

    def __del__(self):
        if getattr(self, "_handle", None):
            self._free(self._handle)
            self._handle = None

    def __repr__(self):
        return "<redist.Plan %s -> %s: %s>" % (self.report["source"], self.report["target"],
                                               "; ".join(self.step_texts) or "nothing to move")

    def __str__(self):
        return self.text

    def _rank(self, rank, what):
        """rank checked here: ctypes would wrap an int past the C int's
        range, or refuse another type with no word of which argument."""
        if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
            raise _lib.RedistError("%s: rank %r is a %s, not an int" % (what, rank, type(rank).__name__))
        if not 0 <= rank < self.devices:
            raise _lib.RedistError("%s: rank %d is outside the plan's ranks 0..%d" % (what, rank, self.devices - 1))
        return int(rank)

    def _box(self, fn, rank, what):
        offset, extent = (ctypes.c_size_t * self.ndim)(), (ctypes.c_size_t * self.ndim)()
        _lib.call(fn, self._handle, self._rank(rank, what), offset, extent)
        return tuple(offset), tuple(extent)

    def src_box(self, rank):
        """(offset, extent) of the global box world rank `rank` holds in the
        source layout; extents all 0 outside the source mesh."""
        return self._box(self._lib.redist_plan_src_box, rank, "src_box")

    def tgt_box(self, rank):
        """(offset, extent) in the target layout."""
        return self._box(self._lib.redist_plan_tgt_box, rank, "tgt_box")

    def _local_shape(self, which, rank, what):
        extent = (ctypes.c_size_t * self.ndim)()
        _lib.call(self._lib.redist_plan_local_shape, self._handle, which, self._rank(rank, what), extent)
        return tuple(extent)

    def src_shape(self, rank):
        """The shape of world rank `rank`'s source local array: its box's
        extent, or for a composed layout (kind "regions", whose holdings are
        no boxes) its holding's; all 0 outside the source mesh."""
        return self._local_shape(0, rank, "src_shape")

    def tgt_shape(self, rank):
        """src_shape's in the target layout."""
        return self._local_shape(1, rank, "tgt_shape")

    def regions(self, rank):
        """World rank `rank`'s RegionLists (a plan by the region exchange)."""
        rank = self._rank(rank, "regions")
        lib, count = self._lib, ctypes.c_size_t()

        def local(box):
            return tuple(box.offset[:self.ndim]), tuple(box.extent[:self.ndim])

        def messages(which):
            _lib.call(lib.redist_plan_region_count, self._handle, rank, which, ctypes.byref(count))
            found = []
            for i in range(count.value):
                peer, nboxes = ctypes.c_int(), ctypes.c_size_t()
                _lib.call(lib.redist_plan_region_message, self._handle, rank, which, i, ctypes.byref(peer), None, 0,
                          ctypes.byref(nboxes))
                boxes = (_lib.LocalBox * nboxes.value)()
                _lib.call(lib.redist_plan_region_message, self._handle, rank, which, i, ctypes.byref(peer), boxes,
                          nboxes.value, ctypes.byref(nboxes))
                found.append((peer.value, tuple(map(local, boxes))))
            return tuple(found)
        sends, recvs = messages(_REGION_SENDS), messages(_REGION_RECVS)
        _lib.call(lib.redist_plan_region_count, self._handle, rank, _REGION_COPIES, ctypes.byref(count))
        copies = []
        for i in range(count.value):
            source, target = _lib.LocalBox(), _lib.LocalBox()
            _lib.call(lib.redist_plan_region_copy, self._handle, rank, i, ctypes.byref(source), ctypes.byref(target))
            copies.append((local(source), local(target)))
        return RegionLists(sends, recvs, tuple(copies))

    def buffer_bytes(self, rank):
        """A plan in place: world rank `rank`'s one buffer, max(source box,
        target box) bytes (0 outside both meshes)."""
        if self.kind != "in_place":
            raise _lib.RedistError("buffer_bytes: the plan is %s, not in place" % self.kind)
        return self._lib.redist_plan_buffer_bytes(self._handle, self._rank(rank, "buffer_bytes"))

    def collective_steps(self):
        """The plan's steps (a plan by the collectives; with pending sums the
        reductions, the collectives and the add_pending steps)."""
        steps = []
        for i, text in enumerate(self.step_texts):
            info = _lib.StepInfo()
            _lib.call(self._lib.redist_plan_step, self._handle, i, ctypes.byref(info))
            if info.op >= len(STEP_OPS):
                raise _lib.RedistError("step %d (%s): collective code %d is newer than this package (which runs %s)"
                                       % (i, text, info.op, ", ".join(STEP_OPS)), code=3)
            recv_from = tuple(info.recv_from[r] for r in range(self.devices)) if info.recv_from else None
            steps.append(Step(STEP_OPS[info.op], text, info.group_stride, info.group_size, info.dim_a,
                              info.dim_b, tuple(info.shape[:info.ndim]), recv_from))
        return steps

    def parts(self):
        """A hybrid's two parts, each a Plan of its own problem: the source to
        the intermediate layout of the plan's via line (on the target mesh),
        then from there to the target (either part may be a hybrid again).
        They are the plan's own lines (its text is a plan file), checked
        again by the verified checker, as `redist check` reads them."""
        if self.kind != "hybrid":
            raise _lib.RedistError("parts: the plan is %s, not a hybrid" % self.kind, code=2)
        if self._parts is None:
            lines = [line.split("#", 1)[0].strip() for line in self.text.splitlines()]
            lines = [line for line in lines if line]
            # A hybrid's first part has no via line (the checker splits at the first).
            via = next(i for i, line in enumerate(lines) if line.startswith("via "))
            mid = lines[via][len("via "):]
            mesh, target_mesh, source, target = self._problem
            dtype = self.report["dtype"]
            self._parts = (_check(mesh, target_mesh, source, mid, dtype, "\n".join(lines[:via])),
                           _check(target_mesh or mesh, target_mesh, mid, target, dtype, "\n".join(lines[via + 1:])))
        return self._parts

    def receives(self, rank):
        """The Pieces of world rank `rank`'s target box (a plan by the
        exchange): from which rank each comes."""
        fn, count, rank = self._lib.redist_plan_receives, ctypes.c_size_t(), self._rank(rank, "receives")
        _lib.call(fn, self._handle, rank, None, 0, ctypes.byref(count))
        regions = (_lib.Region * count.value)()
        _lib.call(fn, self._handle, rank, regions, count.value, ctypes.byref(count))
        return [Piece(r.from_rank, tuple(r.offset[:self.ndim]), tuple(r.extent[:self.ndim])) for r in regions]

    def sum_receives(self, rank):
        """What world rank `rank` adds up (a plan by the reducing exchange)."""
        fn, count, rank = self._lib.redist_plan_sum_receives, ctypes.c_size_t(), self._rank(rank, "sum_receives")
        designated, group_size = ctypes.c_int(), ctypes.c_int()
        _lib.call(fn, self._handle, rank, None, 0, ctypes.byref(count), ctypes.byref(designated),
                  ctypes.byref(group_size))
        found = (_lib.Contribution * count.value)()
        _lib.call(fn, self._handle, rank, found, count.value, ctypes.byref(count), ctypes.byref(designated),
                  ctypes.byref(group_size))
        return SumReceives(bool(designated.value), group_size.value,
                           tuple(Contribution(c.from_rank, c.member, tuple(c.offset[:self.ndim]),
                                              tuple(c.extent[:self.ndim])) for c in found))

    def picture(self, format="svg"):
        """The source and target layouts (who holds which box) and the plan's
        steps, drawn with matplotlib: SVG text or PNG bytes."""
        if format not in ("svg", "png"):
            raise _lib.RedistError("picture: format %r: redist draws \"svg\" or \"png\"" % (format,))
        from ._picture import render
        return render(self, format)

    def _repr_svg_(self):
        return self.picture("svg")


def sizes(shape):
    """shape as a tuple, checked to be sizes (ints >= 0)."""
    if not (isinstance(shape, (tuple, list)) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                     for n in shape)):
        raise _lib.RedistError("shape: expected a tuple of sizes (ints >= 0), got %r" % (shape,))
    return tuple(shape)


def _text(s, what):
    if s is None:
        return None
    if not isinstance(s, str):
        raise _lib.RedistError("%s: expected a string in redist's notation, got %s" % (what, type(s).__name__))
    # The C ABI reads a NUL-terminated UTF-8 string: a NUL would end it early, unnoticed.
    if "\0" in s:
        raise _lib.RedistError("%s: a NUL character at position %d" % (what, s.index("\0")))
    try:
        return s.encode()
    except UnicodeEncodeError as e:
        raise _lib.RedistError("%s: character %r at position %d is not encodable as UTF-8 (%s)"
                               % (what, s[e.start], e.start, e.reason)) from None


def plan(mesh, source, target, dtype=None, *, target_mesh=None, strategy=None, lib=None):
    """Plans moving an array from layout `source` to `target`, in the
    notation of the `redist` command: plan("{x:2, y:4}", "[{x}32, {y}256]",
    "[{y}32, {x}256]", "bf16").  target_mesh: a second (placed) mesh for a
    move between meshes ("{x:4} @ 4"); strategy: "collectives", "exchange"
    or "auto" (default).  Raises RedistError naming what is wrong.  lib:
    the library that makes it, default the planner's."""
    lib = lib or _lib.lib()
    handle = ctypes.c_void_p()
    _lib.call(lib.redist_plan_create_with, _text(mesh, "mesh"), _text(target_mesh, "target_mesh"),
              _text(source, "source"), _text(target, "target"), _text(dtype, "dtype"),
              _text(strategy, "strategy"), ctypes.byref(handle))
    return Plan(handle, (mesh, target_mesh, source, target), lib)


def _check(mesh, target_mesh, source, target, dtype, lines):
    """A plan file's plan, checked by the verified checker (redist_plan_check)."""
    handle = ctypes.c_void_p()
    _lib.call(_lib.lib().redist_plan_check, _text(mesh, "mesh"), _text(target_mesh, "target_mesh"),
              _text(source, "source"), _text(target, "target"), _text(dtype, "dtype"), _text(lines, "plan"),
              ctypes.byref(handle))
    return Plan(handle, (mesh, target_mesh, source, target))


def _byte_count(what, n):
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= SIZE_MAX:
        raise _lib.RedistError("%s: expected a number of bytes, got %r" % (what, n))
    return n


def plan_within(mesh, source, target, dtype=None, *, memory_budget, target_mesh=None, lib=None):
    """plan()'s problem chosen by the cost model within memory_budget bytes
    per rank (redist_plan_create_within, the verified choose_within): the
    cheapest plan out of place that allocates at most the budget, or the
    plan in place (kind "in_place": one buffer per rank and a staging within
    the budget) where it is cheaper or the only one that fits.  A budget
    below every plan's figure: RedistError naming the least.  lib: the
    library that makes (and later runs) it, default the planner's."""
    budget = _byte_count("memory_budget", memory_budget)
    lib = lib or _lib.lib()
    handle = ctypes.c_void_p()
    _lib.call(lib.redist_plan_create_within, _text(mesh, "mesh"), _text(target_mesh, "target_mesh"),
              _text(source, "source"), _text(target, "target"), _text(dtype, "dtype"), budget,
              ctypes.byref(handle))
    return Plan(handle, (mesh, target_mesh, source, target), lib)


def plan_in_place(mesh, source, target, dtype=None, *, target_mesh=None, staging_bytes=None, lib=None):
    """plan()'s problem planned in place (redist_plan_create_in_place): one
    buffer per rank (Plan.buffer_bytes) and at most staging_bytes of staging
    (None: as much as the schedule wants; at least one element), which
    Plan.workspace_bytes says the schedule uses.  No pending sums.  lib: the
    library that makes (and later runs) it, default the planner's."""
    if staging_bytes is not None and (isinstance(staging_bytes, bool) or not isinstance(staging_bytes, int)
                                      or not 0 <= staging_bytes <= SIZE_MAX):
        raise _lib.RedistError("staging_bytes: expected None (unbounded) or a number of bytes, got %r"
                               % (staging_bytes,))
    lib = lib or _lib.lib()
    handle = ctypes.c_void_p()
    _lib.call(lib.redist_plan_create_in_place, _text(mesh, "mesh"), _text(target_mesh, "target_mesh"),
              _text(source, "source"), _text(target, "target"), _text(dtype, "dtype"),
              SIZE_MAX if staging_bytes is None else staging_bytes, ctypes.byref(handle))
    return Plan(handle, (mesh, target_mesh, source, target), lib)
