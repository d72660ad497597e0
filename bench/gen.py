"""Plans every problem with `redist plan --json` under a measured profile
(auto, and each of collectives and exchange where the problem allows it),
checks the gather-everything plan with `redist check --json`, generates C++
with `redist gen` for those and for every other candidate auto weighed,
sweeps auto's --memory-budget, and builds one MPI driver per world size."""

import hashlib
import json
import math
import os
import subprocess

import problems as P

# The gather-everything plan holds the whole array on every rank: it is left
# out where that would exceed this many bytes over all ranks (the machine has
# 24 GiB shared with other work).
GATHER_ALL_MAX_BYTES = 3 << 30


def easy_plan(p):
    """The paper's baseline: all_gather every sharded dimension, then
    dyn_slice down to the target, major axis first."""
    lines = []
    for d, axes in enumerate(p["src"]):
        lines += [f"all_gather({d})"] * len(axes)
    for d, axes in enumerate(p["tgt"]):
        lines += [f"dyn_slice({d}, {a})" for a in axes]
    return "\n".join(lines) + "\n"


def read_json(path):
    with open(path) as f:
        return json.load(f)


def _redist(redist, args, stdin=None):
    r = subprocess.run([redist] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"redist {args[0]} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def problem_args(p):
    if P.cross_mesh(p):
        meshes = ["--from-mesh", P.placed_text(p["mesh"], p["from_ranks"]),
                  "--to-mesh", P.placed_text(p["to_mesh"], p["to_ranks"])]
    else:
        meshes = ["--mesh", P.mesh_text(p["mesh"])]
    return meshes + ["--from", P.src_text(p), "--to", P.tgt_text(p), "--dtype", "f32"]


def collectives_apply(p):
    """The paper's collective plans (redist's `collectives` strategy) take
    even problems on one mesh."""
    return P.even(p) and not P.cross_mesh(p)


def gather_all_applies(p):
    """The gather-everything baseline copies: it has no sums to add, and
    holds the whole array on every rank."""
    return (collectives_apply(p) and not P.pending(p)
            and 4 * math.prod(p["shape"]) * P.devices(p["mesh"]) <= GATHER_ALL_MAX_BYTES)


def fftw_direction(p):
    """FFTW-MPI's transpose (of an n0 x n1 matrix of tuples, n0 cut into
    blocks over all ranks) moves rows-over-all-ranks to columns-over-all-ranks
    when viewed as N0 x P x (N1/P), and back: 1 for rows -> columns, 2 for
    columns -> rows, 0 when it cannot express the problem (another rank,
    a mesh axis left out or out of mesh order, a move between meshes, pending
    sums, N1 not divisible)."""
    if P.cross_mesh(p) or P.pending(p) or len(p["shape"]) != 2:
        return 0
    axes = [a for a, _ in p["mesh"]]
    if p["shape"][1] % P.devices(p["mesh"]) != 0:
        return 0
    if p["src"] == [axes, []] and p["tgt"] == [[], axes]:
        return 1
    if p["src"] == [[], axes] and p["tgt"] == [axes, []]:
        return 2
    return 0


def plan_all(redist, problems, out, profile_of):
    """Returns ({name: {system: plan json}} for redist (auto), redist_exch,
    and where they apply redist_coll and gather_all; {name: candidates}),
    and writes the headers.  Every plan is costed under the profile
    profile_of(problem) names.  The candidates are auto's, each with the
    system whose row measures it: redist_exch for the exchange, redist_coll
    for the collective plan --strategy collectives also picks, and candK
    (generated from the candidate's plan file) for the others."""
    plans, candidates = {}, {}
    os.makedirs(out, exist_ok=True)
    for p in problems:
        args = problem_args(p) + ["--profile", profile_of(p)]
        name = p["name"]
        mine = {"redist": json.loads(_redist(redist, ["plan", "--json"] + args)),
                "redist_exch": json.loads(_redist(redist, ["plan", "--json", "--strategy", "exchange"] + args))}
        _redist(redist, ["gen", "--strategy", "exchange", "--name", f"{name}_exch", "-o",
                         os.path.join(out, f"{name}_exch.hpp")] + args)
        if collectives_apply(p):
            mine["redist_coll"] = json.loads(_redist(redist, ["plan", "--json", "--strategy", "collectives"] + args))
            _redist(redist, ["gen", "--strategy", "collectives", "--name", f"{name}_coll", "-o",
                             os.path.join(out, f"{name}_coll.hpp")] + args)
        if gather_all_applies(p):
            easy_file = os.path.join(out, f"{name}_easy.plan")
            with open(easy_file, "w") as f:
                f.write(easy_plan(p))
            mine["gather_all"] = json.loads(_redist(redist, ["check", "--json", "--plan", easy_file] + args))
            _redist(redist, ["gen", "--name", f"{name}_easy", "--plan", easy_file, "-o",
                             os.path.join(out, f"{name}_easy.hpp")] + args)
        same_as = {}
        if "redist_coll" in mine:
            same_as[mine["redist_coll"]["cost"]["candidates"][0]["plan"]] = "redist_coll"
        mine_candidates = []
        for k, c in enumerate(mine["redist"]["cost"]["candidates"]):
            # the exchange's plan reads "exchange", or "reducing exchange" with pending sums
            system = "redist_exch" if c["strategy"] == "exchange" else same_as.get(c["plan"], f"cand{k}")
            if system == f"cand{k}":
                plan_file = os.path.join(out, f"{name}_cand{k}.plan")
                with open(plan_file, "w") as f:
                    f.write("".join(line + "\n" for line in c["plan_file"]))
                _redist(redist, ["gen", "--name", f"{name}_cand{k}", "--plan", plan_file, "-o",
                                 os.path.join(out, f"{name}_cand{k}.hpp")] + args)
            mine_candidates.append(dict(c, index=k, system=system))
        plans[name], candidates[name] = mine, mine_candidates
    return plans, candidates


def auto_choice(candidates):
    """The system whose row measures the candidate auto chose."""
    return next(c["system"] for c in candidates if c["verdict"] == "chosen")


def budget_sweep(redist, p, profile, candidates):
    """auto under --memory-budget at each candidate's allocated bytes (what
    the budget bounds: the budgets where its choice can change) and
    unbounded: per budget, the candidate the command chose (matched by its
    plan), its allocated and live bytes; and the command's refusal one byte
    below the least."""
    args = problem_args(p) + ["--profile", profile]
    index_of = {c["plan"]: c["index"] for c in candidates}
    sweep = []
    for budget in sorted({c["alloc_bytes"] for c in candidates}) + [None]:
        extra = [] if budget is None else ["--memory-budget", str(budget)]
        cost = json.loads(_redist(redist, ["plan", "--json"] + extra + args))["cost"]
        chosen = next(c for c in cost["candidates"] if c["verdict"] == "chosen")
        sweep.append({"budget": budget, "candidate": index_of[chosen["plan"]], "alloc_bytes": cost["alloc_bytes"],
                      "live_bytes": cost["live_bytes"], "predicted_ns": cost["predicted_ns"]})
    least = min(c["alloc_bytes"] for c in candidates)
    r = subprocess.run([redist, "plan", "--memory-budget", str(least - 1)] + args, capture_output=True, text=True)
    return {"sweep": sweep, "below_least": {"budget": least - 1, "exit": r.returncode, "message": r.stderr.strip()}}


def _held(p, system, strategy):
    """For a header whose run takes an object of its own rather than a Mesh:
    that object's type, the arguments its run takes after it, and its
    workspace; None for a collective plan's header."""
    ns = f"{p['name']}_{system}"
    typed = (f"static_cast<const {ns}::value_type*>(src), src_bytes, static_cast<{ns}::value_type*>(dst), "
             "dst_bytes")
    if strategy == "hybrid":
        return f"{ns}::Plan", "create", typed + ", ws, ws_bytes", f"{ns}::kWorkspaceBytes"
    if strategy == "exchange" and P.pending(p):
        return "redist::ReducingExchange", "create_exchange", "src, src_bytes, dst, dst_bytes, ws, ws_bytes", \
            f"{ns}::kWorkspaceBytes"
    if strategy == "exchange":
        return "redist::Exchange", "create_exchange", typed, "0"
    return None


def _as_mesh(p, system, strategy):
    """A header that runs an object of its own (an exchange, a hybrid's
    Plan) seen as a collective plan's (create_mesh, run over a Mesh) for the
    driver's table: the object is made once per problem and freed by
    release() before MPI_Finalize (its communicators must be)."""
    ns = f"{p['name']}_{system}"
    held, create, args, _ = _held(p, system, strategy)
    return (f"namespace {ns}_as_mesh {{\n"
            f"inline {held}* held = nullptr;\n"
            f"inline redist::Status create_mesh(MPI_Comm world, redist::Mesh*) {{\n"
            f"  if (held == nullptr) held = new {held};\n"
            f"  return {ns}::{create}(world, held);\n}}\n"
            f"inline redist::Status run(const redist::Mesh&, const void* src, std::size_t src_bytes, void* dst,\n"
            f"                          std::size_t dst_bytes, [[maybe_unused]] void* ws,\n"
            f"                          [[maybe_unused]] std::size_t ws_bytes) {{\n"
            f"  return {ns}::run(*held, {args});\n}}\n"
            f"inline void release() {{\n  delete held;\n  held = nullptr;\n}}\n"
            f"}}  // namespace {ns}_as_mesh")


def _plan(p, system, strategy):
    """The driver's bench::Plan for a header."""
    ns = f"{p['name']}_{system}"
    held = _held(p, system, strategy)
    if held is None:
        return f"{{&{ns}::create_mesh, &{ns}::run, {ns}::kWorkspaceBytes}}"
    return f"{{&{ns}_as_mesh::create_mesh, &{ns}_as_mesh::run, {held[3]}, &{ns}_as_mesh::release}}"


def _geometry(p):
    """The namespace of the exchange's header with its meshes and layouts
    (a reducing exchange's keeps them in its own `_layouts`)."""
    return f"{p['name']}_exch_layouts" if P.pending(p) else f"{p['name']}_exch"


def _entry(p, plans, candidates):
    n = p["name"]
    g = _geometry(p)
    shape = ", ".join(str(v) for v in p["shape"])
    pending = ", ".join("true" if a in P.pending(p) else "false" for a, _ in p["mesh"])
    coll = _plan(p, "coll", "collectives") if "redist_coll" in plans[n] else "{}"
    easy = _plan(p, "easy", "collectives") if "gather_all" in plans[n] else "{}"
    extra = ", ".join(f"{{{c['index']}, {_plan(p, c['system'], c['strategy'])}}}"
                      for c in candidates[n] if c["system"].startswith("cand"))
    return (f"    {{\"{n}\", {len(p['shape'])}, {{{shape}}},\n"
            f"     {{&{g}::source_mesh, &{g}::source_layout, &{g}::target_mesh, &{g}::target_layout}},\n"
            f"     {{{pending}}}, {_plan(p, 'exch', 'exchange')},\n"
            f"     {coll}, {easy}, {fftw_direction(p)}, {{{extra}}},\n"
            f"     \"{auto_choice(candidates[n])}\", {'true' if p['suite'] == 'large' else 'false'}, redist::Op::{P.op(p)}}},")


def write_table(problems, plans, candidates, world, out):
    """problems.hpp for the driver: the problems on `world` ranks."""
    mine = [p for p in problems if P.world(p) == world]
    headers = lambda p: ([("exch", "exchange")] + [(k, "collectives") for k, s in (("coll", "redist_coll"),
                                                                                     ("easy", "gather_all"))
                                                    if s in plans[p["name"]]]
                         + [(c["system"], c["strategy"]) for c in candidates[p["name"]]
                            if c["system"].startswith("cand")])
    lines = ["// Written by bench/gen.py; do not edit.", "#pragma once"]
    lines += [f"#include \"{p['name']}_{k}.hpp\"" for p in mine for k, _ in headers(p)]
    lines += [f"namespace {p['name']}_{k} = redist_gen::{p['name']}_{k};" for p in mine for k, _ in headers(p)]
    lines += [f"namespace {_geometry(p)} = redist_gen::{_geometry(p)};" for p in mine if P.pending(p)]
    lines += [_as_mesh(p, k, strategy) for p in mine for k, strategy in headers(p) if _held(p, k, strategy)]
    lines += [f"inline constexpr int kWorld = {world};",
              f"inline constexpr std::size_t kValueModulus = {P.VALUE_MODULUS};",
              "inline const bench::Problem kProblems[] = {"]
    lines += [_entry(p, plans, candidates) for p in mine]
    lines += ["};", ""]
    d = os.path.join(out, f"n{world}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "problems.hpp"), "w") as f:
        f.write("\n".join(lines))
    return d


def runtime_flags(root, which):
    """Compiler or linker flags for the runtime that `make runtime` stages in
    _build/prefix, from its pkg-config file."""
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(root, "_build", "prefix", "lib", "pkgconfig"))
    r = subprocess.run(["pkg-config", which, "redist_mpi"], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"pkg-config redist_mpi failed (make runtime first): {r.stderr.strip()}")
    return r.stdout.split()


def build_driver(bench_dir, root, gen_dir, table_dir):
    """Compiles the driver unless one was built from the same sources, headers
    and flags (a minute of the 2 cores per world size, in every run)."""
    exe = os.path.join(table_dir, "driver")
    sources = ["driver.cpp", "alltoallv.cpp", "reduce_scatter.cpp", "scalapack.cpp", "fftw.cpp", "heap_counter.cpp",
               "bench_common.hpp"]
    cmd = ["mpicxx", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror",
           "-I", table_dir, "-I", gen_dir, "-I", bench_dir, *runtime_flags(root, "--cflags"),
           *[os.path.join(bench_dir, s) for s in sources if s.endswith(".cpp")],
           *runtime_flags(root, "--libs"), "-lscalapack-openmpi", "-lfftw3f_mpi", "-lfftw3f", "-o", exe]
    digest = hashlib.sha256(" ".join(cmd).encode())
    table = os.path.join(table_dir, "problems.hpp")
    headers = [line.split('"')[1] for line in open(table) if line.startswith("#include")]
    prefix = os.path.join(root, "_build", "prefix")
    runtime = [os.path.join(d, f) for sub in ("include", "lib") for d, _, fs in sorted(os.walk(os.path.join(prefix, sub)))
               for f in sorted(fs)]
    for path in ([table] + [os.path.join(gen_dir, h) for h in headers] + [os.path.join(bench_dir, s) for s in sources]
                 + runtime):
        with open(path, "rb") as f:
            digest.update(f.read())
    stamp = exe + ".sha256"
    if os.path.exists(exe) and os.path.exists(stamp) and open(stamp).read() == digest.hexdigest():
        return exe
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        log = os.path.join(table_dir, "build.log")
        with open(log, "w") as f:
            f.write(r.stderr)
        raise RuntimeError(f"building {exe} failed; the compiler's messages are in {log}")
    with open(stamp, "w") as f:
        f.write(digest.hexdigest())
    return exe
