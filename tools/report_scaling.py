"""Scaling series in tools/g500report: which runs form a weak or a strong series, the lines that
say so (and name every run left out, and why), and scaling.png (Nakao et al. 2021, Figs. 7, 13).

A series is runs of one kernel, edge factor, thread count, root count, seeds and build on one
machine at two rank counts or more: with the same SCALE (strong) or the same SCALE per rank (weak).
Runs with techniques switched off (--disable) or a direction forced (--alpha/--beta) measure
something else and are left out; the Series text names them, as it names the runs in no series.
"""
import math
import statistics

import matplotlib.lines
import matplotlib.ticker
import matplotlib.pyplot as plt

from report_figure import MARKERS, plain_log_ticks, save

MOST_LABELLED_SERIES = 4  # more series: the efficiencies without their numbers (they would overlap)
EFFICIENCY_HEADROOM = 1.1  # the efficiency axis reaches 10 % above the highest point (room for its number)
# Below it a point says more about the machine than about the code (4 ranks taking turns on 2 cores
# alone would explain 0.5): it stays drawn, with a flag.
LOWEST_PLAUSIBLE_EFFICIENCY = 0.05
LOW_EFFICIENCY = "efficiency below 5 %: a loaded or misconfigured machine?"


def scaling_groups(runs):
    """Weak series: same SCALE - log2(ranks); strong: same SCALE; each of one kernel, edge factor,
    threads, root count, seeds and build, at two rank counts or more. Ablation runs are left out."""
    groups = {"weak": {}, "strong": {}}
    for run in runs:
        if run.disabled or run.switching:
            continue
        # Runs of another root count, seed or build are other experiments, not points of one series.
        base = (run.kernel, run.edgefactor, run.threads, len(run.roots), run.seeds, run.build)
        per_rank = run.scale - math.log2(run.ranks)
        groups["strong"].setdefault(base + (run.scale,), []).append(run)
        if float(per_rank).is_integer():
            groups["weak"].setdefault(base + (int(per_rank),), []).append(run)
    series = {}
    for kind, by_key in groups.items():
        for key, members in sorted(by_key.items(), key=lambda item: str(item[0])):
            members = on_the_same_machine(members)
            by_ranks = {}
            for run in members:
                by_ranks.setdefault(run.ranks, []).append(run.harmonic_mean_teps)
            if len(by_ranks) < 2:
                continue
            ranks = sorted(by_ranks)
            teps = [statistics.median(by_ranks[p]) for p in ranks]
            base_per_rank = teps[0] / ranks[0]
            efficiency = [(t / p) / base_per_rank if base_per_rank > 0 else 0.0 for p, t in zip(ranks, teps)]
            kernel, _, threads, _, _, _, size = key
            name = (f"{kernel} weak SCALE {size}/rank" if kind == "weak" else f"{kernel} strong SCALE {size}")
            oversubscribed = sorted({r.ranks for r in members if r.oversubscribed})
            series[name] = {"kind": kind, "kernel": kernel, "threads": threads, "scale_key": size,
                            "ranks": ranks, "teps": teps, "efficiency": efficiency,
                            "runs_per_point": [len(by_ranks[p]) for p in ranks],
                            "oversubscribed_ranks": oversubscribed,
                            "members": [r.path for r in members]}
    return series


def on_the_same_machine(members):
    """The runs that share a host with the run of fewest ranks (rank 0's host of a cluster study
    stays; runs of another machine are another experiment). Runs whose files name no hosts stay."""
    members = sorted(members, key=lambda r: r.ranks)
    first = set(members[0].provenance.get("hosts", []))
    return [r for r in members if not first or not r.provenance.get("hosts")
            or first & set(r.provenance["hosts"])]


def describe_series(series, runs):
    """Lines saying which runs form which series, and which runs form none (and why it matters:
    a curve drawn through unrelated runs would mislead)."""
    lines = []
    for name, s in series.items():
        what = ("weak scaling: SCALE grows with log2(ranks), the same SCALE per rank" if s["kind"] == "weak"
                else "strong scaling: the same SCALE on more ranks")
        text = f"{name}: {what}; ranks {', '.join(map(str, s['ranks']))}"
        if s["oversubscribed_ranks"]:
            text += (f"; oversubscribed (more ranks x threads than cores) at "
                     f"{plural_ranks(s['oversubscribed_ranks'])}: those points measure time-sharing")
        lines.append(text)
    in_series = {path for s in series.values() for path in s["members"]}
    alone = [r for r in runs if r.path not in in_series and not r.disabled and not r.switching]
    if alone and len(runs) > 1:
        lines.append("in no series (no other run of the same kernel, edge factor, threads, roots, seeds and build "
                     "at another rank count with the same SCALE or SCALE per rank): "
                     + "; ".join(f"{r.label} ({r.origin})" for r in alone))
    variants = [r for r in runs if r.disabled or r.switching]
    if variants and len(runs) > 1:
        lines.append("left out of the series (techniques switched off with --disable, or a direction forced with "
                     "--alpha/--beta: see the ablation and direction pictures): "
                     + "; ".join(f"{r.label} ({r.origin})" for r in variants))
    return lines


def run_efficiencies(series, run):
    """The run's parallel efficiency in each series it is a point of: [("strong", 0.0028), ("weak", 0.00096)]
    (a run is in one strong series at most, and one weak)."""
    return [(s["kind"], s["efficiency"][s["ranks"].index(run.ranks)]) for s in series.values()
            if run.path in s["members"]]


