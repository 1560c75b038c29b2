"""The figures of one run in the report: every number g500's text output prints, from its JSON.

tools/g500report shows these tables for the single run of a one-run report, and for each run of a
larger report under a collapsed "details" heading. Sections whose fields an older result file lacks
are left out. Each function takes the run's JSON (already checked against RESULT_FIELDS with
tools/input_check.py) and returns HTML; every text from the file goes through html.escape.

  statistics  the Graph500 output block: min, quartiles, max, mean, stddev of time, edges
              traversed, TEPS and validation time, the harmonic mean and its stddev
  phases      time per phase with the bytes sent per BFS, top-down and bottom-up apart
  table 3     those bytes beside Table 3 of Nakao et al. 2021, section 4.5, applied to this run
  memory      graph arrays on the largest rank, kernel 1's passes, the peak memory per rank of
              kernel 1 and of the search against g500's estimates
"""
import html

from input_check import Count, Flag, Number, Record

PHASES = ("calculation", "allgatherv", "alltoallv", "sendrecv", "imbalance")
DIRECTIONS = ("top-down", "bottom-up")
PATTERNS = ("allgatherv", "alltoallv", "sendrecv")
STATISTICS = ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")
STATISTIC_NAMES = {"min": "min", "firstquartile": "first quartile", "median": "median",
                   "thirdquartile": "third quartile", "max": "max", "mean": "mean", "stddev": "stddev"}
# Table 3's rows (Nakao et al. 2021, section 4.5) with the formula of each, in words of 64 bits.
TABLE3_ROWS = (("top-down", "allgatherv", "nR"), ("top-down", "alltoallv", "4m"),
               ("bottom-up", "allgatherv", "s_b nR/64"), ("bottom-up", "sendrecv", "s_b nC/64"),
               ("bottom-up", "alltoallv", "2n"))
GRAPH_ARRAYS = (("row_starts", "row-starts"), ("bitmap", "bitmap"), ("offset", "offset"), ("dst", "dst"))
PACKED_ARRAYS = (("first_neighbors", "dst first"), ("gaps", "dst gaps"), ("short_rows", "dst short"),
                 ("offsets", "dst offsets"), ("key_tables", "key tables"))
MIB = 2 ** 20

BYTES = Count()
PER_DIRECTION = Record({d: Record({p: Number(0) for p in PATTERNS}) for d in DIRECTIONS})
# The fields read here, merged into g500report's schema of a result file.
RESULT_FIELDS = {
    "summary": {**{f"{prefix}{s}_{what}": Number(0) for prefix in ("", "sssp_") for s in STATISTICS
                   for what in ("time", "TEPS", "validate")},
                **{f"{s}_nedge": Number(0) for s in STATISTICS},
                "graph_generation": Number(0), "nvertices_computed": Count(), "input_edges": Count(),
                "harmonic_stddev_TEPS": Number(0), "sssp_harmonic_stddev_TEPS": Number(0)},
    "memory": {"graph_bytes_max_rank": BYTES, "kernel1_passes": Count(),
               "estimated_bytes_max_rank": Number(0), "estimated_kernel1_bytes_max_rank": Number(0),
               "estimated_search_bytes_max_rank": Number(0), "kernel1_peak_rss_bytes_max_rank": BYTES,
               "search_peak_rss_bytes_max_rank": BYTES,
               "graph_arrays_max_rank": Record({**{key: BYTES for key, _ in GRAPH_ARRAYS},
                                                "plain_csr_row_starts": BYTES,
                                                "packed_rows": Record({**{key: BYTES for key, _ in PACKED_ARRAYS},
                                                                       "plain_dst": BYTES, "active": Flag()})})},
    "volumes": Record({"bytes_sent": PER_DIRECTION, "table3_bytes": PER_DIRECTION,
                       "table3_as_printed_bytes": PER_DIRECTION, "mean_bottom_up_levels": Number(0),
                       "model": Record({"n": Count(), "m": Count(), "R": Count(1), "C": Count(1)})}),
}


def text(value):
    return html.escape(str(value), quote=True)


