"""What test_chaos.py compares and builds: the corpus, a space's snapshot, and clean reference builds.

The corpus: six documents of the demo corpus (they plant a mutual exclusion, a temporal conflict and a
granularity conflict) and two MuSiQue passages read from the shared data at test time (never copied into
the repository; left out when the folder is absent). Offline extractor + MiniLM, as a user runs it.

A snapshot is every node (labels and properties, timestamps and vectors left out) and every relationship
(type, its ends' stable ids, properties) of the space, as multisets. SIMILAR weights are compared within
the tolerance, everything else exactly. `differences` says which state differs, one line each.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from memgraph_neo4j.demo.scenario import CORPUS

ROOT = Path(__file__).resolve().parents[2]
DEMO_DOCS = ["alan-turing.md", "computing-timeline.md", "marie-curie.md", "warsaw.md", "microsoft.md",
             "microsoft-moves.md"]
MUSIQUE_INDEXES = [0, 7]  # two passages of corpus.json (HippoRAG, MuSiQue: CC BY 4.0)
BATCH = 2  # chunks per ingest batch in the chaos runs: a batch of documents spans several batches

# SIMILAR weights are cosines of stored entity vectors, all fp32 whatever the call's size (embeddings/
# minilm.py; a text's vector moves by < 7e-8 with its batch), written to Neo4j as floats: 1e-5 is far above
# what the arithmetic moves and far below the ~1.2e-3 that mixed bf16/fp32 vectors once moved them.
STRICT_TOLERANCE = 1e-5

# and every timestamp: a property whose name ends in _at; `changed` and `created` are the memory versions
# that last touched and that created the node (repository/batch.py), which follow the write history as the
# version does
VOLATILE = {"space", "changed", "created"}
# Symmetric relationships whose stored direction follows the ingest history (which end came second: the
# new entity of a SIMILAR bridge, the new fact of a CONFLICTS_WITH pair), a finding reported to the lead;
# nothing reads the direction (bridge_similar MERGEs without one, the PPR projection is undirected,
# conflict_detail lists the pairs), so they are compared as undirected.
UNDIRECTED = {"SIMILAR", "CONFLICTS_WITH"}
# the memory version, the lease and what retractions deleted (for the retrieval copies): bookkeeping
SKIPPED_LABELS = {"MemoryState", "IngestLease", "Tombstone"}


def volatile(key: str) -> bool:
    return key in VOLATILE or key.endswith("_at")


def shared_data() -> Path | None:
    for candidate in (os.environ.get("MEMGRAPH_SHARED_DATA"), ROOT.parent / "shared" / "data",
                      ROOT.parents[1] / "shared" / "data", Path("/work/shared/data")):
        if candidate and (Path(candidate) / "musique_train" / "corpus.json").is_file():
            return Path(candidate)
    return None


def corpus():
    """The chaos corpus as Documents, in a fixed order (index = the document's number in the test)."""
    from memgraph_neo4j.ingest.readers import Document
    from memgraph_neo4j.ingest.sources import documents_of

    docs = [d for name in DEMO_DOCS for d in documents_of([CORPUS / name])]
    data = shared_data()
    if data is not None:
        passages = json.loads((data / "musique_train" / "corpus.json").read_text())
        docs += [Document(title=passages[i]["title"], text=passages[i]["text"], source=f"musique-{i}.txt")
                 for i in MUSIQUE_INDEXES]
    return docs


def ontology(threshold: int | None = None):
    """The shipped ontology (promotion: the percentile rule), or with a fixed promotion threshold tau."""
    from memgraph_neo4j.memory.ontology import load_ontology

    base = load_ontology()
    if threshold is None:
        return base
    return base.model_copy(update={"promotion": base.promotion.model_copy(
        update={"threshold": threshold, "percentile": None})})


def memory(store, space: str, embedder, extractor="offline", threshold: int | None = None):
    from memgraph_neo4j.api import MemoryGraph

    return MemoryGraph(space=space, store=store, embedder=embedder, extractor=extractor,
                       ontology=ontology(threshold))


def _freeze(value):
    if isinstance(value, list):
        return tuple(sorted(map(_freeze, value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, float):
        return round(value, 9)
    return value


@dataclass
class Snapshot:
    nodes: Counter = field(default_factory=Counter)  # (labels, frozen properties)
    edges: Counter = field(default_factory=Counter)  # (type, source, target, frozen properties)
    similar: dict = field(default_factory=dict)  # (source, target) -> [weights]

    def empty(self) -> bool:
        return not self.nodes and not self.edges


def snapshot(test_store, space: str) -> Snapshot:
    snap = Snapshot()
    for r in test_store.read("chaos_nodes", space=space):
        labels = tuple(sorted(r["labels"]))
        if SKIPPED_LABELS & set(labels):
            continue
        props = {k: v for k, v in r["props"].items() if not volatile(k) and v is not None}
        snap.nodes[(labels, _freeze(props))] += 1
    for r in test_store.read("chaos_edges", space=space):
        if SKIPPED_LABELS & (set(r["source_labels"]) | set(r["target_labels"])):
            continue
        props = {k: v for k, v in r["props"].items() if not volatile(k)}
        ends = (r["source"], r["target"])
        if r["type"] in UNDIRECTED:
            ends = tuple(sorted(ends))
        if r["type"] == "SIMILAR":
            snap.similar.setdefault(ends, []).append(props.pop("weight"))
        snap.edges[(r["type"], *ends, _freeze(props))] += 1
    return snap


def _node_key(node) -> tuple:
    labels, props = node
    props = dict(props)
    return labels, props.get("id", props.get("name"))


def differences(got: Snapshot, want: Snapshot, tolerance: float = STRICT_TOLERANCE, limit: int = 12) -> list[str]:
    """One line per differing state: a node whose properties differ (the properties named), a node or
    relationship only one side has, a SIMILAR weight out of tolerance. Empty: the same space."""
    out: list[str] = []
    extra, missing = got.nodes - want.nodes, want.nodes - got.nodes
    by_key = {_node_key(n): n for n in missing.elements()}
    for node in extra.elements():
        key = _node_key(node)
        if key in by_key:
            other = dict(by_key.pop(key)[1])
            mine = dict(node[1])
            changed = {k: (mine.get(k), other.get(k)) for k in set(mine) | set(other) if mine.get(k) != other.get(k)}
            out.append(f"node {'/'.join(key[0])} {key[1]}: got != want {changed}")
        else:
            out.append(f"node only in the space: {node[0]} {dict(node[1])}")
    out += [f"node missing from the space: {n[0]} {dict(n[1])}" for n in by_key.values()]
    for edge in (got.edges - want.edges).elements():
        out.append(f"edge only in the space: {edge}")
    for edge in (want.edges - got.edges).elements():
        out.append(f"edge missing from the space: {edge}")
    for pair, weights in got.similar.items():
        other = want.similar.get(pair)
        if other is not None and len(other) == len(weights):
            worst = max(abs(a - b) for a, b in zip(sorted(weights), sorted(other)))
            if worst > tolerance:
                out.append(f"SIMILAR {pair}: weight {weights} vs {other} (|diff| {worst:.2e} > {tolerance})")
    return out[:limit] + ([f"... {len(out) - limit} more"] if len(out) > limit else [])


def max_similar_difference(got: Snapshot, want: Snapshot) -> float:
    return max((abs(a - b) for pair, w in got.similar.items() if pair in want.similar
                for a, b in zip(sorted(w), sorted(want.similar[pair]))), default=0.0)


def tombstones_out(snap: Snapshot) -> Snapshot:
    """Without what retraction keeps by design (memory/retract.py), which a clean build never has:
    facts in state `retracted`, conflicts `obsolete` because of them, the schemas only they instantiate
    (frequency 0), the types only those schemas name, and all their relationships."""
    props = {dict(p).get("id"): (labels, dict(p)) for labels, p in snap.nodes}
    gone = {i for i, (labels, p) in props.items()
            if ("Fact" in labels and p.get("state") == "retracted")
            or ("Conflict" in labels and p.get("status") == "obsolete")}
    live_schemas = {t for kind, s, t, _ in snap.edges if kind == "INSTANCE_OF" and s not in gone}
    gone |= {i for i, (labels, p) in props.items()
             if "Schema" in labels and p.get("frequency") == 0 and i not in live_schemas}
    live_types = {t for kind, s, t, _ in snap.edges
                  if (kind == "HAS_TYPE") or (kind in ("HEAD_TYPE", "TAIL_TYPE") and s not in gone)}
    gone |= {i for i, (labels, p) in props.items() if "Type" in labels and i not in live_types}
    out = Snapshot(similar=snap.similar)
    for node, n in snap.nodes.items():
        if dict(node[1]).get("id") not in gone:
            out.nodes[node] = n
    for edge, n in snap.edges.items():
        if edge[1] not in gone and edge[2] not in gone and dict(edge[3]).get("conflict") not in gone:
            out.edges[edge] = n
    return out
