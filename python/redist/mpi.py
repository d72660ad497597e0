"""redist's C runtime from Python, over MPI: plans run by the C ABI's
executors (redist_plan_bind, redist_exec_start / _test / _wait) on arrays
of the process's own memory, and arrays in redist's shared-memory windows
(redist_alloc / redist_free), which ranks on one host read from each other
with one copy.  For programs started by mpirun (one process per rank);
redist.torch.redistribute(..., transport="mpi") runs its moves here.
Plans in place (plan_in_place, Executor.run_in_place) move the data within
one buffer per rank: no destination array.

The library is the whole C ABI, libredist_plan.so, which needs Open MPI's
libmpi (the package's bundled libredist_planner.so has no runtime): found
at $REDIST_MPI_LIB, else at $REDIST_LIB when that is libredist_plan.so,
else in an installed prefix (`make install`) through the dynamic linker's
path.  Plans are made by the package's planner as everywhere and handed to
the runtime as their JSON report (redist_plan_from_json, which the
verified checker checks again): nothing here plans.  A plan of composed
cuts has no report the checker reads yet (kind "regions": its only plan is
the region exchange's lists): the runtime's library makes it from the
same problem with the same extracted planner, and its report must be the
package's plan's, else it is refused.

MPI is initialized on first use unless the program did it (then the
program finalizes it too); at exit the package frees its executors and
finalizes MPI if it initialized it.  Open MPI only: the communicator
handles are Open MPI's symbols (another MPI is refused in one line).
"""
import atexit
import ctypes
import ctypes.util
import json
import math
import os
import warnings

import numpy as np

from . import _lib, _plan
from ._lib import RedistError

_MPI_UNDEFINED = -32766  # Open MPI's MPI_UNDEFINED (mpi.h)


