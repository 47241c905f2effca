"""A graph copy kept on disk holds its owners' edges and its node rows as arrays (ppr/packed.py): loaded, it
answers and takes further writes exactly as the copy that never left the process."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangedEntity, ChangedFact, ChangedPassage, Changes
from memgraph_neo4j.repository.projections import projection_spec
from memgraph_neo4j.retrieval.ppr.graph_copy import GraphCopy
from memgraph_neo4j.retrieval.ppr.packed import NodeRows, OwnedEdges


def _space(rng: random.Random, version: int, n_entities: int = 40, n_passages: int = 15, n_facts: int = 60,
           prefix: str = "") -> Changes:
    """A random space (or a write of one: ids reused across calls overwrite their owners)."""
    names = [f"e{i}" for i in range(n_entities)]
    entities = [ChangedEntity(e, e.upper(), (rng.choice(["Person", "Place", "Work"]),),
                              ((rng.choice(names), 0.9),) if rng.random() < 0.2 else ()) for e in names]
    passages = [ChangedPassage(f"{prefix}p{i}", f"Title {i}", tuple(rng.sample(names, rng.randint(0, 6))))
                for i in range(n_passages)]
    facts = [ChangedFact(f"{prefix}f{i}", rng.choice(["active", "pending", "discarded"]),
                         rng.choice(["knows", "co_occurs_with"]), rng.choice(names), rng.choice(names))
             for i in range(n_facts)]
    return Changes(version - 1, version, True, facts, [], passages, entities, ["Person", "Place", "Work"])


def _same(a: GraphCopy, b: GraphCopy) -> None:
    assert a.edges().keys() == b.edges().keys()
    for key, weight in a.edges().items():
        assert b.edges()[key] == pytest.approx(weight, abs=1e-12)
    x = np.random.default_rng(0).random(len(a.nodes))
    assert len(a.nodes) == len(b.nodes)
    np.testing.assert_allclose(a.transition @ x, b.transition @ x, atol=1e-12)
    for row, node_id in enumerate(a.nodes.ids):
        kind = ("entity", "type", "passage")[a.nodes.kinds[row]]
        assert a.nodes.row(kind, node_id) == b.nodes.row(kind, node_id)


@pytest.mark.parametrize("seed", range(5))
def test_a_loaded_copy_answers_and_takes_writes_as_the_one_kept(seed):
    rng = random.Random(seed)
    spec = projection_spec(RetrievalConfig())
    kept = GraphCopy(spec)
    kept.apply(_space(rng, 1))
    kept.compacted()
    loaded = pickle.loads(pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
    assert loaded.nodes._row._row is None  # sorted arrays: no dict built by the load
    _same(kept, loaded)
    assert loaded.nodes._row._row is None  # lookups alone do not build it either
    # the same writes on both: owners rewritten, new ones, deletions, a removed passage and entity
    for version in range(2, 5):
        write = _space(rng, version, n_entities=45, n_passages=4, n_facts=8, prefix=f"w{version}")
        write.removed_passages = [f"p{version}"]
        write.removed_entities = [f"e{30 + version}"] if version == 4 else []
        for copy in (kept, loaded):
            copy.apply(write)
        _same(kept, loaded)
    again = pickle.loads(pickle.dumps(loaded, protocol=pickle.HIGHEST_PROTOCOL))  # written after writes
    _same(kept, again)


def test_owned_edges_get_and_pack():
    owned = OwnedEdges()
    owned[("fact", "a")] = [(0, 1, 1.0)]
    owned[("passage", "p")] = [(2, 0, 1.0), (2, 1, 1.0)]
    owned[("fact", "gone")] = []
    owned.pack()
    assert owned.get(("fact", "a")) == [(0, 1, 1.0)] and owned.get(("fact", "gone")) == ()  # empty owners go
    owned[("fact", "a")] = [(0, 3, 0.5)]  # set after the pack: wins over the packed entry
    u, v, w = owned.arrays()
    assert sorted(zip(u.tolist(), v.tolist(), w.tolist())) == [(0, 3, 0.5), (2, 0, 1.0), (2, 1, 1.0)]
    back = pickle.loads(pickle.dumps(owned))
    assert back.get(("fact", "a")) == [(0, 3, 0.5)] and back.get(("passage", "p")) == [(2, 0, 1.0), (2, 1, 1.0)]


def test_node_rows_after_a_load():
    rows = NodeRows()
    rows[("entity", "Zoë")] = 0  # not ASCII: ids are compared as utf-8 bytes
    rows[("entity", "ada")] = 1
    rows[("type", "Person")] = 2
    back = pickle.loads(pickle.dumps(rows))
    assert back.get(("entity", "Zoë")) == 0 and back.get(("entity", "ada")) == 1
    assert back.get(("entity", "Person")) is None and back.get(("passage", "ada")) is None
    assert back.get(("entity", "ad")) is None and back.get(("entity", "adam")) is None
    back[("passage", "p")] = 3  # a write brings the dict back, with every row
    assert back.get(("entity", "Zoë")) == 0 and back.get(("passage", "p")) == 3 and len(back) == 4
