"""Graph health on hand-made graphs whose every number is computed by hand below."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest

from memgraph_neo4j.evaluation.health import graph_health
from memgraph_neo4j.memory.normalize import normalize_entity_name

DIM = 384

# Entities, and the normalised names that collide (normalize_entity_name: NFKC, casefold, collapsed
# spaces, one pair of wrapping brackets and trailing punctuation removed):
#   A "Ada Lovelace"        -> "ada lovelace"      } collide
#   H "ADA  LOVELACE"       -> "ada lovelace"      }
#   C "London"              -> "london"            } collide
#   D "london."             -> "london"            }
#   E "(Analytical Engine)" -> "analytical engine" } collide
#   F "Analytical Engine"   -> "analytical engine" }
#   B "Charles Babbage", G "Difference Engine"     -> unique
# duplicate_name_rate = 6 / 8 = 0.75
NAMES = {"A": "Ada Lovelace", "B": "Charles Babbage", "C": "London", "D": "london.",
         "E": "(Analytical Engine)", "F": "Analytical Engine", "G": "Difference Engine", "H": "ADA  LOVELACE"}

# Facts (head -> tail, state, schema, evidence):
#   f1 A->B active  s1 [p1]     } one edge A-B (parallel facts, both directions, collapse)
#   f2 B->A active  s1 [p1]     }
#   f3 B->C active  s1 [p2]       edge B-C
#   f4 C->A active  s1 [p2]       edge A-C      -> triangle A-B-C
#   f5 D->C pending s2 []         edge C-D      (pendant D on C; no evidence)
#   f6 F->G active  s1 [p3]     } one edge F-G
#   f7 F->G superseded s2 []    } (no evidence)
#   f8 E->E pending s2 [p3]       a self-loop: no edge, but E is in a fact, so not an orphan
FACTS = [("f1", "A", "B", "active", "s1", ["p1"]), ("f2", "B", "A", "active", "s1", ["p1"]),
         ("f3", "B", "C", "active", "s1", ["p2"]), ("f4", "C", "A", "active", "s1", ["p2"]),
         ("f5", "D", "C", "pending", "s2", []), ("f6", "F", "G", "active", "s1", ["p3"]),
         ("f7", "F", "G", "superseded", "s2", []), ("f8", "E", "E", "pending", "s2", ["p3"])]
SCHEMAS = [{"id": "s1", "state": "stable"}, {"id": "s2", "state": "candidate"}, {"id": "s3", "state": "candidate"}]
CONFLICTS = [{"id": "c1", "type": "duplicate", "status": "resolved"},
             {"id": "c2", "type": "duplicate", "status": "open"},
             {"id": "c3", "type": "duplicate", "status": "open"},
             {"id": "c4", "type": "temporal", "status": "needs_review"}]


def _build(test_store, space, entities, facts=(), passages=(), schemas=(), conflicts=()):
    test_store.write("health_graph", space=space, entities=entities, passages=list(passages), schemas=list(schemas),
                     facts=[{"id": f, "head": h, "tail": t, "state": st, "schema": s, "evidence": ev}
                            for f, h, t, st, s, ev in facts], conflicts=list(conflicts))


def test_health_of_a_hand_made_graph(store, test_store, space):
    assert {k: normalize_entity_name(v) for k, v in NAMES.items() if k in "AHCDEF"} == {
        "A": "ada lovelace", "H": "ada lovelace", "C": "london", "D": "london",
        "E": "analytical engine", "F": "analytical engine"}
    _build(test_store, space, [{"id": k, "name": v, "embedding": None} for k, v in NAMES.items()],
           FACTS, ["p1", "p2", "p3"], SCHEMAS, CONFLICTS)

    health = graph_health(store, space)

    # Entity graph: edges A-B, B-C, A-C, C-D, F-G = 5; entities A..H = 8.
    assert health.entities == 8
    assert health.entity_edges == 5
    # Degrees A2 B2 C3 D1 E0 F1 G1 H0: sum 10 = 2 * 5; average 10 / 8 = 1.25.
    assert health.average_degree == pytest.approx(1.25)
    assert health.degree_distribution == {0: 2, 1: 3, 2: 2, 3: 1}
    # Local clustering: A (neighbours B, C; B-C linked) 1/1 = 1; B (A, C; A-C linked) = 1;
    # C (A, B, D: 3 pairs, only A-B linked) = 1/3; D, F, G (degree 1) = 0; E, H (degree 0) = 0.
    # Average over all 8 entities: (1 + 1 + 1/3) / 8 = (7/3) / 8 = 7/24.
    assert health.average_clustering == pytest.approx(7 / 24)
    # Components {A, B, C, D}, {E}, {F, G}, {H} = 4; the largest holds 4 of 8 = 0.5.
    assert health.components == 4
    assert health.largest_component_share == pytest.approx(0.5)
    # Orphans: H only (E is the subject and object of f8).
    assert health.orphan_entities == 1
    assert health.duplicate_name_rate == pytest.approx(0.75)
    assert health.near_duplicate_rate == 0.0  # no entity has an embedding
    # f5 and f7 cite no passage.
    assert health.facts_without_evidence == 2

    assert health.schemas_by_state == {"stable": 1, "candidate": 2}
    assert health.conflicts == {"duplicate": {"open": 2, "resolved": 1}, "temporal": {"needs_review": 1}}
    # Facts: active f1 f2 f3 f4 f6 = 5, pending f5 f8 = 2, superseded f7 = 1.
    # Labels the space has none of are left out (cypher/stats/node_counts).
    assert health.nodes == {"Fact": {"total": 8, "by_state": {"active": 5, "pending": 2, "superseded": 1}},
                            "Entity": {"total": 8, "by_state": {}}, "Passage": {"total": 3, "by_state": {"ok": 3}},
                            "Schema": {"total": 3, "by_state": {"stable": 1, "candidate": 2}},
                            "Conflict": {"total": 4, "by_state": {"open": 2, "resolved": 1, "needs_review": 1}}}
    # 8 facts: 8 SUBJECT, 8 OBJECT, 8 INSTANCE_OF; evidence f1 f2 f3 f4 f6 f8 = 6.
    assert health.relationships == {"SUBJECT": 8, "OBJECT": 8, "INSTANCE_OF": 8, "EVIDENCED_BY": 6}
    assert health.space == space
    json.dumps(asdict(health))
    # the projection is gone
    assert not [g for g in test_store.read("health_graphs") if g["name"].startswith(f"health_{space}_")]


def _vector(**coordinates: float) -> list[float]:
    v = np.zeros(DIM)
    for axis, value in coordinates.items():
        v[int(axis[1:])] = value
    return v.tolist()


def test_near_duplicates_by_embedding(store, test_store, space):
    # Unit vectors on axes x0, x1, x2 (384-dimensional, zero elsewhere):
    #   X = x0, Y = 0.96 x0 + 0.28 x1 (0.9216 + 0.0784 = 1), Z = x1, U = 0.8 x0 + 0.6 x2, W = x2, V: no embedding.
    # Cosines: X.Y 0.96, X.U 0.80, Y.U 0.768, Y.Z 0.28, U.W 0.60; X.Z = X.W = Z.U = Z.W = Y.W = 0.
    entities = [{"id": "X", "name": "X", "embedding": _vector(x0=1.0)},
                {"id": "Y", "name": "Y", "embedding": _vector(x0=0.96, x1=0.28)},
                {"id": "Z", "name": "Z", "embedding": _vector(x1=1.0)},
                {"id": "U", "name": "U", "embedding": _vector(x0=0.8, x2=0.6)},
                {"id": "W", "name": "W", "embedding": _vector(x2=1.0)},
                {"id": "V", "name": "V", "embedding": None}]
    _build(test_store, space, entities)
    store.run_implicit("admin/await_indexes", timeout=60)

    # >= 0.95: only X-Y -> X, Y near; 2 of 6 entities (V counts in the denominator).
    assert graph_health(store, space).near_duplicate_rate == pytest.approx(2 / 6)
    # >= 0.75: X-Y 0.96, X-U 0.80, Y-U 0.768 -> X, Y, U; 3 of 6.
    assert graph_health(store, space, near_duplicate_threshold=0.75).near_duplicate_rate == pytest.approx(3 / 6)
    # >= 0.99: none.
    assert graph_health(store, space, near_duplicate_threshold=0.99).near_duplicate_rate == 0.0

    # No facts: six isolated entities, six components of one, every degree and coefficient 0.
    health = graph_health(store, space)
    assert (health.entities, health.entity_edges, health.orphan_entities, health.components) == (6, 0, 6, 6)
    assert health.largest_component_share == pytest.approx(1 / 6)
    assert health.average_clustering == 0.0 and health.average_degree == 0.0
    assert health.degree_distribution == {0: 6}


def test_empty_space_gives_zeros(store, space):
    health = graph_health(store, space)
    assert (health.entities, health.entity_edges, health.components, health.orphan_entities,
            health.facts_without_evidence) == (0, 0, 0, 0, 0)
    assert (health.average_degree, health.average_clustering, health.largest_component_share,
            health.duplicate_name_rate, health.near_duplicate_rate) == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert health.degree_distribution == {} and health.conflicts == {} and health.schemas_by_state == {}
    assert health.relationships == {} and health.nodes == {}
    json.dumps(asdict(health))