def implausibly_low(series, run):
    return any(e < LOWEST_PLAUSIBLE_EFFICIENCY for _, e in run_efficiencies(series, run))


def efficiencies_text(series, run):
    """'strong 0.0028, weak 0.00096', or 'n/a' for a run in no series."""
    return ", ".join(f"{kind} {efficiency_text(e)}" for kind, e in run_efficiencies(series, run)) or "n/a"


def low_efficiency_text(series, runs):
    """The sentence under the scaling picture naming the implausibly slow runs, or ''."""
    slow = [r for r in runs if implausibly_low(series, r)]
    if not slow:
        return ""
    return ("parallel efficiency below 5 % at " + "; ".join(f"{r.label} ({efficiencies_text(series, r)})" for r in slow)
            + ": a loaded or misconfigured machine? Their points are drawn all the same")


def efficiency_text(value):
    """0.873 -> '0.87', 0.0031 -> '0.0031': two decimals, two significant digits below 0.1 (a
    time-shared point's 0.003 would read 0.00)."""
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def plural_ranks(counts):
    """[4] -> '4 ranks', [1] -> '1 rank', [4, 8] -> '4 and 8 ranks', [2, 4, 8] -> '2, 4 and 8 ranks'."""
    words = [str(c) for c in counts]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"{listed} rank{'' if counts == [1] else 's'}"


def plot_scaling(series, rendered):
    fig, counts = draw_scaling(series)
    path = save(fig, rendered, "scaling.png")
    return path, dict(series=series, **counts)


def draw_scaling(series):
    """The figure (not yet saved) and the counts of what it draws."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    points_drawn = {}
    numbers_drawn = crosses_drawn = 0
    numbers = []
    for i, (name, s) in enumerate(series.items()):
        style = "-" if s["kind"] == "weak" else "--"
        marker = MARKERS[i % len(MARKERS)]
        label = name  # says weak or strong
        line, = axes[0].plot(s["ranks"], s["teps"], style, marker=marker, label=label, color=f"C{i % 10}")
        axes[1].plot(s["ranks"], s["efficiency"], style, marker=marker, label=label, color=f"C{i % 10}")
        points_drawn[name] = len(line.get_xdata())
        if len(series) <= MOST_LABELLED_SERIES:  # the efficiency as a number: 0.03 reads at once
            for p, e in zip(s["ranks"], s["efficiency"]):
                numbers.append(axes[1].annotate(efficiency_text(e), (p, e), fontsize=7.5, color=f"C{i % 10}",
                                                xytext=(5, 4 + 9 * i), textcoords="offset points"))
                numbers_drawn += 1
        # Oversubscribed points: a black cross over the marker (the ranks took turns on the cores).
        crossed = [k for k, p in enumerate(s["ranks"]) if p in s["oversubscribed_ranks"]]
        for ax, values in ((axes[0], s["teps"]), (axes[1], s["efficiency"])):
            ax.plot([s["ranks"][k] for k in crossed], [values[k] for k in crossed], "x", color="black",
                    markersize=11, markeredgewidth=1.8)
        crosses_drawn += 2 * len(crossed)
    handles, names = axes[1].get_legend_handles_labels()
    if any(s["oversubscribed_ranks"] for s in series.values()):
        handles.append(matplotlib.lines.Line2D([], [], marker="x", color="black", linestyle="none", markersize=9,
                                               markeredgewidth=1.8))
        names.append("oversubscribed point (more ranks x threads than cores: the ranks took turns)")
    all_ranks = sorted({p for s in series.values() for p in s["ranks"]})
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_ranks)
        ax.set_xticklabels([str(p) for p in all_ranks])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("MPI ranks")
        ax.grid(alpha=0.3)
        ax.margins(x=0.1)  # room for the last point's number
    axes[0].set_yscale("log")
    plain_log_ticks(axes[0].yaxis)
    axes[0].set_ylabel("harmonic-mean TEPS")
    axes[0].set_title("(a) performance (solid: weak, dashed: strong)")
    axes[1].set_ylabel("parallel efficiency (TEPS per rank / first point's)")
    axes[1].axhline(1.0, color="black", linewidth=0.8)
    axes[1].set_ylim(0, EFFICIENCY_HEADROOM * max(1.0, *(e for s in series.values() for e in s["efficiency"])))
    axes[1].set_title("(b) parallel efficiency")
    fig.suptitle("Scaling (cf. Nakao et al. 2021, Figs. 7 and 13)")
    fig.tight_layout()
    keep_inside(axes[1], numbers)
    # Below the panels, where it hides no point.
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=8, frameon=False)
    return fig, {"points_drawn": points_drawn, "efficiency_numbers_drawn": numbers_drawn,
                 "oversubscribed_crosses_drawn": crosses_drawn}


def keep_inside(ax, notes):
    """Numbers that would cross the panel's right or top edge go to the left of or below their
    point: the largest rank count sits at the right edge, and a number beside it ran past the frame.
    Call it once the layout is final (positions are measured in the drawn figure)."""
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    for note in notes:
        box = note.get_window_extent(renderer)
        dx, dy = note.xyann
        if box.x1 > frame.x1:
            note.set_horizontalalignment("right")
            dx = -abs(dx)
        if box.y1 > frame.y1:
            note.set_verticalalignment("top")
            dy = -abs(dy)
        note.xyann = (dx, dy)

