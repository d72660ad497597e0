"""Reads XLA's compiled HLO text: which collectives run, how many elements
each device receives through them, and whether any data goes through the
host.  Used by xla_bench.py; tested by test_hlo_traffic.py."""

import re

import numpy as np

COLLECTIVES = ("all-gather", "all-to-all", "collective-permute", "all-reduce", "reduce-scatter",
               "collective-broadcast", "ragged-all-to-all")
HOST_OPS = ("send", "recv", "send-done", "recv-done", "infeed", "outfeed", "copy-start", "copy-done")

_shape_re = re.compile(r"\b(?:pred|[sufc]\d+|bf16|f8\w*)\[([0-9,]*)\]")
_instr_re = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(.*?)\s+([a-z][a-z0-9\-]*)\(")


def result_elems(result_type):
    """Elements of an instruction's result: the sum over a tuple's arrays."""
    total = 0
    for dims in _shape_re.findall(result_type):
        n = 1
        for d in filter(None, dims.split(",")):
            n *= int(d)
        total += n
    return total


def _iota(dims, perm):
    ids = np.arange(int(np.prod(dims))).reshape(dims)
    return ids.transpose(perm) if perm else ids


def _ints(text):
    return [int(v) for v in text.split(",") if v.strip()]


def replica_groups(line):
    """The groups of a collective as lists of device ids; None = all devices.
    XLA prints three forms: explicit {{0,1},{2,3}}, iota [G,S]<=[dims]T(perm),
    and mesh['a'=2,'b'=4], device_ids=([dims]T(perm)) {'b'} (groups along
    the named mesh axes or sub-axes)."""
    m = re.search(r"replica_groups=mesh\[([^\]]*)\]"
                  r"(?:,\s*device_ids=\(\[([0-9,]+)\](?:T\(([0-9,]+)\))?\))?\s*\{([^}]*)\}", line)
    if m:
        axes = [(a, int(v)) for a, v in re.findall(r"'([^']+)'=(\d+)", m.group(1))]
        sizes = [v for _, v in axes]
        ids = (_iota(_ints(m.group(2)), _ints(m.group(3) or "")) if m.group(2)
               else np.arange(int(np.prod(sizes)))).reshape(sizes)
        # a group axis is 'name' (the whole axis) or 'name':(pre)size, the
        # sub-axis of that size after the first `pre` of the axis' range
        parts, along = [], []
        spec = dict((a, (int(p), int(z)) if z else None)
                    for a, p, z in re.findall(r"'([^']+)'(?::\((\d+)\)(\d+))?", m.group(4)))
        for a, size in axes:
            sub = spec.get(a)
            if a in spec and sub is None:
                along.append(len(parts))
                parts.append(size)
            elif sub is not None:
                pre, z = sub
                parts += [pre, z, size // (pre * z)]
                along.append(len(parts) - 2)
            else:
                parts.append(size)
        ids = ids.reshape(parts)
        rest = [i for i in range(len(parts)) if i not in along]
        g = int(np.prod([parts[i] for i in along])) if along else 1
        return ids.transpose(rest + along).reshape(-1, g).tolist()
    m = re.search(r"replica_groups=\[([0-9,]+)\]<=\[([0-9,]+)\](?:T\(([0-9,]+)\))?", line)
    if m:
        g, size = _ints(m.group(1))
        return _iota(_ints(m.group(2)), _ints(m.group(3) or "")).reshape(g, size).tolist()
    m = re.search(r"replica_groups=\{((?:\{[0-9,]*\},?)*)\}", line)
    if m:
        groups = [_ints(grp) for grp in re.findall(r"\{([0-9,]*)\}", m.group(1))]
        return groups or None
    if "replica_groups=" in line:
        raise ValueError(f"unknown replica_groups format in: {line.strip()[:200]}")
    return None


def traffic(hlo, n):
    """Per device: elements received, from every collective's result shape
    and groups.  Returns (per-device list, ops found, largest result)."""
    recv = [0] * n
    ops = []
    largest = 0
    for line in hlo.splitlines():
        m = _instr_re.match(line)
        if not m:
            continue
        rtype, op = m.group(1), m.group(2)
        base = op[:-6] if op.endswith("-start") else op
        if op.endswith("-done") or base not in COLLECTIVES:
            continue
        elems = result_elems(rtype)
        if op.endswith("-start") and rtype.startswith("("):
            # async start returns (operand, result, ...): the result is the second array
            arrays = [result_elems(f"f32[{d}]") for d in _shape_re.findall(rtype)]
            elems = arrays[1] if len(arrays) > 1 else arrays[0]
        largest = max(largest, elems)
        ops.append(base)
        if base == "collective-permute":
            pairs = re.search(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}", line)
            for s, t in re.findall(r"\{(\d+),(\d+)\}", pairs.group(1) if pairs else ""):
                if s != t:
                    recv[int(t)] += elems
            continue
        groups = replica_groups(line) or [list(range(n))]
        for grp in groups:
            g = len(grp)
            if base in ("all-gather", "all-to-all", "ragged-all-to-all"):
                per = elems * (g - 1) // g
            elif base == "reduce-scatter":
                per = elems * (g - 1)
            elif base == "all-reduce":
                per = 2 * elems * (g - 1) // g  # ring: reduce-scatter + all-gather
            else:  # collective-broadcast
                per = elems
            for dev in grp:
                recv[dev] += per
    return recv, ops, largest


def host_transfers(hlo):
    found = []
    for line in hlo.splitlines():
        m = _instr_re.match(line)
        if m and (m.group(2) in HOST_OPS or "custom_call_target=\"Host" in line):
            found.append(m.group(2))
    return found
