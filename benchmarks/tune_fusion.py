"""Candidate rules for memgraphrag's last step (retrieval/fusion.py) on every tuning memory together.

The graph ranking is the default's (memgraphrag seeds + the question's names + titles, PageRank), the
other route BM25 over the space; each candidate fuses the two (dense and BM25 alone are the baselines)
for every question of every memory, from the shared per-question pieces of tune_retrieval.py:

    python benchmarks/tune_fusion.py [--spaces musique:musique_train ...] [--out DIR]

Writes DIR/fusion.json and fusion.md (default benchmarks/results/tuning/), with per-memory means of the
route statistics the per-question weights read (at the end of fusion.md).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tune_retrieval import Memory, Piece, memories_of_args, rank, rrf, seeds_with, share, tally  # noqa: E402



def peak(x: np.ndarray) -> float:
    """The route's best passage's share of its total: how sure it is of one passage."""
    s = share(x)
    return float(s.max()) if s.size else 0.0


def top_mass(x: np.ndarray, n: int = 5) -> float:
    """Share of the route's total held by its n best passages."""
    s = share(x)
    return float(np.sort(s)[-n:].sum())


def focus(x: np.ndarray) -> float:
    """1 - normalised entropy of the route's shares (0: uniform over the space, 1: one passage)."""
    s = share(x)
    s = s[s > 0]
    if s.size <= 1:
        return 1.0 if s.size else 0.0
    return float(1.0 + (s * np.log(s)).sum() / np.log(len(x)))


def lifted(x: np.ndarray, n: int = 5) -> float:
    return max(top_mass(x, n) - n / max(int((x > 0).sum()), n), 0.0)


def gap(x: np.ndarray) -> float:
    """Best score over the 5th best: how far the route's first passage stands out."""
    top = np.sort(x)[-5:]
    return float(top[-1] / top[0]) if top[0] > 0 else float(top[-1] > 0) * 10.0


def overlap(a: np.ndarray, b: np.ndarray, n: int = 10) -> float:
    return len(set(rank(a)[:n].tolist()) & set(rank(b)[:n].tolist())) / n


def excess(x: np.ndarray) -> np.ndarray:
    """The route's score above its mean over the space (total / N): the floor every passage gets
    (function words for BM25, the walk's spread for PageRank) is not evidence for one passage."""
    return np.maximum(x - x.mean(), 0.0)


Rule = Callable[[np.ndarray, np.ndarray, Piece], np.ndarray]  # (graph, bm25, piece) -> scores


def weighted(conf: Callable[[np.ndarray], float]) -> Rule:
    return lambda g, b, p: conf(g) * share(g) + conf(b) * share(b)


