"""Candidate retrieval designs on every tuning memory together, each reported, winners and losers.

Every candidate is scored from the same per-question pieces (query vector, dense and BM25 scores of
every passage, the fact/schema hits, the space's projection held in process), so a table of 30
candidates over three memories takes minutes, not hours:

    python benchmarks/tune_retrieval.py [--spaces musique:musique_train ...] [--out DIR]

Writes DIR/candidates.json and candidates.md (default benchmarks/results/tuning/).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.config import RetrievalConfig, SeedConfig  # noqa: E402
from memgraph_neo4j.evaluation import metrics  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.repository.layers import LayerRequest  # noqa: E402
from memgraph_neo4j.retrieval import RetrievalContext  # noqa: E402
from memgraph_neo4j.retrieval import seeds as seed_math  # noqa: E402
from memgraph_neo4j.retrieval.bm25_index import Bm25Index  # noqa: E402
from memgraph_neo4j.retrieval.graph_search import seed_hits  # noqa: E402
from memgraph_neo4j.retrieval.ppr.local import KINDS, personalized_pagerank  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
DEFAULT_SPACES = ("musique:musique_train", "musique_offline_after:musique_train",
                  "hotpotqa_offline_after:hotpotqa_train", "novels_eval:graphrag_bench_novel")


@dataclass
class Piece:
    """What one question gives every candidate."""

    gold: tuple[str, ...]  # titles, or evidence sentences (GraphRAG-Bench)
    dense: np.ndarray  # cosine per passage row (projection order)
    bm25: np.ndarray  # BM25 per passage row
    bm25_content: np.ndarray  # BM25 of the question's content words only (no function words)
    bm25_nltk: np.ndarray  # BM25 of the question without NLTK's stop words (retrieval/stopwords.py)
    bm25_function: np.ndarray  # BM25 without the question's function words (retrieval/stopwords.py)
    weights: dict[str, float]  # memgraphrag unnormalised seeds (entity + type + passage ids)
    hippo: dict[str, float]  # hipporag2 seeds
    entity_ids: set[str]
    type_ids: set[str]
    lexical: dict[str, float]  # entities named in the question: id -> 1 / #passages
    named: dict[str, float]  # the same, only spans with a capitalised (not first) word or a digit
    titled: list[int]  # passage rows whose title the question names (a capitalised span)
    question: str


class Memory:
    """One space: its projection in process and the per-question pieces."""

    def __init__(self, memory: MemoryGraph, space: str, dataset: str, limit: int) -> None:
        self.name = space
        self.data = load_dataset(DATA / dataset, limit=limit)
        config = RetrievalConfig(layer_search="local", ppr_engine="local")
        self.ctx = ctx = RetrievalContext(memory.store, space, memory.embedder, config)
        graph = ctx.projection()
        self.local = ctx.engine.local_graph(graph)
        nodes = self.local.nodes
        self.passage_rows = np.flatnonzero(nodes.kinds == KINDS.index("passage"))
        self.titles = [nodes.names[r] for r in self.passage_rows]
        self.pid_index = {nodes.ids[r]: i for i, r in enumerate(self.passage_rows)}
        self.gold = self.data.gold  # titles | evidence (as the eval command matches them)
        state = ctx.layers.repository.state(ctx.projections.prefix)
        snap = ctx.layers.snapshot(state.version)
        self.state = state
        prow = {pid: i for i, pid in enumerate(snap.passages.ids)}
        self.dense_order = np.array([prow[nodes.ids[r]] for r in self.passage_rows])
        self.snap = snap
        corpus = ctx.search.corpus()
        self.bm25 = Bm25Index(corpus)
        bpos = {p.id: i for i, p in enumerate(self.bm25.passages)}
        self.bm25_order = np.array([bpos[nodes.ids[r]] for r in self.passage_rows])
        self.texts = [self.bm25.passages[j].text or "" for j in self.bm25_order]
        self.entity_names = self._entity_names()
        from memgraph_neo4j.memory.normalize import normalize_entity_name
        self.title_rows: dict[str, list[int]] = {}
        for i, t in enumerate(self.titles):
            if t:
                self.title_rows.setdefault(normalize_entity_name(t), []).append(i)
        self.pieces = [self._piece(q) for q in self.data.questions]

    def _entity_names(self) -> dict[str, list[str]]:
        nodes = self.local.nodes
        by_name: dict[str, list[str]] = {}
        for r in np.flatnonzero(nodes.kinds == KINDS.index("entity")):
            name = nodes.names[r]
            if name:
                key = " ".join(words(name))
                if key:
                    by_name.setdefault(key, []).append(nodes.ids[r])
        return by_name

    def _piece(self, q) -> Piece:
        ctx = self.ctx
        vector = ctx.embed(q.question)
        hits = self.snap.search(vector, [LayerRequest("facts", 50, 0, None), LayerRequest("schemas", 10, 0, None),
                                         LayerRequest("passages", 50, 0)])
        v = np.asarray(vector, dtype=np.float32)
        v /= np.linalg.norm(v)
        dense_all = (self.snap.passages.matrix @ v)[self.dense_order]
        bm25_all = self.bm25.scores(q.question)[self.bm25_order]
        content = " ".join(w for w in words(q.question) if w not in STOP)
        bm25_content = self.bm25.scores(content)[self.bm25_order]
        from memgraph_neo4j.retrieval.stopwords import without_stop_words
        bm25_nltk = self.bm25.scores(without_stop_words(q.question))[self.bm25_order]
        from memgraph_neo4j.retrieval.stopwords import without_function_words
        bm25_function = self.bm25.scores(without_function_words(q.question))[self.bm25_order]
        entity_ids = sorted({i for f in hits.facts for i in (f.head_id, f.tail_id)})
        type_ids = sorted({t for s in hits.schemas for t in (s.head_type, s.tail_type)})
        lexical_ids = self.lexical(q.question)
        named_ids = self.lexical(q.question, named=True)
        stats = ctx.statistics.lookup(self.state.version, sorted(set(entity_ids) | set(lexical_ids)), type_ids,
                                      [p.id for p in hits.passages])
        facts, schemas, passages = seed_hits(hits)
        weights = seed_math.memgraphrag_weights(facts, schemas, passages, stats, SeedConfig())
        hippo = seed_math.hipporag2_seeds(facts, passages, entity_passage_count=stats.entity_passages)
        lexical = {e: 1.0 / max(stats.entity_passages.get(e, 1), 1) for e in lexical_ids}
        named = {e: lexical[e] for e in named_ids}
        from memgraph_neo4j.retrieval.question_entities import candidate_spans
        titled = sorted({r for sp in candidate_spans(q.question) for r in self.title_rows.get(sp.key, ())})
        gold = q.gold_titles if self.gold == "titles" else q.evidence
        return Piece(gold, dense_all, bm25_all, bm25_content, bm25_nltk, bm25_function, weights, hippo, set(entity_ids),
                     set(type_ids), lexical, named, titled, q.question)

    def lexical(self, question: str, named: bool = False) -> list[str]:
        """Entities whose whole name is a word n-gram of the question (longest matches win)."""
        raw = RAW.findall(question)
        tokens = [t.casefold() for t in raw]
        flags = [i > 0 and (t[:1].isupper() or t[:1].isdigit()) for i, t in enumerate(raw)]
        found, covered = [], set()
        for n in range(min(12, len(tokens)), 0, -1):
            for i in range(len(tokens) - n + 1):
                span = set(range(i, i + n))
                if span & covered:
                    continue
                gram = " ".join(tokens[i:i + n])
                if n == 1 and (gram in STOP or len(gram) < 3):
                    continue
                if named and not any(flags[i:i + n]):
                    continue
                if gram in self.entity_names:
                    found.extend(self.entity_names[gram])
                    covered |= span
        return found

    def ppr(self, seeds: dict[str, float], kinds: dict[str, str]) -> np.ndarray:
        nodes = self.local.nodes
        teleport = np.zeros(len(nodes))
        total = sum(w for w in seeds.values() if w > 0)
        if total <= 0:
            return np.zeros(len(self.passage_rows))
        for node, w in seeds.items():
            row = nodes.row(kinds[node], node)
            if row is not None and w > 0:
                teleport[row] += w / total
        scores = personalized_pagerank(self.local.transition_t, teleport, 0.5, 20, 1e-7)
        return scores[self.passage_rows]


import re  # noqa: E402

RAW = re.compile(r"[^\W_]+")
STOP = set("""a an the of in on at to for from by with and or is was were are be been who what which when where
why how did does do whose whom that this these those it its his her their he she they as than also into
about after before during between same both other not no yes many much one two three first""".split())


def words(text: str) -> list[str]:
    from memgraph_neo4j.retrieval.bm25_index import words as w

    return w(text)


def kinds_of(piece: Piece, seeds: dict[str, float], passage_ids: set[str]) -> dict[str, str]:
    out = {}
    for k in seeds:
        out[k] = "entity" if k in piece.entity_ids or k in piece.lexical else "type" if k in piece.type_ids else "passage"
    return out


def rank(scores: np.ndarray) -> np.ndarray:
    return np.lexsort((np.arange(len(scores)), -scores))


def recall(m: Memory, piece: Piece, order: np.ndarray, k: int) -> float:
    if m.gold == "evidence":
        return metrics.evidence_recall_at_k([m.texts[i] for i in order[:k]], piece.gold, k)
    return metrics.recall_at_k([m.titles[i] for i in order[:k]], piece.gold, k)


# ---- candidates -------------------------------------------------------------------------------------

Candidate = Callable[[Memory, Piece], np.ndarray]  # passage scores (higher better)


def minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = float(x.min()), float(x.max())
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def rrf(*scores: np.ndarray, k: int = 60, weights: tuple[float, ...] | None = None) -> np.ndarray:
    total = np.zeros_like(scores[0])
    for j, s in enumerate(scores):
        ranks = np.empty(len(s))
        ranks[rank(s)] = np.arange(1, len(s) + 1)
        total += (weights[j] if weights else 1.0) / (k + ranks)
    return total


def seeds_with(piece: Piece, m: Memory, lexical: float = 0.0, bm25_passages: float = 0.0,
               base: str = "mg", alpha_scale: float = 1.0, named: float = 0.0, hybrid: float = 0.0,
               titles: float = 0.0) -> np.ndarray:
    seeds = dict(piece.weights if base == "mg" else piece.hippo)
    for i in piece.titled if titles else ():
        node = m.local.nodes.ids[m.passage_rows[i]]
        seeds[node] = seeds.get(node, 0.0) + titles
    for e, w in piece.named.items():  # same scale as a top fact's entity: 1 / #passages
        if named:
            seeds[e] = seeds.get(e, 0.0) + named * w
    if hybrid:  # passage seeds from RRF(dense, bm25) instead of dense alone
        for k in list(seeds):
            if k not in piece.entity_ids and k not in piece.type_ids and k not in piece.named:
                del seeds[k]
        fused = rrf(piece.dense, piece.bm25)
        top = rank(fused)[:50]
        mm = fused[top] / fused[top].max()
        for row, w in zip(m.passage_rows[top], mm, strict=True):
            node = m.local.nodes.ids[row]
            seeds[node] = seeds.get(node, 0.0) + hybrid * 0.05 * float(w)
    if base == "mg" and alpha_scale != 1.0:
        for k in list(seeds):
            if k not in piece.entity_ids and k not in piece.type_ids:
                seeds[k] *= alpha_scale
    if lexical and piece.lexical:
        ent_total = sum(w for k, w in seeds.items() if k in piece.entity_ids) or 1.0
        lex_total = sum(piece.lexical.values())
        for e, w in piece.lexical.items():
            seeds[e] = seeds.get(e, 0.0) + lexical * ent_total * w / lex_total
    if bm25_passages:
        top = rank(piece.bm25)[:50]
        b = piece.bm25[top]
        if b.max() > 0:
            pid_rows = m.passage_rows[top]
            mm = b / b.max()
            for row, w in zip(pid_rows, mm, strict=True):
                node = m.local.nodes.ids[row]
                seeds[node] = seeds.get(node, 0.0) + bm25_passages * 0.05 * float(w)
    kinds = {}
    for k in seeds:
        kinds[k] = ("entity" if (k in piece.entity_ids or k in piece.lexical or k in piece.named) else
                    "type" if k in piece.type_ids else "passage")
    return m.ppr(seeds, kinds)


def candidates() -> dict[str, Candidate]:
    c: dict[str, Candidate] = {
        "dense": lambda m, p: p.dense,
        "bm25": lambda m, p: p.bm25,
        "rrf(dense,bm25)": lambda m, p: rrf(p.dense, p.bm25),
        "hipporag2": lambda m, p: seeds_with(p, m, base="hippo"),
        "memgraphrag (previous default)": lambda m, p: seeds_with(p, m),
    }
    for lam in (0.5, 1.0, 2.0):
        c[f"mg + lexical x{lam}"] = (lambda lam: lambda m, p: seeds_with(p, m, lexical=lam))(lam)
    for b in (1.0,):
        c[f"mg + bm25 passage seeds x{b}"] = (lambda b: lambda m, p: seeds_with(p, m, bm25_passages=b))(b)
    c["mg + lexical + bm25 seeds"] = lambda m, p: seeds_with(p, m, lexical=1.0, bm25_passages=1.0)
    for lam in (0.5, 1.0):
        c[f"mg + named x{lam}"] = (lambda lam: lambda m, p: seeds_with(p, m, named=lam))(lam)
    for t in (0.5, 1.0):
        c[f"mg + named + titles x{t}"] = (lambda t: lambda m, p: seeds_with(p, m, named=1.0, titles=t))(t)
    for a in (2.0, 4.0):
        c[f"mg + named, alpha x{a}"] = (lambda a: lambda m, p: seeds_with(p, m, named=1.0, alpha_scale=a))(a)
    c["hipporag2 + named"] = lambda m, p: seeds_with(p, m, base="hippo", named=1.0)
    for h in (0.5, 1.0, 2.0):
        c[f"mg, hybrid passage seeds x{h}"] = (lambda h: lambda m, p: seeds_with(p, m, hybrid=h))(h)
        c[f"mg + named, hybrid passage seeds x{h}"] = (lambda h: lambda m, p: seeds_with(p, m, named=1.0, hybrid=h))(h)
    return c


def share(x: np.ndarray) -> np.ndarray:
    total = float(np.maximum(x, 0).sum())
    return np.maximum(x, 0) / total if total > 0 else np.zeros_like(x)


def top_share(x: np.ndarray, n: int) -> np.ndarray:
    """Each of the n best passages' share of their total score; 0 elsewhere."""
    out = np.zeros_like(x)
    top = rank(x)[:n]
    total = float(x[top].sum())
    if total > 0:
        out[top] = np.maximum(x[top], 0) / total
    return out


