"""Drawing helpers shared by tools/g500report's pictures: counts with their noun, plain-text labels
on log axes, and figures rendered to PNG bytes in memory (nothing is written until every picture is
drawn). tools/g500report sets matplotlib up (Agg, no math text) before importing this module.
"""
import io
import math

import matplotlib.ticker
import matplotlib.pyplot as plt

MARKERS = "os^vD<>px*h"  # one per series or run, in turn

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

