"""tools/g500report's HTML page: the runs table, each run in full (its facts here, its tables from
tools/report_run.py and tools/report_sssp.py), the Series list, and the pictures inlined as base64
PNG with their captions, so the page can be mailed or archived as one file. Every text from the
files or the command line goes through text() (escaped for elements and quoted attributes).
"""
import base64
import html

from report_figure import MOST_RUNS_AS_POINTS, WIDEST_LINEAR_RANGE, plural, short_label
from report_run import run_figures
from report_scaling import LOW_EFFICIENCY, efficiencies_text, implausibly_low, low_efficiency_text
from report_sssp import dijkstra_table, steps_table

QUARTILES = ("min", "firstquartile", "median", "thirdquartile", "max")
KERNEL1_STEPS = ("generate", "route", "bucket", "plan", "mirror", "fill")


def format_teps(value):
    """1.234e9 -> '1.234 G' (a unit prefix to put before TEPS)."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3f} {unit}"
    return f"{value:.3g} "


def text(value):
    """Any value as HTML text: <, >, &, " and ' escaped (safe in elements and quoted attributes)."""
    return html.escape(str(value), quote=True)


def direction_table(comparison):
    modes = comparison["modes"]
    head = "".join(f"<th>{text(m)}</th>" for m in modes)
    rows = [f"<table><tr><th>level</th>{head}</tr>"]
    for level in range(comparison["levels"]):
        cells = "".join(f"<td>{comparison['edges_examined'][m][level]:,}</td>" for m in modes)
        rows.append(f"<tr><td>{level}</td>{cells}</tr>")
    rows.append("<tr><td>total</td>" + "".join(f"<td>{comparison['total'][m]:,}</td>" for m in modes) + "</tr>")
    rows.append("<tr><td>rate</td>" + "".join(f"<td>{comparison['rate_percent'][m]:.2f} %</td>" for m in modes)
                + "</tr></table>")
    return "\n".join(rows)


def validation_text(run):
    if not run.validated:
        return "not validated"
    return f"{run.roots_validated} of {len(run.roots)} roots passed"


def quartiles_text(run):
    values = [run.teps_quartiles.get(q) for q in QUARTILES]
    if any(v is None for v in values):
        return "n/a"
    # One unit for all five (the largest's), so they read as one row of numbers.
    unit, scale = next(((u, f) for u, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)) if max(values) >= f), ("", 1.0))
    return " / ".join(f"{v / scale:.3g}" for v in values) + f" {unit}".rstrip()


def run_details(run):
    """The single run in full: where, when and how it was made, memory, kernel 1's steps, TEPS
    quartiles (the figures of g500's text output)."""
    p, options = run.provenance, run.data["config"].get("options", {})
    rows = [("run", run.label), ("where and when", run.origin),
            ("command", p.get("command", "n/a (the file has no provenance)")),
            ("version and build", " ".join(x for x in (p.get("version"), p.get("build")) if x) or "n/a"),
            ("compiler, MPI", ", ".join(x for x in (p.get("compiler"), p.get("mpi_library")) if x) or "n/a"),
            ("hosts", ", ".join(p.get("hosts", [])) or "n/a"),
            ("ranks x threads", f"{run.ranks} x {run.threads}, {run.grid[0]}x{run.grid[1]} grid" + (
                f"; {run.node_ranks} ranks on rank 0's node of {plural(run.node_cores, 'core')}: "
                + ("oversubscribed (the ranks took turns on the cores)" if run.oversubscribed
                   else "not oversubscribed") if run.node_cores else "")),
            ("Graph500 conformant", conformance_text(run)),
            *([("SSSP delta (bucket width)", f"{options['delta']:g}")] if "delta" in options else []),
            ("validation", validation_text(run)),
            ("harmonic-mean TEPS", format_teps(run.harmonic_mean_teps) + "TEPS"),
            ("TEPS min / Q1 / median / Q3 / max", quartiles_text(run)),
            ("construction (kernel 1)", f"{run.construction_time:.3g} s"),
            ("kernel 1 per step (slowest rank)", ", ".join(f"{k} {run.kernel1_steps[k]:.2f} s" for k in KERNEL1_STEPS
                                                           if k in run.kernel1_steps) or "n/a"),
            ("peak memory per rank", memory_text(run) + (
                f" (g500's estimate {run.data['memory']['estimated_bytes_max_rank'] / 2 ** 20:.1f} MiB)"
                if "estimated_bytes_max_rank" in run.data.get("memory", {}) else "")),
            ("energy", energy_text(run))]
    return ("<table class='facts'>" + "".join(f"<tr><th>{text(k)}</th><td>{text(v)}</td></tr>" for k, v in rows)
            + "</table>"
            + run_figures(run.data) + steps_table(run.data) + dijkstra_table(run.data))


