"""The docs' graph model (docs/hooks/graph_model.py): drawn from what a space holds, one node per label set
whatever order Neo4j lists the labels in; without a reachable Neo4j the build shows the checked-in snapshot,
says why, and leaves the snapshot as it was. Generated from the test server: tests/integration/test_docs_site.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "hooks"))
import graph_model  # noqa: E402

NODES = [{"labels": ["Passage"], "nodes": 2, "keys": ["id", "text"]},
         {"labels": ["Episode", "Passage"], "nodes": 1, "keys": ["speaker"]},
         {"labels": ["Passage", "Episode"], "nodes": 2, "keys": ["time"]},
         {"labels": ["Entity"], "nodes": 3, "keys": ["name"]}]
RELATIONSHIPS = [{"start": ["Episode", "Passage"], "type": "SPOKEN_BY", "end": ["Entity"], "count": 1, "keys": []},
                 {"start": ["Passage", "Episode"], "type": "SPOKEN_BY", "end": ["Entity"], "count": 2, "keys": []},
                 {"start": ["Passage"], "type": "MENTIONS", "end": ["Entity"], "count": 4, "keys": ["merged_keys"]}]


def test_the_model_is_drawn_from_what_the_space_holds():
    text = graph_model.render(NODES, RELATIONSHIPS, "a test")
    assert "    nPassage_Episode -->|SPOKEN_BY| nEntity" in text
    assert "    nPassage -->|MENTIONS| nEntity" in text
    assert text.count('nPassage_Episode["Passage:Episode"]') == 1  # one node, whatever the labels' order
    assert "| `Passage:Episode` | 3 | `speaker`, `time` |" in text
    assert "| `(Passage:Episode)-[:SPOKEN_BY]->(Entity)` | 3 |  |" in text
    assert "| `(Passage)-[:MENTIONS]->(Entity)` | 4 | `merged_keys` |" in text


@pytest.mark.parametrize("env, why", [({"MEMGRAPH_DOCS_NEO4J": "off"}, "MEMGRAPH_DOCS_NEO4J=off"),
                                      ({"NEO4J_URI": "bolt://127.0.0.1:1"}, "bolt://127.0.0.1:1 failed: no Neo4j")])
def test_without_neo4j_the_snapshot_is_shown_and_kept(env, why, monkeypatch):
    monkeypatch.delenv("MEMGRAPH_DOCS_NEO4J", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    before = graph_model.SNAPSHOT.read_text(encoding="utf-8")
    diagram = graph_model.diagram()
    assert not diagram.fresh
    assert "Not generated in this build" in diagram.markdown and why in diagram.markdown
    assert diagram.markdown.endswith(before) and "flowchart LR" in before
    assert graph_model.SNAPSHOT.read_text(encoding="utf-8") == before
