"""The ```python blocks of the README and of the docs (docs/**/*.md) that need no model run as pasted against
the test instance: each in a fresh namespace, in a temporary folder, on a test space (their `space="..."`
replaced) that holds a few documents, with the docs' own chat example (guides/conversations.md) as
`chat.jsonl` and the packaged ontology as `my_ontology.yaml`. The blocks that name a model (OpenAI,
langchain) are only checked for their names (tests/unit/test_readme_snippets.py); a page whose blocks run as one
session is run by its own test."""

from __future__ import annotations

import json
import re

from readme_blocks import SESSION, blocks

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.memory.ontology import default_ontology_path

NEEDS_A_MODEL = re.compile(r"[Oo]pen[Aa][Ii]|[Ll]ang[Cc]hain|Chat\b|chat=|model=")
TEXTS = ["Isaac Newton was born in Woolsthorpe in 1643. He studied at Trinity College, Cambridge.",
         "Isaac Newton was born in Grantham. Newton wrote the Principia.",
         "Marie Curie was born in Warsaw and received the Nobel Prize in Physics."]


def _chat_example() -> str:
    """The JSON-lines chat format as the docs show it."""
    lines = [line for b in blocks("json") for line in b.code.splitlines() if '"speaker"' in line]
    assert lines and all(json.loads(line)["text"] for line in lines)
    return "\n".join(lines) + "\n"


def test_the_blocks_without_a_model_run_as_pasted(neo4j_connection, store, space, minilm, tmp_path, monkeypatch):
    for name, value in (("NEO4J_URI", neo4j_connection.uri), ("NEO4J_USERNAME", neo4j_connection.username),
                        ("NEO4J_PASSWORD", neo4j_connection.password),
                        ("NEO4J_DATABASE", neo4j_connection.database)):
        monkeypatch.setenv(name, value)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chat.jsonl").write_text(_chat_example())
    (tmp_path / "my_ontology.yaml").write_text(default_ontology_path().read_text())  # docs/ontology.md loads it
    MemoryGraph(space=space, store=store, embedder=minilm).ingest(TEXTS, progress=False)
    ran = []
    for block in blocks():
        if NEEDS_A_MODEL.search(block.code) or SESSION in block.path.read_text(encoding="utf-8"):
            continue  # a one-session page runs in its own test (guides/adapters.md: adapters/test_adapter_docs.py)
        code = re.sub(r'space="[^"]*"', f'space="{space}"', block.code)
        namespace: dict = {"__name__": "__readme__"}
        try:
            exec(compile(code, block.where, "exec"), namespace)  # noqa: S102 - the README's own code
        finally:
            for value in namespace.values():
                if isinstance(value, MemoryGraph):
                    value.close()
        ran.append(block.where)
    assert len(ran) >= 8, ran  # README tour, getting started, documents, conflicts, conversations, analytics...
    assert any(where.startswith("README.md") for where in ran), ran
    assert (tmp_path / "mine.jsonl").stat().st_size > 0  # the export block wrote its file
