"""Stage IV bridging computed by resolution (no Neo4j): the new entities' nearest stored entities come
from the same vector read as resolution's, the batch's other new entities from its similarity matrix."""

from __future__ import annotations

import numpy as np
from test_resolve import FakeEmbedder, FakeEntities, unit

from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.resolve import Mention, resolve_mentions
from memgraph_neo4j.repository.passages import PassageRow, next_links

A, A2, B = unit(1.0, 0.0, 0.0), unit(1.0, 0.6, 0.0), unit(0.0, 1.0, 0.0)  # cos(A, A2) = 0.86, B far


def test_new_entities_bridge_to_stored_and_to_each_other_in_one_read():
    stored = FakeEntities(stored={"E-stored": ("Person", unit(1.0, 0.3, 0.0))})  # 0.96 from A, 0.97 from A2
    embedder = FakeEmbedder({"Ann": A, "Anna Maria": A2, "Bob": B})
    res = resolve_mentions(stored, [Mention("Ann", "Person", "p"), Mention("Anna Maria", "Person", "p"),
                                    Mention("Bob", "Person", "p")], embedder, merge_threshold=0.99,
                           bridge=(10, 0.8))
    assert len(stored.neighbor_calls) == 1  # resolution and bridging share the vector read
    ann, anna, bob = content_hash("ann"), content_hash("anna maria"), content_hash("bob")
    edges = {(e.id, e.neighbor): round(e.cosine, 2) for e in res.bridges}
    assert edges == {(ann, "E-stored"): 0.96, (ann, anna): 0.86, (anna, "E-stored"): 0.97, (anna, ann): 0.86}
    assert not any(bob in pair for pair in edges)  # below the threshold


def test_each_new_entity_keeps_its_k_nearest():
    stored = FakeEntities(stored={f"E{i}": ("Thing", unit(1.0, 0.1 * i, 0.0)) for i in range(5)})
    res = resolve_mentions(stored, [Mention("Ann", "Thing", "p")], FakeEmbedder({"Ann": A}), merge_threshold=1.01,
                           bridge=(2, 0.5))
    assert [(e.neighbor, round(e.cosine, 3)) for e in res.bridges] == [("E0", 1.0), ("E1", round(float(
        np.dot(A, unit(1.0, 0.1, 0.0))), 3))]


def test_next_links_reach_back_to_a_stored_passage():
    rows = [PassageRow(id=f"p{i}", doc_id="d", index=i, title=None, text="t", start=0, end=1,
                       previous=f"p{i - 1}" if i else None) for i in range(2, 4)]
    assert next_links(rows) == [{"from": "p1", "to": "p2"}, {"from": "p2", "to": "p3"}]
    bare = [PassageRow(id=f"q{i}", doc_id="d", index=i, title=None, text="t", start=0, end=1) for i in range(2)]
    assert next_links(bare) == [{"from": "q0", "to": "q1"}]
