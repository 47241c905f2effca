"""Candidate conflicts by meaning (the facts of the space at cosine >= δ of a newly active fact) from the
in-process copy of the space's fact vectors that the writer keeps (memory/neighbours.SpaceVectors).

Through the Fact vector index each newly active fact is one filtered HNSW search for 100 hits; at the
size of MuSiQue x 3 (51k facts, loaded 2 cores) one such read took ~9 s for a batch's ~1,000 facts. The
copy answers what cypher/adjudication/similar_candidates answers, exactly: the fact's `fetch` nearest
(ties to the lower id), less itself, those in a candidate state at cosine >= δ, best first, at most
`limit`; the states come from the store in one read.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from memgraph_neo4j.memory.neighbours import SpaceVectors
from memgraph_neo4j.repository.conflicts import CANDIDATE_STATES, Candidate, ConflictRepository


def similar_candidates(repository: ConflictRepository, vectors: SpaceVectors | None, ids: Sequence[str],
                       similarity: float, limit: int) -> list[Candidate]:
    copy = vectors.current() if vectors is not None else None
    if copy is None:  # no copy kept, a space too large for one, or not built yet: the index
        began = time.perf_counter()
        found = repository.similar_candidates(ids, similarity, limit)
        if vectors is not None:
            vectors.index_served(time.perf_counter() - began)
        return found
    near = copy.similar(ids, fetch=max(limit * 5, 100), min_cosine=similarity)  # the statement's fetch
    states = repository.fact_states({c for found in near.values() for c, _ in found})
    found = []
    for fact in ids:
        kept = [(c, cosine) for c, cosine in near.get(fact, []) if states.get(c) in CANDIDATE_STATES]
        found += [Candidate(fact, c, "similar", cosine=cosine) for c, cosine in kept[:limit]]
    return found
