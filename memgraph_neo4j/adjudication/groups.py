"""Connected groups of conflicting facts: union-find over the confirmed pairs."""

from __future__ import annotations

from collections import defaultdict

from memgraph_neo4j.adjudication.model import PairJudgement


def connected_groups(pairs: list[PairJudgement]) -> list[tuple[list[str], list[PairJudgement]]]:
    """(sorted fact ids, the pairs among them) per connected group, groups in order of their first id."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        a, b = root(p.fact), root(p.candidate)
        if a != b:
            parent[max(a, b)] = min(a, b)
    members: dict[str, set[str]] = defaultdict(set)
    inside: dict[str, list[PairJudgement]] = defaultdict(list)
    for p in pairs:
        members[root(p.fact)].update((p.fact, p.candidate))
        inside[root(p.fact)].append(p)
    return sorted((sorted(ids), inside[key]) for key, ids in members.items())
