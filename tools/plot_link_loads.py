#!/usr/bin/env python3
"""Picture of link loads for the three layouts of `g500 map --simulate`.

Reads the per-link CSV written by `g500 map ... --simulate PATTERNS --link-csv FILE`
(columns layout,pattern,node,axis,direction,<one column per network axis>,bytes) and draws one
heat map per (pattern, layout): every node is a cell, the network axes unfolded in two dimensions
(the first axes across, the remaining axes down, as in Fig. 11 of Nakao et al. 2021), coloured by
the load of the most loaded link leaving the node. Panels of one pattern share a colour scale, so the layouts can
be compared at a glance; the panel title gives max and mean link load.

Example:
  g500 map --shape 8t,6t,2m,3t --simulate bfs --link-csv loads.csv
  tools/plot_link_loads.py loads.csv -o loads.png

A cell of the wrong type (a coordinate that is not a whole number, a load that is NaN or
negative) or a network of more nodes than g500 map describes (2^24) is one line naming the file,
the line and the column, exit status 2, and no picture.
"""
import argparse
import csv
import math
import sys
from collections import defaultdict

from plotting import load_matplotlib

matplotlib = load_matplotlib("plot_link_loads")
import matplotlib.pyplot as plt  # noqa: E402

from input_check import Count, InputError, Number  # noqa: E402
from output_file import OutputError, save_figure  # noqa: E402

BYTES_PER_MB = 1e6
LAYOUT_ORDER = ["plain", "scheduler-2d", "6d-mapping"]
PANEL_INCHES = 3.6
MAX_NODES = 1 << 24  # the largest network g500 map describes (topo::kMaxNodes)
COORDINATE = Count(0, MAX_NODES - 1)
LINK_BYTES = Number(0)


def read_loads(path):
    """Returns (axis names, {(pattern, layout): {coord tuple: [link bytes ...]}}, sizes)."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if not header or header[:5] != ["layout", "pattern", "node", "axis", "direction"] or header[-1] != "bytes":
            raise ValueError(f"{path}: not a g500 map --link-csv file (header {header})")
        axes = header[5:-1]
        loads = defaultdict(lambda: defaultdict(list))
        sizes = [1] * len(axes)
        for lineno, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path}:{lineno}: expected {len(header)} fields")
            coord = tuple(cell_value(path, lineno, name, text, COORDINATE) for name, text in zip(axes, row[5:-1]))
            sizes = [max(s, c + 1) for s, c in zip(sizes, coord)]
            if math.prod(sizes) > MAX_NODES:
                raise ValueError(f"{path}:{lineno}: the coordinates make a network of more than {MAX_NODES} nodes")
            loads[(row[1], row[0])][coord].append(cell_value(path, lineno, "bytes", row[-1], LINK_BYTES))
    return axes, loads, sizes


def cell_value(path, lineno, column, text, schema):
    """The cell as a number, or ValueError naming the file, line, column and the problem."""
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            value = text
    problem = schema.check(value, f"{column} '{text[:40]}'")
    if problem:
        raise ValueError(f"{path}:{lineno}: {problem}")
    return value


def split_axes(sizes):
    """Number of leading axes drawn across: the product closest to the square root of the nodes."""
    total = math.prod(sizes)
    best, best_gap, across = 1, float("inf"), 1
    for k in range(1, len(sizes) + 1):
        across *= sizes[k - 1]
        gap = abs(math.log(across) - 0.5 * math.log(total))
        if gap < best_gap:
            best, best_gap = k, gap
    return best


def unfold(coord, sizes, k):
    x, stride = 0, 1
    for c, s in zip(coord[:k], sizes[:k]):
        x += c * stride
        stride *= s
    y, stride = 0, 1
    for c, s in zip(coord[k:], sizes[k:]):
        y += c * stride
        stride *= s
    return x, y


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="per-link loads from g500 map --link-csv")
    ap.add_argument("-o", "--output", default="link_loads.png", help="PNG to write")
    ap.add_argument("--patterns", help="comma list of patterns to draw (default: all in the file)")
    args = ap.parse_args()
    try:
        axes, loads, sizes = read_loads(args.csv)
    except (OSError, ValueError, csv.Error, UnicodeDecodeError, InputError) as e:
        print(f"plot_link_loads: error: {e}", file=sys.stderr)
        return 2
    patterns = sorted({p for p, _ in loads}, key=lambda p: p)
    if args.patterns:
        wanted = args.patterns.split(",")
        missing = [p for p in wanted if p not in patterns]
        if missing:
            print(f"plot_link_loads: error: patterns not in the file: {', '.join(missing)}", file=sys.stderr)
            return 2
        patterns = wanted
    layouts = [l for l in LAYOUT_ORDER if any((p, l) in loads for p in patterns)]
    layouts += sorted({l for _, l in loads} - set(layouts))
    k = split_axes(sizes)
    width = math.prod(sizes[:k])
    height = math.prod(sizes[k:])
    fig, grid = plt.subplots(len(patterns), len(layouts), squeeze=False, constrained_layout=True,
                             figsize=(PANEL_INCHES * len(layouts) + 1.5, PANEL_INCHES * len(patterns) + 0.5))
    for i, pattern in enumerate(patterns):
        vmax = max((max(v) for l in layouts for v in loads[(pattern, l)].values()), default=0) / BYTES_PER_MB
        for j, layout in enumerate(layouts):
            ax = grid[i][j]
            image = [[0.0] * width for _ in range(height)]
            per_node = loads.get((pattern, layout), {})
            all_links = [b for v in per_node.values() for b in v]
            for coord, values in per_node.items():
                x, y = unfold(coord, sizes, k)
                image[y][x] = max(values) / BYTES_PER_MB
            im = ax.imshow(image, cmap="inferno", vmin=0, vmax=vmax or 1, aspect="auto", interpolation="nearest")
            peak = max(all_links, default=0) / BYTES_PER_MB
            mean = (sum(all_links) / len(all_links) / BYTES_PER_MB) if all_links else 0
            ax.set_title(f"{layout} / {pattern}\nmax {peak:.3g} MB, mean {mean:.3g} MB", fontsize=9)
            ax.set_xlabel("".join(axes[:k]) + " (unfolded)", fontsize=8)
            ax.set_ylabel("".join(axes[k:]) + " (unfolded)", fontsize=8)
            ax.tick_params(labelsize=7)
        fig.colorbar(im, ax=list(grid[i]), label="max link load\nleaving node [MB]")
    shape = " x ".join(f"{a}={s}" for a, s in zip(axes, sizes))
    fig.suptitle(f"Link loads, dimension-order routing, shape {shape}", fontsize=11)
    save_figure(fig, args.output, dpi=110)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except OutputError as e:
        sys.exit(f"plot_link_loads: error: {e}")
