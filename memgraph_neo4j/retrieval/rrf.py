"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher 2009): pure, no I/O.

An item's fused score is the sum over the ranked lists that hold it of weight / (k + rank), with
ranks starting at 1; k = 60 damps the head of each list so that agreement between lists counts more
than one list's first place. Ties go to the item with the better best rank, then to the lower id, so
the fusion is deterministic. System-1 hybrid search (retrieval/hybrid.py) fuses with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def rrf(rankings: Sequence[Sequence[Hashable]], k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[Hashable, float]]:
    """Fused (item, score) pairs, best first. A rank is a position in its list (1-based); within one
    list an item counts once, at its first position."""
    if k < 0:
        raise ValueError(f"k must be >= 0, not {k}")
    if weights is not None and len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    scores: dict[Hashable, float] = {}
    best: dict[Hashable, int] = {}
    for i, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[i]
        seen = set()
        for rank, item in enumerate(ranking, 1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], str(kv[0])))
