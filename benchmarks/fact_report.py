"""What the extraction made of each built memory: facts per passage (all, and without bare co-occurrences),
passages without a fact, orphan entities, the co-occurrence share, facts whose numbers no evidence states
(graph health's value fidelity), and Recall@2/@5 from the memory's eval report when one is given.

    python benchmarks/fact_report.py hotpotqa=h11_hotpotqa:/tmp/eval/h11_hotpotqa/report.json \\
        musique=h11_musique[:REPORT] ... [--out benchmarks/results/facts] [--baseline NAME=SPACE[:REPORT] ...]

Writes report.md, report.json and facts.png (the shares per memory, beside the baseline's when given).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common import RESULTS, write_table

from memgraph_neo4j.config import Settings
from memgraph_neo4j.evaluation.health import value_fidelity
from memgraph_neo4j.repository.analytics import AnalyticsRepository
from memgraph_neo4j.repository.health import HealthRepository
from memgraph_neo4j.server.connection import open_store

HEADER = ["memory", "space", "passages", "facts / passage", "real facts / passage", "passages without facts",
          "co-occurrence share", "entities", "orphan share", "facts stating numbers", "numbers unstated", "R@2",
          "R@5"]


def profile(store, label: str, target: str) -> dict:
    space, _, report = target.partition(":")
    [row] = AnalyticsRepository(store, space).run("fact_profile")
    with_values, unstated, examples = value_fidelity(HealthRepository(store, space).facts_with_values())
    recall = {}
    if report:
        memgraphrag = next(m for m in json.loads(Path(report).read_text())["methods"] if m["key"] == "memgraphrag")
        recall = {"R@2": memgraphrag["recall@2"], "R@5": memgraphrag["recall@5"]}
    n, active = max(row["passages"], 1), row["active"]
    return {"memory": label, "space": space, "passages": row["passages"], "facts_per_passage": active / n,
            "real_facts_per_passage": (active - row["co_occurrence"]) / n,
            "without_facts_share": row["without_facts"] / n,
            "co_occurrence_share": row["co_occurrence"] / max(active, 1),
            "entities": row["entities"], "orphan_share": row["orphans"] / max(row["entities"], 1),
            "facts_with_values": with_values, "values_unstated": unstated, "unstated_examples": examples, **recall}


def table_row(p: dict) -> list:
    return [p["memory"], p["space"], p["passages"], f"{p['facts_per_passage']:.2f}",
            f"{p['real_facts_per_passage']:.2f}",
            f"{p['without_facts_share']:.3f}", f"{p['co_occurrence_share']:.3f}", p["entities"],
            f"{p['orphan_share']:.3f}", p["facts_with_values"], p["values_unstated"],
            f"{p['R@2']:.3f}" if "R@2" in p else "", f"{p['R@5']:.3f}" if "R@5" in p else ""]


def plot(profiles: list[dict], baseline: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [("real_facts_per_passage", "real facts / passage"), ("orphan_share", "orphan share"),
            ("co_occurrence_share", "co-occurrence share"),
            ("values_unstated", "facts whose numbers no evidence states")]
    fig, axes = plt.subplots(1, len(keys), figsize=(4 * len(keys), 3.6))
    for ax, (key, title) in zip(axes, keys, strict=True):
        labels = [p["memory"] for p in profiles]
        xs = range(len(labels))
        if baseline:
            old = {b["memory"]: b[key] for b in baseline}
            ax.bar([x - 0.2 for x in xs], [old.get(label, 0) for label in labels], 0.4, label="baseline", color="#bbb")
        ax.bar([x + (0.2 if baseline else 0) for x in xs], [p[key] for p in profiles], 0.4 if baseline else 0.6,
               label="now", color="#4477aa")
        ax.set_xticks(list(xs), labels, rotation=20)
        ax.set_title(title)
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("memories", nargs="+", help="NAME=SPACE[:eval report.json]")
    parser.add_argument("--baseline", nargs="*", default=[], help="NAME=SPACE[:eval report.json], the same names")
    parser.add_argument("--out", type=Path, default=RESULTS / "facts")
    args = parser.parse_args()
    store = open_store(Settings())
    try:
        profiles = [profile(store, *m.split("=", 1)) for m in args.memories]
        baseline = [profile(store, *m.split("=", 1)) for m in args.baseline]
    finally:
        store.close()
    args.out.mkdir(parents=True, exist_ok=True)
    text = "## now\n\n" + write_table(None, HEADER, [table_row(p) for p in profiles])
    if baseline:
        text += "\n## baseline\n\n" + write_table(None, HEADER, [table_row(p) for p in baseline])
    text += "\n## facts whose numbers no evidence states (first five per memory)\n\n" + "\n".join(
        f"- {p['memory']}: " + ("; ".join(p["unstated_examples"]) or "none") for p in profiles) + "\n"
    (args.out / "report.md").write_text(text)
    (args.out / "report.json").write_text(json.dumps({"now": profiles, "baseline": baseline}, indent=2))
    plot(profiles, baseline, args.out / "facts.png")
    print(text)


if __name__ == "__main__":
    main()
