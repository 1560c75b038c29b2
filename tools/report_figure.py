"""Drawing helpers shared by tools/g500report's pictures and page: counts with their noun, short
run labels, plain-text labels on log axes, and figures rendered to PNG bytes in memory (nothing is written until every picture is
drawn). tools/g500report sets matplotlib up (Agg, no math text) before importing this module.
"""
import io
import math
import os

import matplotlib.ticker
import matplotlib.pyplot as plt

MARKERS = "os^vD<>px*h"  # one per series or run, in turn
MOST_RUNS_AS_POINTS = 4  # more runs: TEPS per root drawn as one box per run
WIDEST_LINEAR_RANGE = 20  # runs' times per search differing more (longest / shortest): phases on a log axis

def plural(count, noun):
    """3, "run" -> "3 runs"; 1, "run" -> "1 run"."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def compact_number(value):
    """A tick label in plain text: 2G, 150M, 10k, 3 (matplotlib's log ticks are math text, which
    this tool turns off so that a '$' from a file stays a dollar sign)."""
    for unit, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:g}{unit}"
    return f"{value:g}"


def plain_log_ticks(axis):
    """Plain-text labels on a log axis; the ticks between the powers of ten are labelled too when
    the axis spans less than two decades (else it could show one label or none)."""
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: compact_number(v)))
    low, high = axis.get_view_interval()
    few_decades = low > 0 and high / low < 100
    def minor(value, _):  # 2 and 5 times a power of ten only, so that labels do not overlap
        mantissa = value / 10 ** math.floor(math.log10(value)) if value > 0 else 0
        return compact_number(value) if round(mantissa) in (2, 5) else ""
    axis.set_minor_formatter(matplotlib.ticker.FuncFormatter(minor) if few_decades
                             else matplotlib.ticker.NullFormatter())


def save(fig, rendered, name):
    """Draws the figure into `rendered` (file name -> PNG bytes); nothing is written yet."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    rendered[name] = buffer.getvalue()
    return name


def short_label(run, runs):
    """The label without the parts every run shares, so bar labels stay short; runs of one label
    (the same configuration made twice) add their file name, so every bar names one run."""
    def shortened(r):
        parts = r.label.split(" ")
        common = set(parts)
        for other in runs:
            common &= set(other.label.split(" "))
        kept = [p for p in parts if p not in common]
        return " ".join(kept) if kept else r.label
    mine = shortened(run)
    twins = [r for r in runs if shortened(r) == mine]
    if len(twins) > 1:
        mine += f" ({os.path.splitext(os.path.basename(run.path))[0]})"
        if sum(1 for r in twins if os.path.basename(r.path) == os.path.basename(run.path)) > 1:
            mine += f" #{twins.index(run) + 1}"
    return mine
