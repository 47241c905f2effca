"""Graph health of one memory space (paper Table 5, and beyond it), computed in Neo4j + GDS.

The entity graph is the graph whose nodes are the space's Entity nodes and whose edges join two
distinct entities that some fact links (its SUBJECT and its OBJECT), whatever the fact's state. It is
undirected and simple: parallel facts, and facts in both directions, make one edge; a fact from an
entity to itself makes none (but that entity is not an orphan, it is in a fact).

Conventions (GDS's, stated here so the numbers can be checked by hand):

- every entity is a node, isolated ones included: an isolated entity has degree 0, clustering 0
  and is a weakly connected component of its own;
- the local clustering coefficient of a node with fewer than two neighbours is 0, and the average
  is taken over all entities (GDS `localClusteringCoefficient`, `averageClusteringCoefficient`);
- average degree = 2 * edges / entities;
- duplicate-name rate = share of all entities whose `normalize_entity_name` (the writer's exact-merge
  key) equals another entity's; entities without a name collide with nothing;
- near-duplicate rate = share of all entities (embedded or not) with another entity of the space at
  cosine >= the threshold among its nearest neighbours in the `entity_embedding` index;
- value fidelity: of the facts (retracted aside) whose head, tail or time states a number, those none of
  whose evidence passages states every number and month the fact states (memory/values.py: thousands
  separators and leading zeros dropped, month names and abbreviations as one month). A merge that
  rewrote a value ("June 8, 1969" into "December 4, 1969") shows here; so does an extractor's misreading;
- an empty space gives zeros (no GDS projection is made), never an error.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field

from memgraph_neo4j.memory.normalize import normalize_entity_name
from memgraph_neo4j.memory.values import fact_values, values_in
from memgraph_neo4j.repository.conflicts import ConflictRepository
from memgraph_neo4j.repository.health import FactWithValues, HealthRepository
from memgraph_neo4j.repository.stats import StatsRepository
from memgraph_neo4j.store import GraphStore

CONCURRENCY = 4  # GDS threads: the server is shared with ingest and retrieval
NEAR_DUPLICATE_FETCH = 50  # index neighbours per entity; the index holds every space's entities


@dataclass
class GraphHealth:
    """Health metrics of one space; JSON-serialisable through `dataclasses.asdict`."""

    space: str
    nodes: dict[str, dict] = field(default_factory=dict)  # label -> {"total": n, "by_state": {state: n}}
    relationships: dict[str, int] = field(default_factory=dict)
    entities: int = 0
    entity_edges: int = 0
    average_degree: float = 0.0
    average_clustering: float = 0.0
    components: int = 0
    largest_component_share: float = 0.0
    orphan_entities: int = 0
    duplicate_name_rate: float = 0.0
    near_duplicate_rate: float = 0.0
    schemas_by_state: dict[str, int] = field(default_factory=dict)
    conflicts: dict[str, dict[str, int]] = field(default_factory=dict)  # type -> status -> count
    facts_without_evidence: int = 0  # must be 0
    facts_with_values: int = 0  # facts stating a number (head, tail or time)
    values_unstated: int = 0  # of those, facts whose numbers no evidence passage states
    values_unstated_examples: list[str] = field(default_factory=list)  # the first few, "head | relation | tail"
    degree_distribution: dict[int, int] = field(default_factory=dict)  # degree -> entities


def duplicate_name_share(names: list[str | None]) -> float:
    """Share of names whose normalised form is also another name's (None and empty names never collide)."""
    if not names:
        return 0.0
    keys = [normalize_entity_name(n) if n else "" for n in names]
    counts = Counter(k for k in keys if k)
    return sum(1 for k in keys if k and counts[k] > 1) / len(names)


def value_fidelity(facts: list[FactWithValues], examples: int = 5) -> tuple[int, int, list[str]]:
    """(facts stating values, facts whose values no evidence passage states, the first `examples` of those)."""
    unstated = []
    for f in facts:
        values = fact_values(f.head, f.tail, f.time or "")
        if values and not any(values_in(values, text or "") for text in f.texts):
            unstated.append(f"{f.head} | {f.relation} | {f.tail}" + (f" ({f.time})" if f.time else ""))
    return len(facts), len(unstated), unstated[:examples]


def graph_health(store: GraphStore, space: str, near_duplicate_threshold: float = 0.95) -> GraphHealth:
    stats = StatsRepository(store, space).memory_stats()
    health = HealthRepository(store, space)
    conflict_counts, _ = ConflictRepository(store, space).counts()
    conflicts: dict[str, dict[str, int]] = {}
    for (kind, status), n in sorted(conflict_counts.items()):
        conflicts.setdefault(kind, {})[status] = n

    counts = health.entity_graph_counts()
    report = GraphHealth(
        space=space,
        nodes={label: count.model_dump() for label, count in stats.nodes.items()},
        relationships=dict(stats.relationships),
        entities=counts.entities,
        entity_edges=counts.edges,
        orphan_entities=counts.orphans,
        schemas_by_state=dict(stats.nodes["Schema"].by_state) if "Schema" in stats.nodes else {},
        conflicts=conflicts,
        facts_without_evidence=health.facts_without_evidence(),
    )
    report.facts_with_values, report.values_unstated, report.values_unstated_examples = value_fidelity(
        health.facts_with_values())
    if not counts.entities:
        return report

    report.average_degree = 2 * counts.edges / counts.entities
    report.duplicate_name_rate = duplicate_name_share([e.name for e in health.entity_names()])
    near = health.near_duplicates(near_duplicate_threshold, NEAR_DUPLICATE_FETCH)
    report.near_duplicate_rate = near.near / counts.entities

    graph = f"health_{space}_{uuid.uuid4().hex[:8]}"
    try:
        health.project_entity_graph(graph)
        report.average_clustering = health.average_clustering(graph, CONCURRENCY)
        components = health.components(graph, CONCURRENCY)
        report.degree_distribution = health.degree_distribution(graph, CONCURRENCY)
    finally:
        health.drop(graph)
    report.components = components.components
    report.largest_component_share = components.largest / counts.entities
    return report
