#!/usr/bin/env python3
"""Plots for `g500 coll` (paper 004 style).

  coll_plot.py harness CSV... --out DIR        throughput vs message size per algorithm (Figs. 1-7),
                                               one PNG per operation and process count
  coll_plot.py --segment-model CSV --out DIR   cost vs segment size with the optima (Fig. 8)
  coll_plot.py --simulation CSV --out DIR      simulated throughput per Table 1 shape (Figs. 1, 5, 6)
  coll_plot.py --segment-measured CSV --out DIR  measured bcast time vs segment size with the fitted
                                               model of Eq. 4 / Eq. 6 (tools/coll_segment_sweep.sh)
  coll_plot.py harness CSV... --table SIZES    markdown table of throughput at the given sizes (bytes, comma-separated)

Every CSV is read and its columns checked (tools/input_check.py) before anything is drawn: a cell
of the wrong type is one line naming the file, the line and the column, exit status 2, and no
picture written.
"""
import argparse
import collections
import io
import os
import sys

from plotting import load_matplotlib

matplotlib = load_matplotlib("coll_plot")
import matplotlib.pyplot as plt  # noqa: E402

from input_check import Count, InputError, Number, Text, Word, read_csv_rows  # noqa: E402
from output_file import OutputError, write_output  # noqa: E402

MARKERS = "os^vD<>px*h+"


# The columns each kind of CSV is read for. Names that become part of a file name (op, algo)
# are Words; np is a count.
HARNESS_COLUMNS = {"op": Word(), "algo": Text(), "ran": Text(), "shape": Text(), "segment": Count(), "np": Count(1),
                   "bytes": Count(), "throughput_Bps": Number(0)}
SEGMENT_MODEL_COLUMNS = {"algo": Word(), "shape": Text(), "bytes": Count(1), "segment": Number(0),
                         "t_model_s": Number(0), "optimum_derived": Number(0), "optimum_printed": Number(0),
                         "optimum_numeric": Number(0)}
SIMULATION_COLUMNS = {"size": Text(), "shape": Text(), "dims": Count(1), "op": Word(), "algo": Text(),
                      "bytes": Count(), "throughput_Bps": Number(0)}
SEGMENT_MEASURED_COLUMNS = {"algo": Text(), "shape": Text(), "bytes": Count(1), "segment": Count(1),
                            "t_median_s": Number(1e-30)}


def read_rows(paths, columns):
    rows = []
    for path in paths:
        for row in read_csv_rows(path, columns):
            if "np" in columns:
                row["np"] = str(row["np"])  # compared with shapes, which are text
            rows.append(row)
    return rows


def check_segment_measured(path, rows):
    """The algorithm and shape of each row in the forms the fit reads: ktreeK or bintree3d on AxBxC."""
    for row in rows:
        algo, shape = row["algo"], row["shape"]
        if not (algo == "bintree3d" or (algo.startswith("ktree") and algo[5:].isdigit() and int(algo[5:]) > 0)):
            raise InputError(f"{path}: algo '{algo[:40]}' is neither ktreeK nor bintree3d")
        dims = shape.split("x")
        if not 1 <= len(dims) <= 3 or not all(d.isdigit() and 0 < int(d) <= 1 << 24 for d in dims):
            raise InputError(f"{path}: shape '{shape[:40]}' is not A, AxB or AxBxC with sizes from 1 to 16777216")


def curve_label(row):
    label = row["algo"] if row["algo"].startswith("ompi:") is False else row["ran"]
    if row["shape"] not in ("-", ""):
        label += f" {row['shape']}"
    if row["segment"] > 0:
        label += f" seg {row['segment'] // 1024}K" if row["segment"] >= 1024 else f" seg {row['segment']}"
    return label


def draw_curves(ax, curves, title, op):
    for i, (label, points) in enumerate(sorted(curves.items())):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=MARKERS[i % len(MARKERS)],
                markersize=4, linewidth=1, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size M [bytes]")
    ylabel = {"bcast": "T = M / t", "allgatherv": "T = (NP-1) M / t"}.get(op, "T = (NP-NLP) NLP M / t")
    ax.set_ylabel(f"throughput {ylabel} [MB/s]")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)


def collect(rows, keep):
    curves = collections.defaultdict(list)
    for r in rows:
        if r["bytes"] > 0 and keep(r):
            curves[curve_label(r)].append((r["bytes"], r["throughput_Bps"] / 1e6))
    return curves


