"""store/schema_state.py reads the names the schema folder creates and drops; a statement it cannot read
makes it answer "run the folder" (no Neo4j needed: a stand-in store answers the index listing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgraph_neo4j.store import CypherLibrary, GraphStore, StoreError, default_library
from memgraph_neo4j.store.schema_state import schema_current, schema_names


class FakeStore:
    check_vector_dimensions = GraphStore.check_vector_dimensions

    def __init__(self, library: CypherLibrary, indexes: dict[str, str], dimensions: dict[str, int] | None = None):
        self.cypher, self.indexes, self.dimensions, self.database = library, indexes, dimensions or {}, "neo4j"

    def read(self, name: str, /, **params):
        assert name == "admin/index_states"  # the dimensions come with the states: no second read
        return [{"name": n, "state": s, "dimension": self.dimensions.get(n)} for n, s in self.indexes.items()]


def test_every_schema_statement_is_read() -> None:
    names = schema_names(FakeStore(default_library(), {}))
    assert names is not None
    created, dropped = names
    assert {"passage_key", "schema_promotion", "passage_embedding_by_space", "passage_text_search"} <= created
    # the fulltext indexes refreshed at every commit go for eventually consistent ones
    assert {"passage_embedding", "passage_text", "entity_names", "fact_text"} <= dropped and not created & dropped


def test_current_only_when_all_online_and_nothing_dropped_is_left() -> None:
    created, dropped = schema_names(FakeStore(default_library(), {}))
    online = {name: "ONLINE" for name in created}
    assert schema_current(FakeStore(default_library(), {**online, "index_1b9dcc97": "ONLINE"}))
    assert not schema_current(FakeStore(default_library(), {**online, "passage_text_search": "POPULATING"}))
    assert not schema_current(FakeStore(default_library(), {k: v for k, v in online.items() if k != "fact_key"}))
    assert not schema_current(FakeStore(default_library(), {**online, next(iter(dropped)): "ONLINE"}))


def test_a_statement_of_another_kind_means_run_the_folder(tmp_path: Path) -> None:
    (tmp_path / "schema").mkdir()
    # stand-ins for statement files: a key constraint the module reads, and a write it cannot
    key, write = default_library().get("schema/01_document_key"), default_library().get("admin/delete_space")
    (tmp_path / "schema" / "01_key.cypher").write_text(key)
    (tmp_path / "schema" / "02_data.cypher").write_text(write)
    store = FakeStore(CypherLibrary(tmp_path), {"document_key": "ONLINE"})
    assert schema_names(store) is None and not schema_current(store)


def test_a_current_schema_checks_the_vector_dimensions_from_the_same_read() -> None:
    created, _ = schema_names(FakeStore(default_library(), {}))
    online = {name: "ONLINE" for name in created}
    store = FakeStore(default_library(), online, {"passage_embedding_by_space": 384})
    assert schema_current(store, 384) and schema_current(store)
    with pytest.raises(StoreError, match="passage_embedding_by_space.*384-dimensional.*embedder makes 512"):
        schema_current(store, 512)
    # a schema that is not current is created first: init_schema checks the dimensions after it
    assert not schema_current(FakeStore(default_library(), {}, {"passage_embedding_by_space": 384}), 512)