def memory_text(run):
    return f"{run.peak_bytes_per_rank / 2 ** 20:.1f} MiB" if run.peak_bytes_per_rank is not None else "n/a"


def energy_text(run):
    energy = run.energy
    if not energy.get("available"):
        return "not measured"
    return f"{energy['joules']:.3g} J, {energy['watts']:.3g} W, {energy['teps_per_watt']:.3g} TEPS/W"


def conformance_text(run):
    config = run.data.get("config", {})
    if "conformant" not in config:
        return "n/a"
    reasons = config.get("nonconformant_reasons") or []
    return "yes" if config["conformant"] else "no: " + "; ".join(str(r) for r in reasons)


def unbroken(value):
    """Text that must stay on one line (a run label, a date): a browser breaks '2026-11-29T04:40:06Z'
    at its hyphens in a narrow column."""
    return f"<span class='nowrap'>{text(value)}</span>"


def with_its_unit(value):
    """'355 M' as HTML whose unit cannot wrap onto a line of its own, nor a '/' in '1.2 / 3.4' (a line
    breaks after it)."""
    number, _, unit = value.strip().rpartition(" ")
    if not (number and unit):
        return text(value)
    return "&nbsp;/ ".join(text(part) for part in number.split(" / ")) + f"&nbsp;{text(unit)}"


def origin_html(run):
    """Where and when, breaking only between its parts (host, ranks x threads, date)."""
    return ", ".join(unbroken(part) for part in run.origin.split(", "))


def efficiency_html(scaling, run):
    """The run's efficiencies in its series, flagged when implausibly low (the point stays drawn)."""
    if not implausibly_low(scaling, run):
        return text(efficiencies_text(scaling, run))
    flag = text(LOW_EFFICIENCY).replace(" %", "&nbsp;%")  # "5 %" on one line
    return f"{text(efficiencies_text(scaling, run))}; <strong>{flag}</strong>"


def runs_table(runs, scaling):
    """One row per run, in a box that scrolls sideways when the table is wider than the page (labels
    and dates do not wrap, so a narrow window would otherwise squeeze the other columns)."""
    # \u00ad: the long header may break there, with a hyphen (its column need not be wider than "yes")
    head = ("run", "where and when", "command", "roots", "harmonic-mean TEPS", "TEPS min / Q1 / median / Q3 / max",
            "construction", "peak memory per rank", "validation", "over\u00adsubscribed", "parallel efficiency",
            "energy")
    rows = ["<tr>" + "".join(f"<th>{text(h)}</th>" for h in head) + "</tr>"]
    for run in runs:
        label = short_label(run, runs) if len(runs) > 1 else run.label
        cells = [f"<td class='nowrap'>{text(label)}</td>", f"<td>{origin_html(run)}</td>",
                 f"<td class='command'>{text(run.provenance.get('command', run.path))}</td>"]
        cells += [f"<td>{c}</td>" for c in (
            len(run.roots), with_its_unit(format_teps(run.harmonic_mean_teps)), with_its_unit(quartiles_text(run)),
            with_its_unit(f"{run.construction_time:.3g} s"), with_its_unit(memory_text(run)),
            text(validation_text(run)), "yes" if run.oversubscribed else "no")]
        cells += [f"<td class='note'>{efficiency_html(scaling, run)}</td>", f"<td>{text(energy_text(run))}</td>"]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<div class='wide'><table class='runs'>" + "".join(rows) + "</table></div>"


