"""The last step of memgraphrag: each route's share of its own evidence, added (pure, no I/O).

Two routes rank the passages: personalised PageRank over the memory (whose restart vector already holds
the dense passage similarities, eq. 8) and BM25 over the words, which the graph lacks. A passage's
fused score is the sum over the routes of the share of that route's total evidence it holds. A route
whose evidence is spread thin (a question of common words for BM25, a weak memory for PageRank) gives
every passage a small share and so steers the ranking less, without a weight fitted per dataset.

With `confidence_top` = n > 0 (`RetrievalConfig.fusion_confidence_top`, default 5) each route's shares
are weighted, per question, by the share of its total its own n best passages hold: its confidence in
what it would return. On the GraphRAG-Bench novel, whose characters seed PageRank on every chapter, the
walk's top 5 hold 18 % of its mass (HotpotQA 56 %, MuSiQue 51 %) and BM25 steers more. The weight only
reads right once BM25 is scored without the question's function words (`fusion_stop_words`), whose
matches on every passage make any BM25 look unsure: weighting alone cost the novel 3.2 points of R@2,
dropping the function words alone cost MuSiQue 4.2 of R@5; together the novel beats BM25 and the
other memories hold (benchmarks/results/tuning/fusion.md).

Measured on the memories together (benchmarks/results/tuning/candidates.md, fusion.md): shares beat
rank fusion (RRF, which cost MuSiQue 7-10 points of R@5 by letting the weaker route outvote the graph),
min-max sums with fixed route weights, shares over each route's top 50 only (the total over the whole
space is what tells a concentrated route from a diffuse one), and a third, dense route (cosine above the
space's mean): dense similarity already seeds the walk, and counting it twice lost 0.7 points of R@5 on
MuSiQue and 1.0 on HotpotQA.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """Scores of some passages by one route, and the route's total over every passage of the space."""

    scores: Mapping[str, float]
    total: float

    def share(self, passage_id: str) -> float:
        score = self.scores.get(passage_id, 0.0)
        return score / self.total if self.total > 0 and score > 0 else 0.0

    def confidence(self, n: int) -> float:
        """Share of the route's total held by its n best passages (1.0 for n = 0: no weighting)."""
        if n <= 0:
            return 1.0
        best = sorted((s for s in self.scores.values() if s > 0), reverse=True)[:n]
        return min(sum(best) / self.total, 1.0) if self.total > 0 else 0.0


def fuse(routes: list[Route], confidence_top: int = 0) -> list[tuple[str, float]]:
    """Passages by the sum of their shares, each route's weighted by its confidence in its `confidence_top`
    best passages (0: unweighted), best first (ties: lower id first)."""
    fused: dict[str, float] = defaultdict(float)
    for route in routes:
        weight = route.confidence(confidence_top)
        for passage in route.scores:
            fused[passage] += weight * route.share(passage)
    return sorted(((p, s) for p, s in fused.items() if s > 0), key=lambda x: (-x[1], x[0]))