def si_bytes(value):
    """Bytes in the units of g500's text output: 0 B, 5.1 kB, 8.39 MB (powers of 1000)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.0f} B"


def mib(value):
    return f"{value / MIB:.1f} MiB"


def table(head, rows, caption=None):
    """An HTML table; `head` and every cell are plain text (escaped here)."""
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{text(caption)}</caption>")
    parts.append("<tr>" + "".join(f"<th>{text(h)}</th>" for h in head) + "</tr>")
    parts += ["<tr>" + "".join(f"<td>{text(c)}</td>" for c in row) + "</tr>" for row in rows]
    return "".join(parts) + "</table>"


def statistics_table(data):
    """The Graph500 output block (the lines g500 prints first) as one table."""
    summary = data.get("summary", {})
    prefix = "sssp_" if data.get("config", {}).get("kernel") == "sssp" else ""
    columns = (("time [s]", prefix + "{}_time"), ("edges traversed (nedge)", "{}_nedge"),
               ("TEPS", prefix + "{}_TEPS"), ("validation [s]", prefix + "{}_validate"))
    rows = []
    for stat in STATISTICS:
        cells = [summary.get(key.format(stat)) for _, key in columns]
        if any(c is not None for c in cells):
            rows.append([STATISTIC_NAMES[stat]] + ["" if c is None else f"{c:.6g}" for c in cells])
    hmean, hstd = summary.get(prefix + "harmonic_mean_TEPS"), summary.get(prefix + "harmonic_stddev_TEPS")
    if hmean is not None:
        rows.append(["harmonic mean", "", "", f"{hmean:.6g}", ""])
    if hstd is not None:
        rows.append(["harmonic stddev", "", "", f"{hstd:.6g}", ""])
    if not rows:
        return ""
    config = data.get("config", {})
    facts = [f"SCALE {config.get('scale', '?')}", f"edgefactor {config.get('edgefactor', '?')}",
             f"{summary.get('NBFS', len(data.get('roots', [])))} roots"]
    if "nvertices_computed" in summary:
        facts.append(f"N {summary['nvertices_computed']} (largest vertex id + 1)")
    if "graph_generation" in summary:
        facts.append(f"graph generation {summary['graph_generation']:.6g} s")
    if "construction_time" in summary:
        facts.append(f"construction {summary['construction_time']:.6g} s")
    return table(["", *(name for name, _ in columns)], rows,
                 "Graph500 output over the roots: " + ", ".join(facts))


def phase_table(data):
    """Time per phase (mean over ranks, summed over the searches) with the bytes sent per search."""
    profile = data.get("profile", {})
    if not profile:
        return ""
    sent = data.get("volumes", {}).get("bytes_sent")
    rows = []
    total = sum(profile.get(p, {}).get("seconds", 0.0) for p in PHASES)
    for phase in PHASES:
        seconds = profile.get(phase, {}).get("seconds", 0.0)
        row = [phase, f"{seconds:.4f}", f"{100 * seconds / total:.1f}" if total > 0 else "0.0"]
        if sent:
            if phase in PATTERNS:
                parts = {d: sent.get(d, {}).get(phase, 0) for d in DIRECTIONS}
                row += [si_bytes(sum(parts.values())), si_bytes(parts["top-down"]), si_bytes(parts["bottom-up"])]
            else:
                row += ["", "", ""]
        rows.append(row)
    head = ["phase", "time [s]", "share [%]"]
    if sent:
        head += ["bytes sent per search", "top-down", "bottom-up"]
    searches = len(data.get("roots", []))
    return table(head, rows, f"Time per phase (mean over ranks, summed over {searches} searches)"
                 + ("; bytes sent per search (summed over ranks, mean over the searches)" if sent else ""))


def table3_table(data):
    """The bytes sent beside Table 3 of Nakao et al. 2021 (section 4.5), as g500 prints them."""
    volumes = data.get("volumes", {})
    sent, applied = volumes.get("bytes_sent"), volumes.get("table3_bytes")
    printed, model = volumes.get("table3_as_printed_bytes", {}), volumes.get("model", {})
    if not sent or not applied or data.get("config", {}).get("ranks", 1) < 2:
        return ""  # one rank sends nothing; g500 prints no comparison either
    rows = []
    for direction, pattern, formula in TABLE3_ROWS:
        measured = sent.get(direction, {}).get(pattern, 0)
        predicted = applied.get(direction, {}).get(pattern, 0)
        whole = printed.get(direction, {}).get(pattern)
        rows.append([direction, pattern, si_bytes(measured), si_bytes(predicted),
                     f"{measured / predicted:.2f}" if predicted > 0 else "-",
                     f"{si_bytes(whole)} = {formula}" if whole is not None else formula])
    facts = ", ".join(f"{k} = {model[k]}" for k in ("n", "m") if k in model)
    if "R" in model and "C" in model:
        facts += f", {model['R']}x{model['C']} grid"
    if "mean_bottom_up_levels" in volumes:
        facts += f", s_b = {volumes['mean_bottom_up_levels']:.2f}"
    caption = (f"Bytes sent per search beside Table 3 of Nakao et al. 2021, section 4.5 (mean over "
               f"{len(data.get('roots', []))} searches; {facts}). Both Table 3 columns are the paper's formulas "
               "evaluated for this run: 'Table 3' applied level by level to this run's levels, the last column "
               "the formula as printed (a whole search, all levels one way) at this run's n, m, grid and s_b, "
               "not at the paper's SCALE (its runs on Fugaku are far larger). "
               "kB and MB are 10^3 and 10^6 bytes.")
    return table(["direction", "pattern", "measured", "Table 3", "ratio",
                  "Table 3's whole-search formula at this run's n, m"], rows, caption)


def memory_table(data):
    """Graph arrays on the largest rank, peak memory against the estimate, kernel 1's passes and steps."""
    memory = data.get("memory", {})
    rows = []
    arrays = memory.get("graph_arrays_max_rank", {})
    packed = arrays.get("packed_rows", {})
    if arrays:
        bcsr = arrays.get("bitmap", 0) > 0 and arrays.get("offset", 0) > 0
        shown = [(key, name) for key, name in GRAPH_ARRAYS if bcsr or key not in ("bitmap", "offset")]
        if packed.get("active"):
            shown = [(key, name) for key, name in shown if key != "dst"]
        for key, name in shown:
            rows.append([f"graph: {name} (largest rank)", mib(arrays.get(key, 0))])
        neighbors = arrays.get("dst", 0)
        if packed.get("active"):
            for key, name in PACKED_ARRAYS:
                rows.append([f"graph: {name} (largest rank)", mib(packed.get(key, 0))])
            neighbors = sum(packed.get(key, 0) for key, _ in PACKED_ARRAYS)
        total = sum(arrays.get(key, 0) for key in ("row_starts", "bitmap", "offset")) + neighbors
        plain = arrays.get("plain_csr_row_starts", 0) + (packed.get("plain_dst", neighbors) if packed.get("active")
                                                         else neighbors)
        rows.append(["graph: total (largest rank)",
                     f"{mib(total)} ({'bitmap-based CSR' if bcsr else 'plain CSR'}; plain CSR: {mib(plain)})"])
    # m, the edges kernel 1 read: summary.input_edges (SSSP files have no volumes), else Table 3's m.
    edges = data.get("summary", {}).get("input_edges") or data.get("volumes", {}).get("model", {}).get("m")
    ranks = data.get("config", {}).get("ranks", 1)
    if "graph_bytes_max_rank" in memory:
        per_edge = (f", {memory['graph_bytes_max_rank'] * ranks / edges:.2f} bytes per input edge "
                    "(largest rank x ranks)" if edges else "")
        rows.append(["graph: all arrays (largest rank)", mib(memory["graph_bytes_max_rank"]) + per_edge])
    if "kernel1_passes" in memory:
        passes = memory["kernel1_passes"]
        rows.append(["kernel 1 passes over the input edges", f"{passes} (one slab of rows per pass)"])
    # The run's peak and kernel 1's steps are in the run's own table (g500report's run_details).
    for key, estimate, name in (("kernel1_peak_rss_bytes_max_rank", "estimated_kernel1_bytes_max_rank",
                                 "peak memory per rank in kernel 1"),
                                ("search_peak_rss_bytes_max_rank", "estimated_search_bytes_max_rank",
                                 "peak memory per rank in search and validation")):
        if key in memory:
            rows.append([name + " (largest rank)", mib(memory[key]) + (
                f" (g500's estimate {mib(memory[estimate])})" if estimate in memory else "")])
    if not rows:
        return ""
    return table(["memory", ""], rows, "Memory (MiB = 2^20 bytes)")


def run_figures(data):
    """Every table above that the file has the fields for, in the order g500 prints them."""
    return "".join(part for part in (statistics_table(data), phase_table(data), table3_table(data),
                                     memory_table(data)) if part)
