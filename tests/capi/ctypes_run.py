"""libredist_plan.so from Python's ctypes, run under mpirun (Open MPI):
plans [{x}6, {y}12] -> [{y}6, {x}12] (f32) on a 2x3 mesh, runs it on
MPI_COMM_WORLD, checks every element of this rank's target box (element =
its row-major global index) and that bad input gives code 2 and one line.
Prints "ok ..." or "FAIL ..." (rank 0); exit 0 only when all is right.
Usage: mpirun -np 6 python3 ctypes_run.py LIBREDIST_PLAN_SO"""
import ctypes
import sys

mpi = ctypes.CDLL("libmpi.so.40", mode=ctypes.RTLD_GLOBAL)  # Open MPI's plugins need its symbols global
lib = ctypes.CDLL(sys.argv[1])
mpi.MPI_Init(None, None)
world = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(mpi, "ompi_mpi_comm_world")))
rank = ctypes.c_int()
mpi.MPI_Comm_rank(world, ctypes.byref(rank))
rank = rank.value
size_t, u64 = ctypes.c_size_t, ctypes.c_uint64
lib.redist_plan_create.argtypes = [ctypes.c_char_p] * 4 + [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, size_t]
for name in ["src_bytes", "dst_bytes", "workspace_bytes"]:
    getattr(lib, "redist_plan_" + name).restype = u64
    getattr(lib, "redist_plan_" + name).argtypes = [ctypes.c_void_p]
box_args = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(size_t), ctypes.POINTER(size_t), ctypes.c_char_p, size_t]
lib.redist_plan_src_box.argtypes = lib.redist_plan_tgt_box.argtypes = box_args
lib.redist_plan_execute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, size_t, ctypes.c_void_p, size_t,
                                    ctypes.c_void_p, size_t, ctypes.c_char_p, size_t]
lib.redist_plan_free.argtypes = [ctypes.c_void_p]

failures = []
err = ctypes.create_string_buffer(512)
plan = ctypes.c_void_p()
rc = lib.redist_plan_create(b"{x:2, y:3}", b"[{x}6, {y}12]", b"[{y}6, {x}12]", b"f32", ctypes.byref(plan), err, 512)
if rc != 0:
    failures.append("redist_plan_create: code %d: %s" % (rc, err.value.decode()))
else:
    shape = (6, 12)
    def box(fn):
        off, ext = (size_t * 2)(), (size_t * 2)()
        fn(plan, rank, off, ext, err, 512)
        return list(off), list(ext)
    def values(off, ext):
        return [float((off[0] + i) * shape[1] + off[1] + j) for i in range(ext[0]) for j in range(ext[1])]
    src_off, src_ext = box(lib.redist_plan_src_box)
    dst_off, dst_ext = box(lib.redist_plan_tgt_box)
    src = (ctypes.c_float * (src_ext[0] * src_ext[1]))(*values(src_off, src_ext))
    dst = (ctypes.c_float * (dst_ext[0] * dst_ext[1]))()
    ws = ctypes.create_string_buffer(max(1, lib.redist_plan_workspace_bytes(plan)))
    rc = lib.redist_plan_execute(plan, world, src, ctypes.sizeof(src), dst, ctypes.sizeof(dst), ws,
                                 lib.redist_plan_workspace_bytes(plan), err, 512)
    if rc != 0:
        failures.append("redist_plan_execute: code %d: %s" % (rc, err.value.decode()))
    elif list(dst) != values(dst_off, dst_ext):
        failures.append("rank %d: wrong elements in its target box" % rank)
    lib.redist_plan_free(plan)
bad = ctypes.c_void_p()
rc = lib.redist_plan_create(b"{x:2, y:3}", b"[3{x}7]", b"[7]", None, ctypes.byref(bad), err, 512)
if rc != 2 or b"\n" in err.value or not err.value.startswith(b"from: "):
    failures.append("bad input: code %d, %r" % (rc, err.value))

flag = ctypes.c_int(len(failures))
total = ctypes.c_int()
MPI_INT = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(mpi, "ompi_mpi_int")))
MPI_SUM = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(mpi, "ompi_mpi_op_sum")))
mpi.MPI_Allreduce(ctypes.byref(flag), ctypes.byref(total), 1, MPI_INT, MPI_SUM, world)
for f in failures:
    print("FAIL ctypes: " + f)
if rank == 0 and total.value == 0:
    print("ok ctypes: libredist_plan.so plans, runs and checks every element on 6 ranks; bad input: code 2: %s"
          % err.value.decode())
mpi.MPI_Finalize()
sys.exit(1 if total.value else 0)
