"""LoCoMo evidence-turn Recall@5 / @10, per question category 1-4, for dense, BM25, RRF(dense, BM25),
System-1 and System-1 with expansion, all from one run (offline MiniLM, offline extractor).

Each of the 10 conversations is its own space (`c_locomo_<id>`, one Episode per message). Every
question retrieves from its own conversation; its evidence messages ("D3:1") are the gold. Per query
the System-1 lists are read once (retrieval/hybrid.py) and every method is a fusion of some of them:

    dense            Passage vector index
    bm25             BM25 over the space's passages (Lucene's formula)
    rrf              RRF(dense, bm25), k = 60
    system1          RRF(dense, bm25, episodes of the fused facts at weight 0.3)
    system1+facts    system1 + the episodes of facts 1 hop along valid facts from the fused entities
    system1+ppr      system1 + personalised PageRank from the fused episodes and entities
    system1+context  system1 + the messages before and after its 5 best episodes (NEXT)

    python benchmarks/locomo/bench_locomo.py [--data ../shared/data/locomo/locomo10.zip]
        [--conversations N] [--no-extract] [--keep] [--rebuild]

The spaces are built when missing (idempotent) and deleted at the end unless --keep. Writes
benchmarks/results/locomo.json, locomo.md and locomo.png.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import defaultdict
from dataclasses import asdict, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.common import RESULTS  # noqa: E402
from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.evaluation.locomo import CATEGORIES, evidence_recall, load_locomo  # noqa: E402
from memgraph_neo4j.ingest.episodes import build_episodes, ingest_conversations  # noqa: E402
from memgraph_neo4j.retrieval.base import StageTimer  # noqa: E402
from memgraph_neo4j.retrieval.hybrid import HybridConfig, HybridRetriever  # noqa: E402
from memgraph_neo4j.retrieval.rrf import rrf  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.zip"
METHODS = ["dense", "bm25", "rrf", "system1", "system1+facts", "system1+ppr", "system1+context"]
KS = (5, 10)
REFERENCE = {"dense": (0.392, 0.494), "bm25": (0.465, 0.533), "rrf": (0.496, 0.571)}


def rankings(retriever: HybridRetriever, question: str) -> dict[str, list[str]]:
    """Every method's episode ranking from one read of the System-1 lists (the "facts" expansion is
    read with them; "ppr" and "context" expand the same lists)."""
    lists = retriever.lists(question, StageTimer())
    out = {"dense": lists.dense, "bm25": lists.bm25, "rrf": [p for p, _ in rrf([lists.dense, lists.bm25])]}
    plain = replace(lists, expansion=[])
    out["system1"] = [p for p, _ in HybridRetriever.episode_ranking(_with(retriever, None), plain)]
    out["system1+facts"] = [p for p, _ in retriever.episode_ranking(lists)]
    for name, expand in (("system1+ppr", retriever._expand_ppr), ("system1+context", retriever._expand_context)):
        out[name] = [p for p, _ in retriever.episode_ranking(replace(lists, expansion=expand(plain)))]
    return out


def _with(retriever: HybridRetriever, expand: str | None) -> HybridRetriever:
    """A view of the retriever with another expansion setting (same context, lists and caches)."""
    view = copy.copy(retriever)
    view.config = replace(retriever.config, expand=expand)
    return view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--conversations", type=int, default=0, help="first N conversations only (0: all)")
    parser.add_argument("--no-extract", action="store_true", help="episodes only: no facts or entities")
    parser.add_argument("--keep", action="store_true", help="keep the c_locomo_* spaces afterwards")
    parser.add_argument("--hops", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--resume", action="store_true",
                        help="skip the conversations a stopped run of the same settings finished")
    args = parser.parse_args()
    locomo = load_locomo(args.data)
    conversations = locomo.conversations[:args.conversations or None]
    questions = [q for q in locomo.select() if q.conversation in {c.id for c in conversations}]
    scores: dict[str, dict[int, list[list[float]]]] = {m: defaultdict(list) for m in METHODS}
    build_seconds, query_seconds, built = 0.0, 0.0, {}
    spaces = []
    config = HybridConfig(expand="facts", hops=args.hops)
    partial = args.out / "locomo.partial.json"
    fingerprint = {"settings": asdict(config), "extract": not args.no_extract}
    done = {}
    args.resumed = []
    if args.resume and partial.exists():
        saved = json.loads(partial.read_text())
        done = saved["done"] if saved.get("fingerprint") == json.loads(json.dumps(fingerprint)) else {}
    for conv in conversations:
        space = f"c_locomo_{conv.id}"
        spaces.append(space)
        if conv.id in done:  # finished by the stopped run: its scores and times as they were
            _merge(scores, done[conv.id]["scores"])
            built[conv.id] = done[conv.id]["built"]
            build_seconds += done[conv.id]["build_seconds"]
            query_seconds += done[conv.id]["query_seconds"]
            args.resumed.append(conv.id)
            print(f"{space}: from the stopped run", flush=True)
            continue
        own: dict[str, dict[int, list[list[float]]]] = {m: defaultdict(list) for m in METHODS}
        with MemoryGraph(space=space, extractor="offline") as memory:
            began = time.monotonic()
            memory.init()
            report = ingest_conversations(memory.writer, [conv], memory.extractor, checker=memory.adjudicator,
                                          extract=not args.no_extract)
            conv_build = time.monotonic() - began
            built[conv.id] = {"messages": conv.messages, "passages_new": report.passages_new,
                              "facts": report.facts, "seconds": round(report.seconds, 1)}
            print(f"{space}: {conv.messages} messages, {report.passages_new} new, {report.facts} facts, "
                  f"{report.seconds:.0f} s", flush=True)
            turn_of = {pid: turn for (_, turn), pid in build_episodes([conv]).by_turn.items()}
            retriever = HybridRetriever(memory.retrieval, config)
            began = time.monotonic()
            for q in (q for q in questions if q.conversation == conv.id):
                for method, ranking in rankings(retriever, q.question).items():
                    turns = [turn_of.get(p) for p in ranking]
                    own[method][q.category].append([evidence_recall(turns, q.evidence, k) for k in KS])
            conv_query = time.monotonic() - began
            if not args.keep:
                memory.store.run_implicit("admin/delete_space", space=space)
        _merge(scores, own)
        build_seconds, query_seconds = build_seconds + conv_build, query_seconds + conv_query
        done[conv.id] = {"scores": own, "built": built[conv.id], "build_seconds": conv_build,
                         "query_seconds": conv_query}
        args.out.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps({"fingerprint": fingerprint, "done": done}))
    write_results(args.out, scores, len(questions), built, build_seconds, query_seconds, args)
    partial.unlink(missing_ok=True)


def _merge(scores, own) -> None:
    for method, by_category in own.items():
        for category, rows in by_category.items():
            scores[method][int(category)].extend(rows)


def _mean(rows: list[list[float]], i: int) -> float:
    return sum(r[i] for r in rows) / len(rows) if rows else 0.0


def write_results(out: Path, scores, n_questions: int, built: dict, build_seconds: float, query_seconds: float,
                  args) -> None:
    results = {}
    for method in METHODS:
        every = [r for rows in scores[method].values() for r in rows]
        results[method] = {
            "all": {f"R@{k}": round(_mean(every, i), 4) for i, k in enumerate(KS)},
            "by_category": {str(c): {"n": len(scores[method][c]),
                                     **{f"R@{k}": round(_mean(scores[method][c], i), 4) for i, k in enumerate(KS)}}
                            for c in sorted(scores[method])},
        }
    payload = {"dataset": str(args.data.name), "questions": n_questions, "categories": [1, 2, 3, 4],
               "embedder": "all-MiniLM-L6-v2 (offline)", "extractor": "none" if args.no_extract else "offline",
               "hops": args.hops, "settings": asdict(HybridConfig()),
               "settings_chosen_on": "conversations 26 and 30 (stop words, context seeds); nothing else tuned",
               "reference": {m: {"R@5": a, "R@10": b} for m, (a, b) in REFERENCE.items()},
               "results": results, "conversations": built, "build_seconds": round(build_seconds, 1),
               "query_seconds": round(query_seconds, 1),
               "resumed": {"conversations": args.resumed,
                           "note": "scored by a stopped run of the same code and settings (--resume)"}
               if args.resumed else None}
    out.mkdir(parents=True, exist_ok=True)
    (out / "locomo.json").write_text(json.dumps(payload, indent=2) + "\n")
    cats = sorted({int(c) for m in results.values() for c in m["by_category"]})
    header = ["method", "R@5", "R@10", *[f"{CATEGORIES[c]} ({c}) R@5 / R@10" for c in cats], "reference R@5 / R@10"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for method in METHODS:
        r = results[method]
        ref = REFERENCE.get(method)
        cells = [method, f"{r['all']['R@5']:.3f}", f"{r['all']['R@10']:.3f}",
                 *[f"{r['by_category'][str(c)]['R@5']:.3f} / {r['by_category'][str(c)]['R@10']:.3f}" for c in cats],
                 f"{ref[0]:.3f} / {ref[1]:.3f}" if ref else ""]
        lines.append("| " + " | ".join(cells) + " |")
    counts = ", ".join(f"{c}: {results['dense']['by_category'][str(c)]['n']}" for c in cats)
    text = (f"LoCoMo evidence-turn recall, {n_questions} questions of categories 1-4 ({counts}), offline MiniLM, "
            f"extractor {payload['extractor']}; build {build_seconds:.0f} s, queries {query_seconds:.0f} s.\n\n"
            + "\n".join(lines) + "\n")
    (out / "locomo.md").write_text(text)
    print(text)
    _plot(out / "locomo.png", results, cats)


def _plot(path: Path, results: dict, cats: list[int]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    groups = ["all", *[str(c) for c in cats]]
    width = 0.8 / len(METHODS)
    for ax, k in zip(axes, KS):
        for i, method in enumerate(METHODS):
            r = results[method]
            values = [r["all"][f"R@{k}"], *[r["by_category"][c][f"R@{k}"] for c in groups[1:]]]
            ax.bar([g + i * width for g in range(len(groups))], values, width, label=method)
        if "rrf" in REFERENCE:
            ax.axhline(REFERENCE["rrf"][KS.index(k)], color="grey", ls="--", lw=1, label="reference RRF (all)")
        ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))],
                      ["all", *[CATEGORIES[int(c)] for c in groups[1:]]])
        ax.set_title(f"LoCoMo evidence Recall@{k}")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