class _Runtime:
    """libmpi and libredist_plan.so, declared, and MPI_COMM_WORLD."""

    def __init__(self):
        mpi_path = ctypes.util.find_library("mpi")
        if mpi_path is None:
            raise RedistError("redist.mpi: libmpi not found (install Open MPI)", code=3)
        # Global, as Open MPI's plugins expect libmpi's symbols to be (what mpi4py does too).
        self.mpi = ctypes.CDLL(mpi_path, mode=ctypes.RTLD_GLOBAL)
        try:
            self.world = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(self.mpi, "ompi_mpi_comm_world")))
        except ValueError:
            raise RedistError("redist.mpi: %s is not Open MPI's libmpi (redist.mpi knows Open MPI's handles only)"
                              % mpi_path, code=3) from None
        path = _plan_library_path()
        try:
            self.lib = ctypes.CDLL(path)  # local: its redist_* symbols must not replace the planner's
        except OSError as e:
            raise RedistError("redist.mpi: cannot load %s: %s" % (path, e), code=3) from None
        if not hasattr(self.lib, "redist_exec_start"):
            raise RedistError("redist.mpi: %s has no runtime (redist_exec_start): it must be libredist_plan.so, "
                              "not libredist_planner.so" % path, code=3)
        try:
            _lib.declare(self.lib)  # the planner's calls, for plans in place made here (plan_in_place)
        except AttributeError as e:
            raise RedistError("redist.mpi: %s is older than this package (%s): rebuild it with make runtime"
                              % (path, e), code=3) from None
        handle, size_t, err = ctypes.c_void_p, ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_size_t]
        for name, restype, argtypes in [
                ("redist_plan_from_json", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(handle)] + err),
                ("redist_plan_free", None, [handle]),
                ("redist_plan_bind", ctypes.c_int, [handle, handle, ctypes.POINTER(handle)] + err),
                ("redist_exec_start", ctypes.c_int, [handle, handle, size_t, handle, size_t, handle, size_t] + err),
                ("redist_exec_test", ctypes.c_int, [handle, ctypes.POINTER(ctypes.c_int)] + err),
                ("redist_exec_wait", ctypes.c_int, [handle] + err),
                ("redist_exec_run_in_place", ctypes.c_int, [handle, handle, size_t, handle, size_t] + err),
                ("redist_exec_free", None, [handle]),
                ("redist_exec_direct_bytes", size_t, [handle]),
                ("redist_alloc", ctypes.c_int, [handle, size_t, ctypes.POINTER(handle)] + err),
                ("redist_free", ctypes.c_int, [handle, handle] + err)]:
            fn = getattr(self.lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        flag = ctypes.c_int()
        self.mpi.MPI_Initialized(ctypes.byref(flag))
        self.initialized_here = not flag.value
        if self.initialized_here and self.mpi.MPI_Init(None, None) != 0:
            raise RedistError("redist.mpi: MPI_Init failed", code=4)
        self.rank, self.size = ctypes.c_int(), ctypes.c_int()
        self.mpi.MPI_Comm_rank(self.world, ctypes.byref(self.rank))
        self.mpi.MPI_Comm_size(self.world, ctypes.byref(self.size))
        self.rank, self.size = self.rank.value, self.size.value
        self.comms = {}       # ranks (a tuple of world ranks, in device order) -> this rank's communicator over them
        self.executors = {}   # (plan, ranks) -> Executor
        self.buffers = {}     # address -> the ctypes array over a buffer of redist_alloc
        atexit.register(self.close)

    def comm(self, ranks):
        """The communicator over world ranks `ranks` numbered in that order
        (collective over the world: every rank asks for the same ranks), or
        None on a rank outside them."""
        if ranks not in self.comms:
            comm = ctypes.c_void_p()
            inside = self.rank in ranks
            rc = self.mpi.MPI_Comm_split(self.world, 0 if inside else _MPI_UNDEFINED,
                                         ranks.index(self.rank) if inside else 0, ctypes.byref(comm))
            if rc != 0:
                raise RedistError("redist.mpi: MPI_Comm_split over ranks %s failed (MPI error %d)" % (ranks, rc), code=4)
            self.comms[ranks] = comm if inside else None
        return self.comms[ranks]

    def close(self):
        """At exit: executors freed (an operation in flight waited for), then
        MPI finalized if this package initialized it.  Buffers still
        allocated are left to MPI_Finalize (redist_free is collective: a
        rank cannot free alone at exit)."""
        for executor in self.executors.values():
            executor.close()
        self.executors.clear()
        if self.buffers:
            # One write, so that the lines of ranks sharing a terminal never interleave.
            os.write(2, ("redist.mpi: %d buffer(s) of redist.mpi.empty not freed at exit on rank %d (free them with "
                         "redist.mpi.free on every rank); MPI_Finalize releases them\n"
                         % (len(self.buffers), self.rank)).encode())
        finalized = ctypes.c_int()
        self.mpi.MPI_Finalized(ctypes.byref(finalized))
        if self.initialized_here and not finalized.value:
            self.mpi.MPI_Finalize()


def _plan_library_path():
    for path in (os.environ.get("REDIST_MPI_LIB"), os.environ.get("REDIST_LIB")):
        if path and os.path.basename(path).startswith("libredist_plan.so"):
            return path
    found = ctypes.util.find_library("redist_plan")
    if found is None:
        raise RedistError("redist.mpi: libredist_plan.so (the C ABI with its MPI runtime) not found: set "
                          "REDIST_MPI_LIB to its path (make runtime stages it in _build/prefix/lib) or install "
                          "redist (make install)", code=3)
    return found


_runtime = None


def runtime():
    """The runtime, loaded and MPI initialized on first use."""
    global _runtime
    if _runtime is None:
        _runtime = _Runtime()
    return _runtime


def rank():
    """This process's rank in MPI_COMM_WORLD."""
    return runtime().rank


def size():
    """The ranks of MPI_COMM_WORLD."""
    return runtime().size


def _call(fn, *args):
    err = ctypes.create_string_buffer(_lib.ERROR_BYTES)
    rc = fn(*args, err, _lib.ERROR_BYTES)
    if rc != 0:
        raise RedistError(err.value.decode(errors="replace"), code=rc)


def _allocate(nbytes, failure=None):
    """A ctypes array over a new buffer of redist_alloc (collective over the
    world).  failure: this rank's argument error, which every rank then
    raises instead (this rank passes redist_alloc a null out, which it
    refuses on every rank), so that no rank waits for the others."""
    rt, address = runtime(), ctypes.c_void_p()
    try:
        _call(rt.lib.redist_alloc, rt.world, 0 if failure else nbytes, None if failure else ctypes.byref(address))
    except RedistError:
        if failure:
            raise failure from None
        raise
    window = (ctypes.c_uint8 * nbytes).from_address(address.value)
    rt.buffers[address.value] = window
    return window


def empty(shape, dtype):
    """A new C-contiguous numpy array of `shape` and `dtype` in redist's
    shared memory (redist_alloc over MPI_COMM_WORLD: a window per host),
    which another rank of the host reads with one copy when it is a plan's
    source.  Collective over the world: every rank calls it, in the same
    order, each with its own shape; the values are undefined.  A bad
    argument on one rank is a RedistError on every rank.  Free it with
    free() (collective too)."""
    try:
        shape = _plan.sizes(shape)
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise RedistError("empty: dtype %r is not a numpy dtype" % (dtype,)) from None
        failure = None
    except RedistError as e:
        failure = e
    window = _allocate(0 if failure else math.prod(shape) * dtype.itemsize, failure)
    return np.frombuffer(window, dtype=dtype).reshape(shape)


def free(address):
    """Frees the buffer of empty() that starts at `address` (an int: a numpy
    array's .ctypes.data, a tensor's data_ptr()).  Collective over the
    world like empty(): every rank frees its buffer of the same allocation,
    in allocation order; a rank that skips one leaves the others waiting in
    theirs, as in any MPI collective.  A rank passing anything but a live
    buffer of empty() raises RedistError naming it, and the others raise
    too (redist_free agrees); nothing is freed then.  Every array and
    tensor over the buffer is invalid afterwards: its memory is gone."""
    rt = runtime()
    address_like = isinstance(address, int) and not isinstance(address, bool) and 0 < address < 2 ** 64
    try:
        _call(rt.lib.redist_free, rt.world, ctypes.c_void_p(address if address_like else None))
    except RedistError:
        if not address_like:
            raise RedistError("free: expected the address of a buffer of empty() (array.ctypes.data, "
                              "tensor.data_ptr()), got %r" % (address,)) from None
        raise
    del rt.buffers[address]


class Redistribution:
    """A move started by Executor.start: wait() once, then its result;
    is_completed() tests without blocking.  It keeps the move's arrays alive
    until the wait.  From start until wait returns (or is_completed() says
    True) the source must not be written and the destination neither read
    nor written (builds of the runtime without NDEBUG check the source and
    fail the wait if it changed; release builds check nothing).  A handle
    dropped without wait() waits at the drop, with a RuntimeWarning, so
    that the executor is free for the next move."""

    def __init__(self, executor, arrays, result):
        self._executor, self._arrays, self._result = executor, arrays, result
        self._waited = False
        self.direct_bytes = None  # set by wait(): redist_exec_direct_bytes, the bytes received with one copy

    def is_completed(self):
        """True once the destination is complete (redist_exec_test)."""
        if self._waited or self._executor.handle is None:
            return True
        done = ctypes.c_int()
        try:
            _call(runtime().lib.redist_exec_test, self._executor.handle, ctypes.byref(done))
        except RedistError:
            self._finish()  # an error from test ends the operation
            raise
        return bool(done.value)

    def wait(self):
        """Blocks until the move is complete (redist_exec_wait) and returns
        its result; a second wait is a RedistError."""
        if self._waited:
            raise RedistError("wait: this redistribution was waited for already (one wait per start)")
        try:
            if self._executor.handle is not None:
                _call(runtime().lib.redist_exec_wait, self._executor.handle)
        finally:
            self._finish()
        return self._result()

    def _finish(self):
        self._waited = True
        handle = self._executor.handle
        self.direct_bytes = runtime().lib.redist_exec_direct_bytes(handle) if handle is not None else 0
        self._arrays = None

    def __del__(self):
        if not getattr(self, "_waited", True) and _runtime is not None:
            warnings.warn("redist.mpi: a redistribution was dropped without wait(); waited for at the drop (rank %d)"
                          % _runtime.rank, RuntimeWarning)
            try:
                self.wait()
            except RedistError as e:
                warnings.warn("redist.mpi: the dropped redistribution failed: %s" % e, RuntimeWarning)


def _pointer(array, what):
    """(address or None, bytes) of a C-contiguous numpy array or CPU tensor."""
    if array is None:
        return None, 0
    if isinstance(array, np.ndarray):
        if not array.flags.c_contiguous:
            raise RedistError("%s: the array is not C-contiguous" % what)
        address, nbytes = array.ctypes.data, array.nbytes
    elif hasattr(array, "data_ptr") and hasattr(array, "is_contiguous"):
        if array.device.type != "cpu" or not array.is_contiguous():
            raise RedistError("%s: the tensor must be a contiguous CPU tensor (it is %s on %s)"
                              % (what, "contiguous" if array.is_contiguous() else "not contiguous", array.device))
        address, nbytes = array.data_ptr(), array.numel() * array.element_size()
    else:
        raise RedistError("%s: expected a numpy array or a CPU tensor, got %s" % (what, type(array).__name__))
    return (address or None) if nbytes else None, nbytes


def _buffer(buf):
    """(address or None, bytes) of a buffer for run_in_place: a C-contiguous
    numpy array's bytes, or a contiguous CPU tensor's storage from its
    first element to the storage's end."""
    if hasattr(buf, "untyped_storage") and hasattr(buf, "is_contiguous"):
        at, _ = _pointer(buf, "run_in_place: buffer")
        if buf.requires_grad:
            raise RedistError("run_in_place: the buffer tensor requires grad (in place is not differentiable): "
                              "detach it")
        # From the storage: a tensor of no elements has data_ptr() 0, yet its storage may be this rank's buffer.
        storage, offset = buf.untyped_storage(), buf.storage_offset() * buf.element_size()
        nbytes = storage.nbytes() - offset
        return (storage.data_ptr() + offset) if nbytes > 0 else None, max(nbytes, 0)
    return _pointer(buf, "run_in_place: buffer")


class Executor:
    """A plan bound to world ranks `ranks` (device d of the plan on world
    rank ranks[d]; default 0..devices-1): redist_plan_bind over a
    communicator of those ranks in that order.  Collective over the world
    (every rank creates it, in the same order); a rank outside `ranks` gets
    an executor that moves nothing.  Use executor(plan, ranks), which makes
    one per plan and ranks and keeps it until exit."""

    def __init__(self, plan, ranks):
        rt = runtime()
        self.plan, self.ranks, self.handle = plan, ranks, None
        if len(ranks) > rt.size:
            raise RedistError("redist.mpi: the plan needs world ranks %s, MPI_COMM_WORLD has %d" % (ranks, rt.size))
        comm = rt.comm(ranks)
        if comm is None:
            return
        if plan.kind == "in_place":  # made by plan_in_place in this library: bound as it is
            if plan._lib is not rt.lib:
                raise RedistError("redist.mpi: a plan in place runs from redist.mpi.plan_in_place (redist.plan_in_place's "
                                  "plans are for inspection)")
            self._plan_handle, plan_handle = None, plan._handle
        elif plan.kind == "regions":  # no plan file for composed cuts: made again here, and compared
            mesh, target_mesh, source, target = plan._problem
            self._same_plan = _plan.plan(mesh, source, target, plan.report["dtype"], target_mesh=target_mesh,
                                         strategy=plan.report["strategy"], lib=rt.lib)
            if self._same_plan.report != plan.report:
                raise RedistError("redist.mpi: the runtime's library plans %s -> %s otherwise than the package's "
                                  "planner (two builds of redist?)" % (source, target), code=3)
            self._plan_handle, plan_handle = None, self._same_plan._handle
        else:  # the planner's plan, handed over as its report and checked again
            plan_handle = ctypes.c_void_p()
            _call(rt.lib.redist_plan_from_json, json.dumps(plan.report).encode(), ctypes.byref(plan_handle))
            self._plan_handle = plan_handle
        handle = ctypes.c_void_p()
        _call(rt.lib.redist_plan_bind, plan_handle, comm, ctypes.byref(handle))
        self.handle = handle
        self.workspace = np.empty(plan.workspace_bytes, np.uint8)  # in place: the staging

    def start(self, src, dst, result=None):
        """Starts moving this rank's source box `src` to its target box `dst`
        (numpy arrays or contiguous CPU tensors, C order; None on a rank
        outside the source or target mesh): redist_exec_start, collective
        over the executor's ranks (every rank starts; a bad buffer or array on
        one fails on every one).  Returns the Redistribution, whose wait()
        returns result() (default: dst)."""
        finish = result or (lambda: dst)
        if self.plan.kind == "in_place":
            raise RedistError("start: the plan is in place (one buffer, rounds one after another, no split phase): "
                              "call run_in_place")
        if self.handle is None:
            return Redistribution(self, None, finish)
        try:
            (src_at, src_bytes), (dst_at, dst_bytes) = _pointer(src, "start: source"), _pointer(dst, "start: destination")
            failure = None
        except RedistError as e:  # refused on every rank: this one starts with no buffers, which the runtime refuses
            failure, src_at, src_bytes, dst_at, dst_bytes = e, None, 0, None, 0
        lib = runtime().lib
        try:
            _call(lib.redist_exec_start, self.handle, src_at, src_bytes, dst_at, dst_bytes,
                  self.workspace.ctypes.data if self.workspace.nbytes else None, self.workspace.nbytes)
        except RedistError:
            if failure:
                raise failure from None
            raise
        if failure:  # no buffers was right for this rank's empty boxes: the move goes on, this rank having none
            _call(lib.redist_exec_wait, self.handle)
            raise failure
        return Redistribution(self, (src, dst, self.workspace), finish)

    def run(self, src, dst):
        """start() and wait(): the blocking move."""
        return self.start(src, dst).wait()

    def run_in_place(self, buf):
        """Runs a plan in place (plan_in_place) on this rank's one buffer
        `buf`: a C-contiguous numpy array, or a contiguous CPU tensor whose
        storage from its first element on is the buffer (a view of a larger
        storage serves), of at least plan.buffer_bytes(rank) bytes, holding
        the source box row-major at its start; on return the buffer's start
        holds the target box row-major, and the rest is undefined.
        Blocking and collective over the executor's ranks
        (redist_exec_run_in_place): a bad or short buffer on one rank fails
        on every rank before anything moves.  Returns buf."""
        if self.plan.kind != "in_place":
            raise RedistError("run_in_place: the plan is %s, not in place (plan it with redist.mpi.plan_in_place)"
                              % self.plan.kind)
        if self.handle is None:
            return buf
        try:
            at, nbytes = _buffer(buf)
            failure = None
        except RedistError as e:  # refused on every rank: this one runs with no buffer, which the runtime refuses
            failure, at, nbytes = e, None, 0
        try:
            _call(runtime().lib.redist_exec_run_in_place, self.handle, at, nbytes,
                  self.workspace.ctypes.data if self.workspace.nbytes else None, self.workspace.nbytes)
        except RedistError:
            if failure:
                raise failure from None
            raise
        if failure:  # no buffer was right for this rank's empty boxes: the others moved, this rank had nothing
            raise failure
        return buf

    def close(self):
        if self.handle is not None:
            runtime().lib.redist_exec_free(self.handle)
            if self._plan_handle is not None:  # a plan in place is its Plan's to free
                runtime().lib.redist_plan_free(self._plan_handle)
            self.handle = None


def executor(plan, ranks=None):
    """The Executor of `plan` on world ranks `ranks` (default 0..devices-1),
    made on first use (collective over the world) and kept until exit."""
    rt = runtime()
    ranks = tuple(range(plan.devices)) if ranks is None else tuple(ranks)
    key = (plan, ranks)
    if key not in rt.executors:
        rt.executors[key] = Executor(plan, ranks)
    return rt.executors[key]


def plan_within(mesh, source, target, dtype=None, *, memory_budget, target_mesh=None):
    """redist.plan_within's choice within memory_budget bytes per rank, made
    by the runtime's library so that executor() runs it: plan.kind
    "in_place" runs with executor(plan, ranks).run_in_place(buf) (below
    source + destination only it fits), any other kind with run(src, dst)."""
    return _plan.plan_within(mesh, source, target, dtype, memory_budget=memory_budget, target_mesh=target_mesh,
                             lib=runtime().lib)


def plan_in_place(mesh, source, target, dtype=None, *, target_mesh=None, staging_bytes=None):
    """The plan in place of redist.plan's problem (no pending sums), made by
    the runtime's library (redist_plan_create_in_place, the verified
    inplace_plan) so that executor() runs it: each rank keeps one buffer,
    plan.buffer_bytes(rank) = max(source box, target box) bytes, plus at most
    staging_bytes of staging (None: unbounded; at least one element), of
    which the schedule uses plan.workspace_bytes (the executor allocates
    it).  No schedule within the staging: RedistError code 1; pending sums
    or staging below one element: code 2.  Run with
    executor(plan, ranks).run_in_place(buf)."""
    return _plan.plan_in_place(mesh, source, target, dtype, target_mesh=target_mesh, staging_bytes=staging_bytes,
                               lib=runtime().lib)