def fusions(base: dict[str, np.ndarray], p: Piece) -> dict[str, np.ndarray]:
    """Late fusions of a graph ranking with dense and BM25."""
    out = {}
    for name in ("memgraphrag (previous default)", "mg + named x1.0", "mg + named + titles x1.0", "mg + named + titles x0.5"):
        g = base[name]
        out[f"rrf(2x {name}, dense, bm25)"] = rrf(g, p.dense, p.bm25, weights=(2.0, 1.0, 1.0))
        for beta in (0.1, 0.25, 0.5):
            out[f"mm(ppr)+{beta}(mm dense+mm bm25) [{name}]"] = minmax(g) + beta * (minmax(p.dense) + minmax(p.bm25))
            out[f"mm(ppr)+{beta} mm bm25 [{name}]"] = minmax(g) + beta * minmax(p.bm25)
        out[f"ppr share + bm25 share [{name}]"] = g / max(g.sum(), 1e-12) + p.bm25 / max(p.bm25.sum(), 1e-12)
        excess = np.maximum(p.dense - p.dense.mean(), 0)
        out[f"ppr+bm25+dense-excess shares [{name}]"] = (share(g) + share(p.bm25) + share(excess))
        out[f"ppr+bm25(content words)+dense-excess shares [{name}]"] = (share(g) + share(p.bm25_content)
                                                                         + share(excess))
        out[f"ppr+bm25(content words) shares [{name}]"] = share(g) + share(p.bm25_content)
        out[f"raw ppr+bm25+dense-excess shares [{name}]"] = (g + share(p.bm25) + share(excess))
        out[f"raw ppr+bm25 shares [{name}]"] = (g + share(p.bm25))
        out[f"ppr+bm25+dense-excess^2 shares [{name}]"] = (share(g) + share(p.bm25) + share(excess ** 2))
        out[f"ppr+dense-excess^2 shares [{name}]"] = (share(g) + share(excess ** 2))
        for n in (20, 50):
            out[f"top-{n} shares ppr+bm25 [{name}]"] = top_share(g, n) + top_share(p.bm25, n)
        out[f"top-50 shares ppr+bm25+dense [{name}]"] = top_share(g, 50) + top_share(p.bm25, 50) + top_share(p.dense, 50)
    return out


