"""The report of benchmarks/bench_read_after_write.py: per code and memory the medians, the Markdown table
and the PNG of the search after a write against memory size."""

from __future__ import annotations

import statistics
from pathlib import Path


def summarise(runs: list[dict], passages: int) -> dict:
    from memgraph_neo4j.evaluation.metrics import percentile

    def stats(values: list[float]) -> dict[str, float]:
        return {"p50_ms": round(statistics.median(values), 1), "p90_ms": round(percentile(values, 0.9), 1),
                "max_ms": round(max(values), 1)}

    def stage_medians(stage_lists: list[dict[str, float]]) -> dict[str, float]:
        names = list(dict.fromkeys(k for s in stage_lists for k in s))
        return {n: round(statistics.median(s.get(n, 0.0) for s in stage_lists), 2) for n in names}

    rounds = [r for run in runs for r in run["rounds"]]
    warm = stats([ms for run in runs for ms in run["warm_ms"]])
    out = {"passages": passages, "children": len(runs), "rounds": len(rounds), "warm": warm,
           "write": stats([r["write_ms"] for r in rounds]),
           "search_after_write": stats([r["search_after_write_ms"] for r in rounds]),
           "after_that": stats([r["after_that_ms"] for r in rounds]),
           "first_search_ms": statistics.median(run["first_search_ms"] for run in runs),
           # each child's, in order, with the copies it loaded from disk (None: code that keeps none)
           "first_searches": [[run["first_search_ms"], run.get("copies_loaded")] for run in runs],
           "warmup_write_ms": statistics.median(run["warmup_write_ms"] for run in runs),
           "retract_ms": statistics.median(run.get("retract_ms", 0.0) for run in runs),
           "rss_mb": max(run.get("rss_mb", 0.0) for run in runs),
           "peak_rss_mb": max(run.get("peak_rss_mb", 0.0) for run in runs),
           "warm_stages_p50_ms": stage_medians([s for run in runs for s in run["warm_stages_ms"]]),
           "search_after_write_stages_p50_ms": stage_medians([r["search_after_write_stages_ms"] for r in rounds]),
           "after_that_stages_p50_ms": stage_medians([r["after_that_stages_ms"] for r in rounds])}
    out["target_ms"] = round(2 * warm["p50_ms"] + 10, 1)
    out["meets_target"] = out["search_after_write"]["p50_ms"] <= out["target_ms"]
    retractions = [r for run in runs for r in run.get("retractions", [])]  # code before the retraction round: none
    if retractions:
        out["retraction"] = stats([r["retract_ms"] for r in retractions])
        out["search_after_retract"] = stats([r["search_after_retract_ms"] for r in retractions])
        out["search_after_retract_stages_p50_ms"] = stage_medians([r["search_after_retract_stages_ms"]
                                                                   for r in retractions])
        out["retract_meets_target"] = out["search_after_retract"]["p50_ms"] <= out["target_ms"]
    return out


def report(result: dict) -> str:
    from benchmarks.common import write_table

    def code_label(name: str) -> str:
        return f"{name} ({result['codes'][name]['commit']})"

    header = ["memory", "passages", "code", "warm p50 (p90)", "write p50 (p90)", "search after write p50 (p90)",
              "after that p50 (p90)", "target 2 x warm + 10", "RSS MB (peak)", "first search s (copies loaded)"]
    rows = []
    for size in result["sizes"]:
        for code, spaces in result["summary"].items():
            s = spaces.get(size["space"])
            if s is None:
                continue
            rows.append([size["space"], f"{size['passages']:,}", code_label(code),
                         f"{s['warm']['p50_ms']} ({s['warm']['p90_ms']})",
                         f"{s['write']['p50_ms']:.0f} ({s['write']['p90_ms']:.0f})",
                         f"**{s['search_after_write']['p50_ms']}** ({s['search_after_write']['p90_ms']})",
                         f"{s['after_that']['p50_ms']} ({s['after_that']['p90_ms']})",
                         f"{s['target_ms']} {'met' if s['meets_target'] else 'missed'}",
                         f"{s['rss_mb']:.0f} ({s['peak_rss_mb']:.0f})",
                         ", ".join(f"{ms / 1000:.1f}" + ("" if n is None else f" ({n})")
                                   for ms, n in s.get("first_searches", []))])
    stage_rows = [[size["space"], code_label(code), which,
                   ", ".join(f"{k} {v}" for k, v in s[f"{key}_stages_p50_ms"].items())]
                  for size in result["sizes"] for code, spaces in result["summary"].items()
                  if (s := spaces.get(size["space"])) is not None
                  for which, key in (("warm", "warm"), ("search after write", "search_after_write"))]
    retraction_rows = [[size["space"], code_label(code),
                        f"{s['retraction']['p50_ms']:.0f} ({s['retraction']['p90_ms']:.0f})",
                        f"**{s['search_after_retract']['p50_ms']}** ({s['search_after_retract']['p90_ms']})",
                        f"{s['target_ms']} {'met' if s['retract_meets_target'] else 'missed'}",
                        ", ".join(f"{k} {v}" for k, v in s["search_after_retract_stages_p50_ms"].items())]
                       for size in result["sizes"] for code, spaces in result["summary"].items()
                       if (s := spaces.get(size["space"])) is not None and "retraction" in s]
    codes = "; ".join(f"{name}: {tree['commit']} ({tree.get('ref', tree['tree'])})"
                      for name, tree in result["codes"].items())
    load = f"load average {result['load_before'][0]:.1f} before, {result['load_after'][0]:.1f} after"
    engine = result.get("engine", "default")
    text = (f"# Read after write ({result['method']}, {engine} engine, top {result['top_k']}; "
            f"{result['rounds']} rounds x "
            f"{result['repeats']} per code and size, {result['warm']} warm searches)\n\n"
            f"Codes: {codes}. {result['cpus']} cores, {load}. Times in ms; RSS of the Python process after the "
            f"rounds (peak).\n\n"
            + write_table(None, header, rows)
            + "\nStage medians (`timings_ms`):\n\n" + write_table(None, ["memory", "code", "search", "stages p50 ms"],
                                                                 stage_rows))
    if retraction_rows:
        text += ("\nThe retraction round: each round's message retracted on its own (`MemoryGraph.retract`), then "
                 "the next search:\n\n" + write_table(None, ["memory", "code", "retraction p50 (p90)",
                                                              "search after retraction p50 (p90)",
                                                              "target 2 x warm + 10", "stages p50 ms"],
                                                       retraction_rows))
    return text


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for code, spaces in result["summary"].items():
        points = sorted((s["passages"], s["search_after_write"]["p50_ms"]) for s in spaces.values())
        ax.plot([p for p, _ in points], [ms for _, ms in points], marker="o",
                label=f"{code} ({result['codes'][code]['commit']}): search after write p50")
    ours = result["summary"].get("current") or next(iter(result["summary"].values()))
    target = sorted((s["passages"], s["target_ms"]) for s in ours.values())
    ax.plot([p for p, _ in target], [ms for _, ms in target], linestyle="--", color="grey",
            label="target: 2 x warm p50 + 10 ms (current)")
    ax.set_yscale("log")
    ax.set_xlabel("memory size (passages)")
    ax.set_ylabel("ms (log)")
    ax.set_title(f"search right after a one-message write ({result['method']})", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


