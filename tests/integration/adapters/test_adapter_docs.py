"""docs/guides/adapters.md runs as pasted: its ```python blocks, in order, in one namespace (as a reader pastes them
into one session), against the test instance, on test spaces (the docs' space names replaced); the blocks that
need a hosted model (OpenAI) are only compiled. The KG-builder import reads a graph written as neo4j-graphrag's
KG builder writes one."""

from __future__ import annotations

import contextlib
import io
import re
import uuid
from pathlib import Path

import pytest

for framework, extra in (("langgraph", "langgraph"), ("neo4j_graphrag", "neo4j-graphrag"),
                         ("llama_index.core", "llamaindex")):
    pytest.importorskip(framework, reason=f"the [{extra}] extra: pip install 'memgraph-neo4j[{extra}]'")

from adapter_memory import drop_space, new_space  # noqa: E402
from readme_blocks import blocks  # noqa: E402

from memgraph_neo4j.api import MemoryGraph  # noqa: E402

DOCS = Path(__file__).resolve().parents[3] / "docs" / "guides" / "adapters.md"
NEEDS_A_MODEL = re.compile(r"[Oo]pen[Aa][Ii]")


@pytest.fixture
def kg_graph(test_store):
    """A KG-builder graph (no space) whose document paths start with a prefix of this test's own."""
    prefix = f"t_kg_{uuid.uuid4().hex[:8]}/"
    test_store.write("adapters/kg_builder_graph", prefix=prefix)
    yield prefix
    test_store.write("adapters/kg_builder_delete", prefix=prefix)


def test_the_examples_run_as_pasted(neo4j_connection, store, kg_graph, monkeypatch, tmp_path):
    for name, value in (("NEO4J_URI", neo4j_connection.uri), ("NEO4J_USERNAME", neo4j_connection.username),
                        ("NEO4J_PASSWORD", neo4j_connection.password),
                        ("NEO4J_DATABASE", neo4j_connection.database)):
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    demo, kg = new_space("t_docs"), new_space("t_docs")
    namespace: dict = {"__name__": "__docs__"}
    ran, out = [], io.StringIO()
    try:
        for block in blocks(path=DOCS):
            code = block.code.replace("adapters-demo", demo).replace('"kg-import"', f'"{kg}"')
            code = code.replace('path_prefix=""', f'path_prefix="{kg_graph}"')
            compiled = compile(code, f"docs/guides/adapters.md:{block.line}", "exec")
            if NEEDS_A_MODEL.search(code):
                continue
            with contextlib.redirect_stdout(out):
                exec(compiled, namespace)  # noqa: S102 - the docs' own code
            ran.append(block.line)
        assert len(ran) == 6, ran  # setup, LangChain, LangGraph, neo4j-graphrag, the KG import, LlamaIndex
        printed = out.getvalue()
        assert "Isaac Newton" in printed and "Ada likes green tea." in printed
        kg_memory = MemoryGraph(space=kg, store=store)
        evidence = {f.text: kg_memory.provenance(f.id).evidence[0].text for f in kg_memory.facts()}
        kg_memory.close()
        assert evidence == {
            # WORKS_AT -> works_at, which the ontology's aliases name employed_by
            "Marie Curie employed by University of Paris": "Marie Curie worked at the University of Paris.",
            "Marie Curie born in Warsaw": "Marie Curie was born in Warsaw."}
        assert "2 2 0" in printed.splitlines()  # the import's report: passages, facts, conflicts
    finally:
        for value in namespace.values():
            if isinstance(value, MemoryGraph):
                value.close()
        namespace.get("store") and namespace["store"].close()
        for space in (demo, kg):
            drop_space(store, space)