def run(memories: list[Memory]) -> dict[str, dict[str, dict[str, float]]]:
    table: dict[str, dict[str, dict[str, float]]] = {}
    for m in memories:
        for p in m.pieces:
            base = {name: f(m, p) for name, f in candidates().items()}
            base.update(fusions(base, p))
            for name, scores in base.items():
                tally(table, name, m, p, scores)
    return table


def tally(table: dict, name: str, m: Memory, piece: Piece, scores: np.ndarray) -> None:
    """Adds one question's R@2 and R@5 under candidate `name` (averaged over the memory's questions)."""
    order = rank(scores)
    row = table.setdefault(name, {}).setdefault(m.name, {"r2": 0.0, "r5": 0.0})
    row["r2"] += recall(m, piece, order, 2) / len(m.pieces)
    row["r5"] += recall(m, piece, order, 5) / len(m.pieces)


def memories_of_args(doc: str, build: Callable[[list[Memory]], object]) -> tuple[argparse.Namespace, list[Memory], object]:
    """The command line (--spaces, --limit, --out), the memories it names and `build(memories)`, all read
    through one MemoryGraph."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spaces", nargs="*", default=list(DEFAULT_SPACES), help="space:dataset-folder")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "tuning")
    args = parser.parse_args()
    with MemoryGraph() as memory:
        memories = [Memory(memory, *s.split(":"), limit=args.limit) for s in args.spaces]
        return args, memories, build(memories)


def main() -> None:
    began = time.perf_counter()
    args, memories, table = memories_of_args(__doc__, run)
    names = [m.name for m in memories]
    lines = ["| candidate | " + " | ".join(f"{n} R@2 | R@5" for n in names) + " | mean R@5 |",
             "|---|" + "---|---|" * len(names) + "---|"]
    for cand, rows in table.items():
        cells = " | ".join(f"{rows[n]['r2']:.3f} | {rows[n]['r5']:.3f}" for n in names)
        mean5 = sum(rows[n]["r5"] for n in names) / len(names)
        lines.append(f"| {cand} | {cells} | {mean5:.3f} |")
    text = "\n".join(lines)
    print(text)
    print(f"{time.perf_counter() - began:.0f} s")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "candidates.json").write_text(json.dumps(table, indent=1))
    (args.out / "candidates.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