def keep(fig, path, rendered):
    """Draws the figure into `rendered` ({path: PNG bytes}); main writes them all at the end."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    rendered[path] = buffer.getvalue()


def save(fig, out, name, rendered):
    fig.tight_layout()
    keep(fig, os.path.join(out, name), rendered)


def plot_harness(rows, out, bcast_segment, rendered):
    """Alltoall(v)/allgatherv: one panel per op and process count. Bcast (like 004's Figs. 5-7):
    generic algorithms, then the shape-aware ones per shape at one segment size, then the
    segment-size comparison."""
    for op, np in sorted({(r["op"], r["np"]) for r in rows}):
        sub = [r for r in rows if r["op"] == op and r["np"] == np]
        if op != "bcast":
            fig, ax = plt.subplots(figsize=(8, 5.5))
            draw_curves(ax, collect(sub, lambda r: True), f"{op}, {np} ranks (measured on this 2-core machine)", op)
            save(fig, out, f"coll_{op}_np{np}.png", rendered)
            continue
        shapes = sorted({r["shape"] for r in sub if r["shape"] != "-"}, key=lambda t: (t.count("x"), t))
        panels = 1 + len(shapes)
        columns = 2
        grid_rows = (panels + columns - 1) // columns
        fig, grid = plt.subplots(grid_rows, columns, figsize=(7 * columns, 5 * grid_rows), squeeze=False)
        axes = grid.reshape(1, -1)
        for unused in axes[0, panels:]:
            unused.set_visible(False)
        draw_curves(axes[0, 0], collect(sub, lambda r: r["shape"] == "-" and int(r["segment"]) in (0, bcast_segment)),
                    f"bcast, {np} ranks: generic algorithms\n(segment {bcast_segment} B where used)", op)
        for ax, shape in zip(axes[0, 1:], shapes):
            draw_curves(ax, collect(sub, lambda r, s=shape: r["shape"] == s and int(r["segment"]) == bcast_segment),
                        f"bcast, {np} ranks: shape-aware algorithms\non {shape}, segment {bcast_segment} B", op)
        save(fig, out, f"coll_bcast_np{np}.png", rendered)
        fig, ax = plt.subplots(figsize=(8, 5.5))
        draw_curves(ax, collect(sub, lambda r: r["algo"] in ("ktree6", "pipeline", "bintree3d") and
                                r["shape"] in ("-", np)),
                    f"bcast, {np} ranks, 1D shape: segment size (like 004's Fig. 7)", op)
        save(fig, out, f"coll_bcast_segments_np{np}.png", rendered)


def print_table(rows, sizes):
    curves = collections.defaultdict(dict)
    for r in rows:
        if int(r["bytes"]) in sizes:
            curves[(r["op"], r["np"], curve_label(r), r["ran"])][int(r["bytes"])] = float(r["throughput_Bps"]) / 1e6
    print("| op | np | algorithm | ran | " + " | ".join(f"T at {human(m)} [MB/s]" for m in sizes) + " |")
    print("|---" * (4 + len(sizes)) + "|")
    for (op, np, label, ran), values in sorted(curves.items()):
        cells = " | ".join(f"{values[m]:.1f}" if m in values else "-" for m in sizes)
        print(f"| {op} | {np} | {label} | {ran} | {cells} |")


def human(m):
    return f"{m // 1048576} MiB" if m >= 1048576 else f"{m // 1024} KiB" if m >= 1024 else f"{m} B"


def plot_segment_model(rows, out, rendered):
    for algo in sorted({r["algo"] for r in rows}):
        fig, ax = plt.subplots(figsize=(8, 5.5))
        sizes = sorted({int(r["bytes"]) for r in rows if r["algo"] == algo})
        for i, m in enumerate(sizes):
            pts = sorted((float(r["segment"]), float(r["t_model_s"]) * 1e6) for r in rows
                         if r["algo"] == algo and int(r["bytes"]) == m)
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], linewidth=1.2, label=f"M = {m // 1024} KiB")
            first = next(r for r in rows if r["algo"] == algo and int(r["bytes"]) == m)
            ax.axvline(float(first["optimum_derived"]), color=line.get_color(), linestyle="--", linewidth=0.8)
            if first["optimum_printed"] != first["optimum_derived"]:
                ax.axvline(float(first["optimum_printed"]), color=line.get_color(), linestyle=":", linewidth=0.8)
            ax.plot([float(first["optimum_numeric"])], [min(p[1] for p in pts)], marker="o", color=line.get_color())
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("segment size mS [bytes]")
        ax.set_ylabel("model cost t [us]")
        eq = ("Eq. 4 (k = 6)\ndashed: optimum with NX+NY+NZ-3 (derived), dotted: -2 (Eq. 5 as printed)"
              if algo.startswith("ktree") else "Eq. 6\ndashed: optimum of Eq. 7")
        ax.set_title(f"{algo} on {rows[0]['shape']}: {eq}; dots: numeric minimum", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        keep(fig, os.path.join(out, f"coll_segment_model_{algo}.png"), rendered)


def plot_simulation(rows, out, rendered):
    for op in sorted({r["op"] for r in rows}):
        sizes = [s for s in ("small", "middle", "large") if any(r["size"] == s and r["op"] == op for r in rows)]
        algos = sorted({r["algo"] for r in rows if r["op"] == op})
        fig, axes = plt.subplots(len(sizes), 1, figsize=(9, 3.2 * len(sizes)), squeeze=False)
        for ax, size in zip(axes[:, 0], sizes):
            sub = [r for r in rows if r["op"] == op and r["size"] == size]
            shapes = sorted({(int(r["dims"]), r["shape"]) for r in sub})
            width = 0.8 / len(shapes)
            messages = sorted({int(r["bytes"]) for r in sub})
            for j, (dims, shape) in enumerate(shapes):
                xs, ys = [], []
                for a_index, algo in enumerate(algos):
                    for m_index, m in enumerate(messages):
                        match = [r for r in sub if r["algo"] == algo and r["shape"] == shape and int(r["bytes"]) == m]
                        if match:
                            xs.append(a_index * (len(messages) + 1) + m_index + j * width)
                            ys.append(float(match[0]["throughput_Bps"]) / 1e6)
                ax.bar(xs, ys, width=width, label=f"{dims}D {shape}")
            ticks = [a * (len(messages) + 1) + (len(messages) - 1) / 2 for a in range(len(algos))]
            ax.set_xticks(ticks)
            ax.set_xticklabels([f"{a}\n({', '.join(str(m // 1024) + 'K' for m in messages)})" for a in algos],
                               fontsize=7)
            ax.set_yscale("log")
            ax.set_ylabel("T [MB/s]")
            ax.set_title(f"{op}, {size}: simulated throughput on the torus model", fontsize=9)
            ax.legend(fontsize=7)
            ax.grid(True, axis="y", which="both", alpha=0.3)
        fig.tight_layout()
        keep(fig, os.path.join(out, f"coll_simulation_{op}.png"), rendered)


def floor_log2(n):
    return n.bit_length() - 1


def steps_of(algo, dims, message, segment):
    """Steps of Eq. 4 (ktreeK: NX+NY+NZ + M/(k mS) - 3) or Eq. 6 (bintree3d), per-step bytes mS."""
    if algo.startswith("ktree"):
        k = int(algo[5:])
        piece = min(segment, message / k)
        return sum(dims) + message / (k * piece) - 3, piece
    piece = min(segment, message)
    return sum(floor_log2(n) for n in dims) + message / piece - 1, piece


def fit_latency_bandwidth(points, what):
    """Least squares of relative errors for t = a L + b X (X = 1/B); points are (a, b, t)."""
    saa = sab = sbb = sat = sbt = 0.0
    for a, b, t in points:
        w = 1 / (t * t)
        saa += w * a * a
        sab += w * a * b
        sbb += w * b * b
        sat += w * a * t
        sbt += w * b * t
    det = saa * sbb - sab * sab
    if det == 0:
        raise InputError(f"{what}: the points do not determine L and B (every segment gives the same steps)")
    latency = (sat * sbb - sbt * sab) / det
    inverse_bandwidth = (saa * sbt - sab * sat) / det
    return latency, inverse_bandwidth


def plot_segment_measured(path, rows, out, rendered):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    report = []
    for i, (algo, shape, message) in enumerate(sorted({(r["algo"], r["shape"], int(r["bytes"])) for r in rows})):
        dims = [int(x) for x in shape.split("x")] + [1] * (3 - len(shape.split("x")))
        sub = sorted((int(r["segment"]), float(r["t_median_s"])) for r in rows
                     if (r["algo"], r["shape"], int(r["bytes"])) == (algo, shape, message))
        points = []
        for segment, t in sub:
            steps, piece = steps_of(algo, dims, message, segment)
            points.append((steps, steps * piece, t))
        latency, inverse_bandwidth = fit_latency_bandwidth(points, f"{path}: {algo} {shape} M={message}")
        color = f"C{i}"
        ax.plot([s for s, _ in sub], [t * 1e6 for _, t in sub], "o", color=color, label=f"{algo} {shape} measured")
        grid = [sub[0][0] * 2 ** (j / 8) for j in range(8 * 13) if sub[0][0] * 2 ** (j / 8) <= sub[-1][0]]
        model = []
        for segment in grid:
            steps, piece = steps_of(algo, dims, message, segment)
            model.append((steps * latency + steps * piece * inverse_bandwidth) * 1e6)
        ax.plot(grid, model, "-", color=color,
                label=f"model: L = {latency * 1e6:.2f} us, B = {1e-6 / inverse_bandwidth if inverse_bandwidth > 0 else float('inf'):.0f} MB/s")
        if latency > 0 and inverse_bandwidth > 0:
            bandwidth = 1 / inverse_bandwidth
            if algo.startswith("ktree"):
                k = int(algo[5:])
                optimum = (latency * bandwidth * message / (k * (sum(dims) - 3))) ** 0.5 if sum(dims) > 3 else message / k
            else:
                levels = sum(floor_log2(n) for n in dims) - 1
                optimum = (latency * bandwidth * message / levels) ** 0.5 if levels > 0 else message
            ax.axvline(optimum, color=color, linestyle="--", linewidth=0.8)
            best = min(sub, key=lambda p: p[1])[0]
            report.append(f"{algo} {shape} M={message}: L={latency * 1e6:.2f} us B={bandwidth / 1e6:.0f} MB/s "
                          f"optimum (Eq. 5 derived / Eq. 7) {optimum:.0f} B, best measured segment {best} B")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("segment size mS [bytes]")
    ax.set_ylabel("bcast time t [us] (median over reps, max over ranks)")
    ax.set_title("bcast cost vs segment size, measured on this 2-core machine, with fitted model\n"
                 "(dashed: optimal segment from the fitted L and B)", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    keep(fig, os.path.join(out, "coll_segment_measured.png"), rendered)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="*", help="harness CSV files (g500 coll --op ... --csv)")
    parser.add_argument("--segment-model", help="CSV of g500 coll --segment-model --csv")
    parser.add_argument("--simulation", help="CSV of g500 coll --simulate --csv")
    parser.add_argument("--segment-measured", help="CSV of tools/coll_segment_sweep.sh")
    parser.add_argument("--out", default=".", help="directory for the PNG files")
    parser.add_argument("--bcast-segment", type=int, default=16384,
                        help="segment size [bytes] of the bcast panels (default 16384)")
    parser.add_argument("--table", help="print a markdown table at these sizes instead of plotting")
    args = parser.parse_args()
    if args.table:
        sizes = args.table.split(",")
        if not all(size.isdigit() for size in sizes):
            parser.error(f"--table takes byte counts separated by commas (got '{args.table}')")
        print_table(read_rows(args.csv, HARNESS_COLUMNS), [int(size) for size in sizes])
        return
    if not (args.csv or args.segment_model or args.simulation or args.segment_measured):
        parser.error("give harness CSV files, --segment-model, --simulation or --segment-measured")
    # Every file is read and checked, and every picture drawn, before anything is rendered.
    harness = read_rows(args.csv, HARNESS_COLUMNS) if args.csv else []
    segment_model = read_rows([args.segment_model], SEGMENT_MODEL_COLUMNS) if args.segment_model else []
    simulation = read_rows([args.simulation], SIMULATION_COLUMNS) if args.simulation else []
    measured = read_rows([args.segment_measured], SEGMENT_MEASURED_COLUMNS) if args.segment_measured else []
    if args.segment_measured:
        check_segment_measured(args.segment_measured, measured)
    rendered, report = {}, []
    if harness:
        plot_harness(harness, args.out, args.bcast_segment, rendered)
    if segment_model:
        plot_segment_model(segment_model, args.out, rendered)
    if simulation:
        plot_simulation(simulation, args.out, rendered)
    if measured:
        report = plot_segment_measured(args.segment_measured, measured, args.out, rendered)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot make the directory '{args.out}': {e.strerror}") from None
    for path, data in rendered.items():
        write_output(path, data)
    for line in report:
        print(line)
    for path in rendered:
        print(path)


if __name__ == "__main__":
    try:
        main()
    except InputError as e:
        print(f"coll_plot: error: {e}", file=sys.stderr)
        sys.exit(2)
    except OutputError as e:
        raise SystemExit(f"coll_plot: error: {e}")
