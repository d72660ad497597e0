"""A plan's picture: who holds which box in the source and target layouts
(the first two dimensions; a 1-D array as one row), and the plan's steps
with its figures."""
import io


def _holders(boxes):
    """Box -> the ranks holding it, for the ranks that hold something."""
    held = {}
    for rank, (offset, extent) in enumerate(boxes):
        if all(extent):
            held.setdefault((offset, extent), []).append(rank)
    return held


def _draw_layout(ax, title, boxes, shape):
    import matplotlib.pyplot as plt
    rows, cols = (shape[0], shape[1]) if len(shape) > 1 else (1, shape[0])
    colours = plt.get_cmap("tab20")
    for k, ((offset, extent), ranks) in enumerate(sorted(_holders(boxes).items())):
        r0, c0 = (offset[0], offset[1]) if len(shape) > 1 else (0, offset[0])
        nr, nc = (extent[0], extent[1]) if len(shape) > 1 else (1, extent[0])
        ax.add_patch(plt.Rectangle((c0, r0), nc, nr, facecolor=colours(k % 20), edgecolor="black", alpha=0.6))
        label = ",".join(map(str, ranks)) if len(ranks) <= 4 else "%d..%d (%d)" % (ranks[0], ranks[-1], len(ranks))
        ax.text(c0 + nc / 2, r0 + nr / 2, label, ha="center", va="center", fontsize=7)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("dim 1" if len(shape) > 1 else "dim 0", fontsize=8)
    if len(shape) > 1:
        ax.set_ylabel("dim 0", fontsize=8)
    ax.tick_params(labelsize=7)


def render(plan, format):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    report = plan.report
    src = [plan.src_box(r) for r in range(plan.devices)]
    tgt = [plan.tgt_box(r) for r in range(plan.devices)]
    shape = _global_shape(src)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), gridspec_kw={"width_ratios": [1, 1, 1.3]})
    _draw_layout(axes[0], "source %s (ranks per box)" % report["source"], src, shape)
    _draw_layout(axes[1], "target %s" % report["target"], tgt, shape)
    lines = report["refine"] + [s["text"] for s in report["steps"]] or ["(nothing to move)"]
    lines += ["", "peak %d B, live %d B" % (plan.peak_bytes, plan.live_bytes),
              "busiest rank receives %d B (lower bound %d B)" % (plan.recv_max_bytes, plan.lower_bound_recv_bytes),
              "proven: " + ", ".join(name for name, _ in plan.guarantees[:4]) + ", ..."]
    axes[2].axis("off")
    axes[2].text(0, 1, "\n".join(lines), va="top", family="monospace", fontsize=8, transform=axes[2].transAxes)
    fig.tight_layout()
    out = io.StringIO() if format == "svg" else io.BytesIO()
    fig.savefig(out, format=format)
    plt.close(fig)
    return out.getvalue()


def _global_shape(boxes):
    """The source boxes cover the array: its shape is their far corner."""
    held = [b for b in boxes if all(b[1])]
    return tuple(max(o[d] + e[d] for o, e in held) for d in range(len(held[0][0])))
