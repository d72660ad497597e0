"""The C ABI's planner through ctypes: the extracted, verified planner of
runtime/include/redist/redist.h.  Nothing here plans; it loads the library
and declares the signatures of the calls the package makes (planning and
queries only: the adapters move data with their framework's collectives).

Where the library comes from, first match wins:
  1. $REDIST_LIB, a path to libredist_planner.so or libredist_plan.so;
  2. libredist_planner.so, the C ABI's planning half, which needs no MPI
     library, as `pip install` bundled it into the package (setup.py builds
     it with `make runtime` when the package is installed from a checkout);
  3. libredist_planner.so, else libredist_plan.so, of an installed prefix
     (`make install`), through the dynamic linker's search path
     (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os
import pathlib

MAX_DIMS = 8  # REDIST_MAX_DIMS
ERROR_BYTES = 1024


class RedistError(ValueError):
    """A plan that could not be made or a layout redist cannot express;
    `code` is the C ABI's (2: bad input, 1: a plan the checker rejects,
    3: internal error), the message one line naming what is wrong."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


class StepInfo(ctypes.Structure):
    _fields_ = [("op", ctypes.c_int), ("group_stride", ctypes.c_int), ("group_size", ctypes.c_int),
                ("dim_a", ctypes.c_int), ("dim_b", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape", ctypes.c_size_t * MAX_DIMS), ("recv_from", ctypes.POINTER(ctypes.c_int))]


class Region(ctypes.Structure):
    _fields_ = [("from_rank", ctypes.c_int), ("offset", ctypes.c_size_t * MAX_DIMS),
                ("extent", ctypes.c_size_t * MAX_DIMS)]


class Contribution(ctypes.Structure):
    _fields_ = [("from_rank", ctypes.c_int), ("member", ctypes.c_int), ("offset", ctypes.c_size_t * MAX_DIMS),
                ("extent", ctypes.c_size_t * MAX_DIMS)]


class LocalBox(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_size_t * MAX_DIMS), ("extent", ctypes.c_size_t * MAX_DIMS)]


def _library_path():
    if os.environ.get("REDIST_LIB"):
        return os.environ["REDIST_LIB"]
    bundled = pathlib.Path(__file__).with_name("libredist_planner.so")
    if bundled.exists():
        return str(bundled)
    found = ctypes.util.find_library("redist_planner") or ctypes.util.find_library("redist_plan")
    if found is None:
        raise RedistError("libredist_planner.so not found: set REDIST_LIB to its path, install redist (make install), "
                          "or pip install the package from a redist checkout, which builds it", code=3)
    return found


def declare(lib):
    c_plan, c_str, size_t, u64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64
    err = [ctypes.c_char_p, size_t]
    signatures = {
        "redist_plan_create_with": (ctypes.c_int, [c_str] * 6 + [ctypes.POINTER(c_plan)] + err),
        "redist_plan_check": (ctypes.c_int, [c_str] * 6 + [ctypes.POINTER(c_plan)] + err),
        "redist_plan_create_in_place": (ctypes.c_int, [c_str] * 5 + [size_t, ctypes.POINTER(c_plan)] + err),
        "redist_plan_create_within": (ctypes.c_int, [c_str] * 5 + [size_t, ctypes.POINTER(c_plan)] + err),
        "redist_plan_buffer_bytes": (u64, [c_plan, ctypes.c_int]),
        "redist_plan_free": (None, [c_plan]),
        "redist_plan_devices": (ctypes.c_int, [c_plan]),
        "redist_plan_ndim": (ctypes.c_int, [c_plan]),
        "redist_plan_by_exchange": (ctypes.c_int, [c_plan]),
        "redist_plan_elem_bytes": (size_t, [c_plan]),
        "redist_plan_num_steps": (size_t, [c_plan]),
        "redist_plan_step_text": (c_str, [c_plan, size_t]),
        "redist_plan_text": (c_str, [c_plan]),
        "redist_plan_json": (c_str, [c_plan]),
        "redist_plan_guarantees": (c_str, [c_plan]),
        "redist_plan_src_box": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.POINTER(size_t),
                                               ctypes.POINTER(size_t)] + err),
        "redist_plan_tgt_box": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.POINTER(size_t),
                                               ctypes.POINTER(size_t)] + err),
        "redist_plan_step": (ctypes.c_int, [c_plan, size_t, ctypes.POINTER(StepInfo)] + err),
        "redist_plan_receives": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.POINTER(Region), size_t,
                                                ctypes.POINTER(size_t)] + err),
        "redist_plan_sum_receives": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.POINTER(Contribution), size_t,
                                                    ctypes.POINTER(size_t), ctypes.POINTER(ctypes.c_int),
                                                    ctypes.POINTER(ctypes.c_int)] + err),
        "redist_plan_local_shape": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.c_int, ctypes.POINTER(size_t)] + err),
        "redist_plan_region_count": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.c_int, ctypes.POINTER(size_t)] + err),
        "redist_plan_region_message": (ctypes.c_int, [c_plan, ctypes.c_int, ctypes.c_int, size_t,
                                                      ctypes.POINTER(ctypes.c_int), ctypes.POINTER(LocalBox), size_t,
                                                      ctypes.POINTER(size_t)] + err),
        "redist_plan_region_copy": (ctypes.c_int, [c_plan, ctypes.c_int, size_t, ctypes.POINTER(LocalBox),
                                                   ctypes.POINTER(LocalBox)] + err),
    }
    for figure in ["src_bytes", "dst_bytes", "peak_bytes", "workspace_bytes", "live_bytes", "alloc_bytes",
                   "recv_max_bytes", "lower_bound_recv_bytes"]:
        signatures["redist_plan_" + figure] = (u64, [c_plan])
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


_loaded = None


def lib():
    """The library, loaded on first use (so that importing the package
    never fails for want of it)."""
    global _loaded
    if _loaded is None:
        path = _library_path()
        try:
            _loaded = declare(ctypes.CDLL(path))
        except OSError as e:
            raise RedistError("cannot load %s: %s" % (path, e), code=3) from None
        except AttributeError as e:
            raise RedistError("%s is older than this package (%s): rebuild it with make runtime" % (path, e),
                              code=3) from None
    return _loaded


def call(fn, *args):
    """Calls a fallible C ABI function, raising RedistError with its message."""
    err = ctypes.create_string_buffer(ERROR_BYTES)
    rc = fn(*args, err, ERROR_BYTES)
    if rc != 0:
        raise RedistError(err.value.decode(errors="replace"), code=rc)
