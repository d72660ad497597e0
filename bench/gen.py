"""Plans every problem with `redist plan --json`, checks the gather-everything
plan with `redist check --json`, generates both as C++ with `redist gen`, and
builds one MPI driver per device count."""

import json
import math
import os
import subprocess

import problems as P


def easy_plan(p):
    """The paper's baseline: all_gather every sharded dimension, then
    dyn_slice down to the target, major axis first."""
    lines = []
    for d, axes in enumerate(p["src"]):
        lines += [f"all_gather({d})"] * len(axes)
    for d, axes in enumerate(p["tgt"]):
        lines += [f"dyn_slice({d}, {a})" for a in axes]
    return "\n".join(lines) + "\n"


def _redist(redist, args, stdin=None):
    r = subprocess.run([redist] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"redist {args[0]} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def problem_args(p):
    # redist's collective plans (the paper's method); the exchange is a
    # strategy of its own.
    return ["--strategy", "collectives", "--mesh", P.mesh_text(p["mesh"]),
            "--from", P.type_text(p["mesh"], p["shape"], p["src"]),
            "--to", P.type_text(p["mesh"], p["shape"], p["tgt"]), "--dtype", "f32"]


def plan_all(redist, problems, out):
    """Returns {name: {"redist": plan json, "gather_all": plan json}}."""
    plans = {}
    os.makedirs(out, exist_ok=True)
    for p in problems:
        assert math.prod(p["shape"]) < (1 << 24), "values must stay exact in f32"
        args = problem_args(p)
        mine = json.loads(_redist(redist, ["plan", "--json"] + args))
        easy_text = easy_plan(p)
        easy_file = os.path.join(out, f"{p['name']}_easy.plan")
        with open(easy_file, "w") as f:
            f.write(easy_text)
        easy = json.loads(_redist(redist, ["check", "--json", "--plan", easy_file] + args))
        plans[p["name"]] = {"redist": mine, "gather_all": easy}
        _redist(redist, ["gen", "--name", f"{p['name']}_redist", "-o",
                         os.path.join(out, f"{p['name']}_redist.hpp")] + args)
        _redist(redist, ["gen", "--name", f"{p['name']}_easy", "--plan", easy_file, "-o",
                         os.path.join(out, f"{p['name']}_easy.hpp")] + args)
    return plans


def _entry(p):
    r, e = f"{p['name']}_redist", f"{p['name']}_easy"
    shape = ", ".join(str(n) for n in p["shape"])
    return (f"    {{\"{p['name']}\", {len(p['shape'])}, {{{shape}}}, &{r}::src_box, &{r}::tgt_box, "
            f"{r}::kSrcElems, {r}::kTgtElems,\n"
            f"     {{&{r}::create_mesh, &{r}::run, {r}::kWorkspaceBytes}},\n"
            f"     {{&{e}::create_mesh, &{e}::run, {e}::kWorkspaceBytes}}}},")


def write_table(problems, devices, out):
    """problems.hpp for the driver: the problems with `devices` devices."""
    mine = [p for p in problems if P.devices(p["mesh"]) == devices]
    lines = ["// Written by bench/gen.py; do not edit.", "#pragma once"]
    lines += [f"#include \"{p['name']}_{k}.hpp\"" for p in mine for k in ("redist", "easy")]
    lines += [f"namespace {p['name']}_{k} = redist_gen::{p['name']}_{k};" for p in mine for k in ("redist", "easy")]
    lines += [f"inline constexpr int kDevices = {devices};",
              "inline const bench::Problem kProblems[] = {"]
    lines += [_entry(p) for p in mine]
    lines += ["};", ""]
    d = os.path.join(out, f"n{devices}")
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
    exe = os.path.join(table_dir, "driver")
    cmd = ["mpicxx", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror",
           "-I", table_dir, "-I", gen_dir, "-I", bench_dir, *runtime_flags(root, "--cflags"),
           os.path.join(bench_dir, "driver.cpp"), os.path.join(bench_dir, "alltoallv.cpp"),
           os.path.join(bench_dir, "scalapack.cpp"), os.path.join(bench_dir, "heap_counter.cpp"),
           *runtime_flags(root, "--libs"), "-lscalapack-openmpi", "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        log = os.path.join(table_dir, "build.log")
        with open(log, "w") as f:
            f.write(r.stderr)
        raise RuntimeError(f"building {exe} failed; the compiler's messages are in {log}")
    return exe
