"""The SSSP's own tables in a run's part of the report: what `g500 sssp` prints after its phases.

  steps     the search's steps on rank 0's clock (light phases, push heavy, pull heavy, parents and
            output, the rest in the buckets), summed over the searches, with the edges each relaxed
            or scanned (relaxations, relaxations_light and relaxations_pull of each root)
  dijkstra  the serial Dijkstra on rank 0 against the SSSP on the same roots (--compare-dijkstra)

Each function takes the run's JSON (checked against SSSP_ROOT_FIELDS and DIJKSTRA_FIELDS by
tools/g500report before anything is drawn) and returns HTML, "" when the file has no such numbers
(a BFS run, or an SSSP run without --compare-dijkstra).
"""
from input_check import Count, Flag, Number, Record
from report_run import table

STEPS = ("light", "push", "pull", "parents")
SECONDS = Number(0)
# The fields read here: of each root, and the file's "dijkstra" record.
SSSP_ROOT_FIELDS = {"steps_s": Record({step: SECONDS for step in STEPS}),
                    "relaxations": Count(), "relaxations_light": Count(), "relaxations_pull": Count()}
DIJKSTRA_FIELDS = Record({"roots": Count(), "dijkstra_harmonic_mean_TEPS": Number(0),
                          "sssp_harmonic_mean_TEPS": Number(0), "speedup": Number(0), "agrees": Flag()})


def steps_table(data):
    """The steps as g500 sssp prints them: seconds, share of the search time, millions of edges."""
    roots = [r for r in data.get("roots", []) if "steps_s" in r]
    total = sum(r.get("time_s", 0.0) for r in roots)
    if not roots or total <= 0:
        return ""
    seconds = {step: sum(r["steps_s"].get(step, 0.0) for r in roots) for step in STEPS}
    light = sum(r.get("relaxations_light", 0) for r in roots)
    pulled = sum(r.get("relaxations_pull", 0) for r in roots)
    pushed = sum(r.get("relaxations", 0) for r in roots) - light - pulled
    in_buckets = max(0.0, total - sum(seconds.values()))  # what the four steps leave: bucket upkeep
    rows = [[name, f"{spent:.4f}", f"{100 * spent / total:.1f}", "" if edges is None else f"{edges / 1e6:.2f}"]
            for name, spent, edges in (("light phases", seconds["light"], light),
                                       ("push heavy", seconds["push"], pushed),
                                       ("pull heavy", seconds["pull"], pulled),
                                       ("parents, output", seconds["parents"], None),
                                       ("other (buckets)", in_buckets, None))]
    return table(["step", "time [s]", "share [%]", "relaxed or scanned edges [M]"], rows,
                 f"SSSP steps (rank 0's clock, summed over {len(roots)} searches)")


def dijkstra_table(data):
    """The serial Dijkstra comparison (g500 sssp --compare-dijkstra N)."""
    d = data.get("dijkstra")
    if not d:
        return ""
    rows = [["Dijkstra harmonic-mean TEPS", f"{d.get('dijkstra_harmonic_mean_TEPS', 0):.6g}"],
            ["SSSP harmonic-mean TEPS (same roots)", f"{d.get('sssp_harmonic_mean_TEPS', 0):.6g}"],
            ["speed-up over Dijkstra", f"{d.get('speedup', 0):.2f}"],
            ["distances agree with Dijkstra", "yes" if d.get("agrees") else "NO"]]
    return table(["", ""], rows, f"Serial Dijkstra on rank 0 over the first {d.get('roots', '?')} roots "
                                 "(same graph, same run)")