def rules() -> dict[str, Rule]:
    r: dict[str, Rule] = {
        "dense": lambda g, b, p: p.dense,
        "bm25": lambda g, b, p: b,
        "bm25 without NLTK stop words (alone)": lambda g, b, p: p.bm25_nltk,
        "PageRank alone (fusion none)": lambda g, b, p: g,
        "shares, every word, equal weights (previous default)": lambda g, b, p: share(g) + share(b),
        "shares, bm25 of content words": lambda g, b, p: share(g) + share(p.bm25_content),
        "shares x peak (top-1 share)": weighted(peak),
        "shares x top-5 mass": weighted(top_mass),
        "shares x top-10 mass": weighted(lambda x: top_mass(x, 10)),
        "shares x focus (1 - entropy)": weighted(focus),
        "shares x gap (top1/top5)": weighted(gap),
        "shares x sqrt(peak)": weighted(lambda x: peak(x) ** 0.5),
        "max of shares": lambda g, b, p: np.maximum(share(g), share(b)),
        "shares^2 renormalised": lambda g, b, p: share(share(g) ** 2) + share(share(b) ** 2),
        "shares + agreement bonus sqrt(sg*sb)": lambda g, b, p: share(g) + share(b) + np.sqrt(share(g) * share(b)),
        "shares, bm25 x (1 + overlap10)": lambda g, b, p: share(g) + (1 + overlap(g, b)) * share(b),
        "rrf(ppr, bm25)": lambda g, b, p: rrf(g, b),
        "shares x peak, bm25 of content words": lambda g, b, p: peak(g) * share(g) + peak(p.bm25_content)
        * share(p.bm25_content),
    }
    r["excess shares (both routes)"] = lambda g, b, p: share(excess(g)) + share(excess(b))
    r["excess share of bm25 + ppr share"] = lambda g, b, p: share(g) + share(excess(b))
    r["excess share of ppr + bm25 share"] = lambda g, b, p: share(excess(g)) + share(b)
    r["shares, bm25 without NLTK stop words"] = lambda g, b, p: share(g) + share(p.bm25_nltk)
    r["excess shares, bm25 without NLTK stop words"] = lambda g, b, p: share(excess(g)) + share(excess(p.bm25_nltk))
    r["excess share of bm25 without NLTK stop words + ppr share"] = lambda g, b, p: share(g) + share(
        excess(p.bm25_nltk))
    for label, conf in (("top-5 mass", top_mass), ("top-2 mass", lambda x: top_mass(x, 2)),
                        ("sqrt(peak)", lambda x: peak(x) ** 0.5), ("gap", gap)):
        r[f"shares x {label}, bm25 of content words"] = (lambda conf: lambda g, b, p: conf(g) * share(g)
                                                         + conf(p.bm25_content) * share(p.bm25_content))(conf)
    for label, conf in (("top-5 mass", top_mass), ("top-2 mass", lambda x: top_mass(x, 2)), ("peak", peak)):
        r[f"shares x {label}, bm25 without function words"] = (lambda conf: lambda g, b, p: conf(g) * share(g)
                                                               + conf(p.bm25_function) * share(p.bm25_function))(conf)
    r["shares, bm25 without function words"] = lambda g, b, p: share(g) + share(p.bm25_function)
    r["DEFAULT: shares x top-5 mass, bm25 without function words"] = r[
        "shares x top-5 mass, bm25 without function words"]
    # all words rank, but only passages that match a content word hold a share (and count in the total)
    r["shares, bm25 total over passages matching a content word"] = lambda g, b, p: share(g) + share(
        b * (p.bm25_nltk > 0))
    for label, conf in (("peak", peak), ("sqrt(peak)", lambda x: peak(x) ** 0.5), ("top-5 mass", top_mass),
                        ("gap", gap), ("top-2 mass", lambda x: top_mass(x, 2)),
                        ("top-10 mass", lambda x: top_mass(x, 10)), ("top-20 mass", lambda x: top_mass(x, 20)),
                        ("top-3 mass", lambda x: top_mass(x, 3)), ("(top-5 mass)^2", lambda x: top_mass(x) ** 2),
                        ("sqrt(top-5 mass)", lambda x: top_mass(x) ** 0.5)):
        r[f"shares x {label}, bm25 without NLTK stop words"] = (lambda conf: lambda g, b, p: conf(g) * share(g)
                                                                + conf(p.bm25_nltk) * share(p.bm25_nltk))(conf)
    # BM25's confidence read without function words, its shares with every word
    r["shares x top-5 mass, bm25 confidence without NLTK stop words"] = lambda g, b, p: (
        top_mass(g) * share(g) + top_mass(p.bm25_nltk) * share(b))
    # confidence above what an even spread over the passages the route reaches would give its top 5
    r["shares x (top-5 mass - 5/#reached), bm25 without NLTK stop words"] = lambda g, b, p: (
        lifted(g) * share(g) + lifted(p.bm25_nltk) * share(p.bm25_nltk))
    for w in (1.5, 2.0):
        r[f"shares, bm25 x{w} (fixed, for scale)"] = (lambda w: lambda g, b, p: share(g) + w * share(b))(w)
    return r


STATS = {"peak": peak, "top-5 mass": top_mass, "focus": focus, "gap": gap}


def run(memories: list[Memory]) -> tuple[dict, dict]:
    table: dict[str, dict[str, dict[str, float]]] = {}
    diag: dict[str, dict[str, float]] = {}
    for m in memories:
        d = diag.setdefault(m.name, {})
        for p in m.pieces:
            g = seeds_with(p, m, named=1.0, titles=1.0)
            for stat, f in STATS.items():
                d[f"ppr {stat}"] = d.get(f"ppr {stat}", 0.0) + f(g) / len(m.pieces)
                d[f"bm25 {stat}"] = d.get(f"bm25 {stat}", 0.0) + f(p.bm25) / len(m.pieces)
            d["overlap10"] = d.get("overlap10", 0.0) + overlap(g, p.bm25) / len(m.pieces)
            for name, rule in rules().items():
                tally(table, name, m, p, rule(g, p.bm25, p))
    return table, diag


def main() -> None:
    began = time.perf_counter()
    args, memories, (table, diag) = memories_of_args(__doc__, run)
    names = [m.name for m in memories]
    lines = ["| rule | " + " | ".join(f"{n} R@2 | R@5" for n in names) + " | mean R@2 | mean R@5 |",
             "|---|" + "---|---|" * len(names) + "---|---|"]
    for cand, rows in table.items():
        cells = " | ".join(f"{rows[n]['r2']:.3f} | {rows[n]['r5']:.3f}" for n in names)
        mean2 = sum(rows[n]["r2"] for n in names) / len(names)
        mean5 = sum(rows[n]["r5"] for n in names) / len(names)
        lines.append(f"| {cand} | {cells} | {mean2:.3f} | {mean5:.3f} |")
    stats = sorted({k for d in diag.values() for k in d})
    dlines = ["| memory | " + " | ".join(stats) + " |", "|---|" + "---|" * len(stats)]
    dlines += [f"| {n} | " + " | ".join(f"{diag[n][k]:.3f}" for k in stats) + " |" for n in names]
    text, dtext = "\n".join(lines), "\n".join(dlines)
    print(text, "", dtext, f"{time.perf_counter() - began:.0f} s", sep="\n")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fusion.json").write_text(json.dumps({"recall": table, "route_statistics": diag}, indent=1))
    (args.out / "fusion.md").write_text(text + "\n\nMean route statistics per question:\n\n" + dtext + "\n")


if __name__ == "__main__":
    main()
