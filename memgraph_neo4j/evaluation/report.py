"""The evaluation report on disk: `report.json` (everything), `report.md` (the tables a person reads)
and three PNG plots — Recall@k per method, the latency histogram, the entity degree distribution."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from memgraph_neo4j.evaluation.metrics import KS
from memgraph_neo4j.evaluation.runner import EvalReport


def markdown(report: EvalReport) -> str:
    gold = {"titles": "gold passages matched by title", "passages": "gold passages matched by text",
            "evidence": "evidence sentences found in the retrieved passages",
            "turns": "evidence messages among the retrieved episodes, each question in its conversation's space"
            }[report.gold]
    spaces = report.build.get("spaces") or [report.space]  # LoCoMo: one per conversation
    lines = [f"# {report.dataset}: {report.questions} questions, space{'s' * (len(spaces) > 1)} "
             + ", ".join(f"`{s}`" for s in spaces), "",
             f"Recall@k: {gold}. Built with `{report.build.get('extractor')}` "
             f"({report.build.get('passages')} passages, {report.build.get('passages_new')} new, "
             f"{report.build.get('seconds')} s). Latency excludes answer generation.", "",
             "| method | " + " | ".join(f"R@{k}" for k in KS)
             + " | p50 ms | p95 ms | first query ms | stages p50 (ms) |",
             "|---|" + "---|" * (len(KS) + 4)]
    for m in report.methods:
        stages = ", ".join(f"{s} {v}" for s, v in m["stages_p50_ms"].items())
        lines.append(f"| {m['label'].strip()} | " + " | ".join(f"{m[f'recall@{k}']:.3f}" for k in KS)
                     + f" | {m['p50_ms']} | {m['p95_ms']} | {m['first_query_ms']} | {stages} |")
    qa = [m for m in report.methods if m.get("qa")]
    if qa:
        lines += ["", "| method | exact match | F1 | containment | LLM judge |", "|---|---|---|---|---|"]
        lines += [f"| {m['label'].strip()} | {m['qa']['exact_match']:.3f} | {m['qa']['f1']:.3f} | "
                  f"{m['qa']['containment']:.3f} | {m['qa'].get('judge', float('nan')):.3f} |" for m in qa]
    kinds = sorted({kind for m in report.methods for kind in m.get("by_kind", {})})
    if len(kinds) > 1:
        lines += ["", "Recall@5 / @10 by question kind:", "", "| method | " + " | ".join(
            f"{kind} ({report.methods[0]['by_kind'].get(kind, {}).get('questions', 0)})" for kind in kinds) + " |",
            "|---|" + "---|" * len(kinds)]
        lines += [f"| {m['label'].strip()} | " + " | ".join(
            f"{m['by_kind'][kind]['recall@5']:.3f} / {m['by_kind'][kind]['recall@10']:.3f}" if kind in m["by_kind"]
            else "" for kind in kinds) + " |" for m in report.methods]
    if report.health:
        lines += ["", "## Graph health", "", *health_lines(report.health)]
    for space, health in report.health_by_space.items():
        lines += ["", f"## Graph health of space `{space}`", "", *health_lines(health)]
    lines += ["", f"Tokens: {report.usage.prompt_tokens} prompt + {report.usage.completion_tokens} completion. "
                  f"Total {report.seconds} s."]
    return "\n".join(lines) + "\n"


def health_lines(health: dict[str, Any]) -> list[str]:
    conflicts = ", ".join(f"{t} {s} {n}" for t, by in health.get("conflicts", {}).items() for s, n in by.items())
    rows = [("entities / edges", f"{health['entities']} / {health['entity_edges']}"),
            ("average degree", f"{health['average_degree']:.3f}"),
            ("average clustering coefficient", f"{health['average_clustering']:.4f}"),
            ("components (largest share)", f"{health['components']} ({health['largest_component_share']:.3f})"),
            ("orphan entities", health["orphan_entities"]),
            ("duplicate names / near-duplicates", f"{health['duplicate_name_rate']:.4f} / "
                                                  f"{health['near_duplicate_rate']:.4f}"),
            ("schemas by state", ", ".join(f"{k} {v}" for k, v in sorted(health["schemas_by_state"].items()))),
            ("conflicts", conflicts or "none"),
            ("facts without evidence (must be 0)", health["facts_without_evidence"]),
            ("facts whose numbers no evidence states", f"{health.get('values_unstated', 0)} of "
                                                       f"{health.get('facts_with_values', 0)} stating numbers")]
    return ["| measure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)]


def figures(report: EvalReport) -> list[tuple[str, Any]]:
    """The plots as (file name, matplotlib Figure). Constrained layout: titles, axis labels and tick labels
    are kept inside the canvas, however long the method labels are."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []
    labels = [m["label"].strip() for m in report.methods]
    fig, ax = plt.subplots(figsize=(max(8, 1.2 * len(labels) + 3), 5.5), layout="constrained")
    width = 0.8 / len(KS)
    for i, k in enumerate(KS):
        ax.bar([x + (i - (len(KS) - 1) / 2) * width for x in range(len(labels))],
               [m[f"recall@{k}"] for m in report.methods], width=width, label=f"Recall@{k}")
    # wrapped to the width of a method's bars: rotated, a long label reached past the canvas
    ax.set_xticks(range(len(labels)), [textwrap.fill(label, 18) for label in labels], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("recall")
    ax.set_title(f"Recall@k per method: {report.dataset}, {report.questions} questions")
    ax.legend()
    made.append(("recall.png", fig))

    # one histogram per method on a shared log axis: a dozen overlaid histograms cannot be told apart; each
    # panel's label sits above it (beside it, long labels pushed the panels and clipped the title)
    import numpy as np

    every = [x for m in report.methods for x in m["latencies_ms"]] or [1.0]
    bins = np.geomspace(max(min(every), 0.1), max(every) * 1.05, 40)
    fig, axes = plt.subplots(len(report.methods), 1, sharex=True, squeeze=False, layout="constrained",
                             figsize=(9, 0.95 * len(report.methods) + 1.4))
    for ax, m in zip(axes[:, 0], report.methods, strict=True):
        ax.hist(m["latencies_ms"], bins=bins, color="tab:blue")
        ax.axvline(m["p50_ms"], color="tab:red", linewidth=1)
        ax.set_yticks([])
        ax.set_title(f"{m['label'].strip()}: p50 {m['p50_ms']} ms, p95 {m['p95_ms']} ms", loc="left", fontsize=8)
    axes[-1, 0].set_xscale("log")
    fig.supxlabel("latency per query (ms, log scale; red: p50), answer generation excluded", fontsize=10)
    fig.suptitle(f"Retrieval latency per method: {report.dataset}, {report.questions} questions")
    made.append(("latency.png", fig))

    if report.health and report.health.get("degree_distribution"):
        degrees = sorted((int(d), n) for d, n in report.health["degree_distribution"].items())
        fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
        ax.scatter([max(d, 0.5) for d, _ in degrees], [n for _, n in degrees], s=12)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("entity degree (0 drawn at 0.5)")
        ax.set_ylabel("entities")
        ax.set_title(f"Entity degree distribution: space {report.space}")
        made.append(("degree.png", fig))
    return made


def plots(report: EvalReport, out: Path) -> list[Path]:
    import matplotlib.pyplot as plt

    written = []
    for name, fig in figures(report):
        fig.savefig(out / name, dpi=110, bbox_inches="tight", pad_inches=0.1)  # nothing outside is cut
        plt.close(fig)
        written.append(out / name)
    return written


def write_report(report: EvalReport, out: Path) -> list[Path]:
    """report.json, report.md and the plots in `out` (created); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report.model_dump(), indent=2, default=str))
    (out / "report.md").write_text(markdown(report))
    return [out / "report.json", out / "report.md", *plots(report, out)]