def html_page(title, runs, pictures, rendered, level_series, comparison=None, series_lines=(), scaling=None):
    """The page; every text from the files or the command line goes through text()."""
    def img(name, caption):
        data = base64.b64encode(rendered[name]).decode("ascii")
        return (f'<figure><img alt="{text(caption)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{text(caption)}</figcaption></figure>")

    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{text(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}th{background:#eee}"
             "td:first-child{text-align:left}img{max-width:100%}figure{margin:1.5em 0}"
             "figcaption{color:#444;font-size:90%}caption{text-align:left;color:#444;font-size:90%;"
             "padding:1em 0 0.3em;max-width:60em}.command{font-family:monospace;font-size:85%;text-align:left}"
             "details{margin:0.4em 0}summary{cursor:pointer}.facts td{text-align:left}.facts th{text-align:right}"
             ".wide{overflow-x:auto}.nowrap{white-space:nowrap}.note{text-align:left;min-width:10em}"
             "</style></head><body>",
             f"<h1>{text(title)}</h1>",
             "<h2>Runs</h2>" + runs_table(runs, scaling or {})]
    if len(runs) == 1:
        parts.append("<h2>The run</h2>" + run_details(runs[0]))
    elif runs:  # every figure of every run, folded away until asked for
        parts.append("<h2>Each run in full</h2>" + "".join(
            f"<details><summary>{text(short_label(run, runs))} ({text(run.origin)})</summary>"
            f"{run_details(run)}</details>" for run in runs))
    if series_lines:
        parts.append("<h2>Series</h2><ul>" + "".join(f"<li>{text(line)}</li>" for line in series_lines) + "</ul>")
    headings = {"breakdown": "Time per phase (BFS)", "breakdown_sssp": "Time per phase (SSSP)",
                "teps": "TEPS per root", "levels": "Per level (--trace)", "directions": "Top-down, bottom-up and hybrid",
                "scaling": "Scaling", "ablation": "Ablation (--disable)", "model": "Performance model (g500 model)"}
    slow = low_efficiency_text(scaling or {}, runs)
    phases = ("(a) per search (stacked; the phases side by side on a log axis when the runs' times per search "
              f"differ by more than {WIDEST_LINEAR_RANGE}x), (b) as a share of the search time")
    captions = {"breakdown": f"Time per phase of the BFS runs: {phases}",
                "breakdown_sssp": f"Time per phase of the SSSP runs, apart from the BFS runs (another search, whose "
                                  f"phases do not compare with BFS's): {phases}",
                "teps": ("TEPS of every root: one box per run (quartiles, whiskers to min and max) with the harmonic "
                         "mean as a black bar" if len(runs) > MOST_RUNS_AS_POINTS
                         else "TEPS of every root with the run's harmonic mean (dashed)"),
                "levels": "Per level of one traced root: direction, frontier, edges examined, time",
                "directions": "Edges examined per level with one direction only and with switching",
                "scaling": "Weak and strong scaling: TEPS and parallel efficiency (its value beside each point); "
                           "a black cross marks an oversubscribed point" + (f"; {slow}" if slow else ""),
                "ablation": "Harmonic-mean TEPS with techniques switched off",
                "model": "Model against published points: TEPS, predicted time ratio, sendrecv"}
    for name, file_name in pictures.items():
        parts.append(f"<h2>{text(headings[name])}</h2>")
        parts.append(img(file_name, captions[name]))
        if name == "directions" and comparison:
            parts.append(direction_table(comparison))
        if name == "levels" and level_series:
            parts.append("<table><tr><th>level</th><th>direction</th><th>frontier</th><th>edges examined</th>"
                         "<th>time [ms]</th></tr>")
            for row in level_series["levels"]:
                parts.append(f"<tr><td>{row['level']}</td><td>{text(row['direction'])}</td><td>{row['frontier']:,}</td>"
                             f"<td>{row['edges_examined']:,}</td><td>{row['time_ms']:.3f}</td></tr>")
            parts.append("</table><p>Edges examined per level over all traced roots:</p><table><tr><th>level</th>"
                         "<th>top-down</th><th>bottom-up</th><th>roots</th></tr>")
            for entry in level_series["summed_over_roots"]:
                parts.append(f"<tr><td>{entry['level']}</td><td>{entry['top-down']:,}</td>"
                             f"<td>{entry['bottom-up']:,}</td><td>{entry['roots']}</td></tr>")
            parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)

