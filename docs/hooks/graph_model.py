"""The graph model diagram, read from a real Neo4j at build time: the demo corpus (and a three-message
conversation, for the episode labels) is ingested into a space of its own, the labels and relationships that
space holds are read (cypher/docs/graph_model_*), drawn as a Mermaid flowchart that Material renders, and the
space is deleted again.

Which Neo4j: NEO4J_URI (with NEO4J_USERNAME / NEO4J_PASSWORD) when set, else the local server when it is
running; the build starts none. MEMGRAPH_DOCS_NEO4J=off skips it. When no Neo4j answers, or anything fails,
the build goes on with the last generated text, checked in as docs/generated/graph-model.md, and the page
says so. A successful run rewrites that file when the model changed: commit it.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

SNAPSHOT = Path(__file__).resolve().parents[1] / "generated" / "graph-model.md"
SPACE = f"docs_graph_model_{os.getpid()}"  # two builds at once on one server keep apart
CHAT = [  # one session of three messages: Episode passages, their NEXT chain and SPOKEN_BY speakers
    {"conversation": "docs", "session": "1", "speaker": "Ana", "text": "Acme is based in Paris.",
     "time": "2024-01-10T09:00:00Z"},
    {"conversation": "docs", "session": "1", "speaker": "Bo", "text": "I moved to Berlin in 2023.",
     "time": "2024-01-10T09:01:00Z"},
    {"conversation": "docs", "session": "1", "speaker": "Ana", "text": "Acme moved to Berlin too.",
     "time": "2024-01-10T09:02:00Z"},
]
log = logging.getLogger("mkdocs.hooks.graph_model")


@dataclass(frozen=True)
class Diagram:
    markdown: str  # what the page shows: a line saying where it came from, then the model
    fresh: bool  # read from Neo4j in this build (False: the snapshot)


def _connection():
    """(Connection, None), or (None, why there is none)."""
    from memgraph_neo4j.config import Connection, Settings
    from memgraph_neo4j.server.connection import connection
    from memgraph_neo4j.server.launcher import LocalNeo4j

    if os.environ.get("MEMGRAPH_DOCS_NEO4J", "").strip().lower() in ("off", "0", "no", "false"):
        return None, "MEMGRAPH_DOCS_NEO4J=off"
    if os.environ.get("NEO4J_URI"):
        return connection(), None
    local = LocalNeo4j(Settings())
    if local.running_pid() is None:
        return None, f"NEO4J_URI is not set and the local server ({local.bolt_uri}) is not running"
    return Connection(uri=local.bolt_uri, password=local.password()), None


def _label(labels: list[str]) -> str:
    return ":".join(labels)


def _ordered(labels: list[str]) -> list[str]:
    # Passage before Episode, Fact before its marker labels: the label every such node has comes first
    main = ("Passage", "Fact", "Entity", "Schema", "Document")
    return sorted(labels, key=lambda name: (name not in main, name))


def render(nodes: list[dict], relationships: list[dict], server: str) -> str:
    """The model as Markdown: a Mermaid flowchart, then the labels and relationships with their property keys."""
    merged: dict[tuple[str, ...], dict] = {}
    for row in nodes:  # one entry per label set, whatever order Neo4j listed the labels in
        entry = merged.setdefault(tuple(_ordered(row["labels"])), {"nodes": 0, "keys": set()})
        entry["nodes"] += row["nodes"]
        entry["keys"] |= set(row["keys"])
    edges: dict[tuple[str, str, str], dict] = {}
    for row in relationships:
        key = (_label(_ordered(row["start"])), row["type"], _label(_ordered(row["end"])))
        entry = edges.setdefault(key, {"count": 0, "keys": set()})
        entry["count"] += row["count"]
        entry["keys"] |= set(row["keys"])
    ids = {_label(list(labels)): "n" + "_".join(labels) for labels in merged}
    chart = ["```mermaid", "flowchart LR"]
    chart += [f'    {ids[_label(list(labels))]}["{_label(list(labels))}"]' for labels in sorted(merged)]
    chart += [f"    {ids[start]} -->|{kind}| {ids[end]}" for start, kind, end in sorted(edges)]
    chart.append("```")
    label_rows = ["| labels | nodes | property keys |", "|---|---|---|"]
    label_rows += [f"| `{_label(list(labels))}` | {entry['nodes']} | "
                   f"{', '.join(f'`{k}`' for k in sorted(entry['keys']))} |"
                   for labels, entry in sorted(merged.items())]
    edge_rows = ["| relationship | count | property keys |", "|---|---|---|"]
    edge_rows += [f"| `({start})-[:{kind}]->({end})` | {entry['count']} | "
                  f"{', '.join(f'`{k}`' for k in sorted(entry['keys']))} |"
                  for (start, kind, end), entry in sorted(edges.items())]
    return "\n\n".join([
        f"<!-- Written by docs/hooks/graph_model.py from {server}; a build that reaches a Neo4j rewrites it. -->",
        "\n".join(chart),
        "What the demo space held when it was read: every combination of labels with its node count and "
        "property keys (on some nodes only, for some keys), and every relationship pattern.",
        "\n".join(label_rows),
        "\n".join(edge_rows),
    ]) + "\n"


def generate(conn) -> str:
    """Build the space on `conn`, read its model, delete it; the rendered Markdown."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.demo.scenario import corpus_files
    from memgraph_neo4j.store import GraphStore

    with GraphStore.connect(conn) as store:
        versions = store.read("server/components")[0]
        server = f"Neo4j {versions['neo4j']} {versions['edition']}, GDS {versions['gds']}"
        with MemoryGraph(space=SPACE, store=store, extractor="offline") as memory:
            try:
                memory.ingest(corpus_files(), progress=False)
                memory.ingest_conversations(CHAT)
                nodes = store.read("docs/graph_model_nodes", space=SPACE)
                relationships = store.read("docs/graph_model_relationships", space=SPACE)
            finally:
                memory.delete()
    return render(nodes, relationships, f"the demo corpus ingested on {server}")


def diagram() -> Diagram:
    conn, why = _connection()
    if conn is not None:
        try:
            text = generate(conn)
        except Exception as exc:  # noqa: BLE001 - any failure: the build goes on with the snapshot
            why = f"{conn.uri} failed: {' '.join(str(exc).split())[:300]}"
        else:
            if not SNAPSHOT.is_file() or SNAPSHOT.read_text(encoding="utf-8") != text:
                SNAPSHOT.write_text(text, encoding="utf-8")
                log.info("graph model changed: wrote %s (commit it)", SNAPSHOT)
            note = f'!!! info "Generated for this build"\n    Read from the Neo4j at `{conn.uri}`.'
            return Diagram(f"{note}\n\n{text}", fresh=True)
    log.info("graph model: the snapshot %s (%s)", SNAPSHOT.name, why)
    note = ('!!! warning "Not generated in this build"\n    No Neo4j was read for this build '
            f"({why}): this is the last generated model, `docs/generated/graph-model.md`.")
    return Diagram(f"{note}\n\n{SNAPSHOT.read_text(encoding='utf-8')}", fresh=False)
