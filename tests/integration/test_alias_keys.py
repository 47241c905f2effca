"""Issue 32: an entity's own name is its `key` (Entity.key), Alias nodes are only its other names. Written
so, a memory resolves every name to the entity the Alias layout of before resolved it to (merged names
too, with their merge record); a memory written with that layout (its statements kept in
tests/cypher/alias_layout_0f0cff1) and migrated by `MemoryGraph.init` is the memory written now, and a
second migration changes nothing."""

from __future__ import annotations

from pathlib import Path

import test_unmerge
from chaos_space import differences, snapshot

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.memory import alias_keys
from memgraph_neo4j.memory.alias_keys import fold_alias_keys
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name
from memgraph_neo4j.repository.entities import EntityRepository
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.store.cypher import CypherLibrary

DOCS, _ingest, _memory = test_unmerge.DOCS, test_unmerge._ingest, test_unmerge._memory
ontology, other_space = test_unmerge.ontology, test_unmerge.other_space  # fixtures
OLD = Path(__file__).resolve().parents[1] / "cypher" / "alias_layout_0f0cff1"
NAMES = ["Barack Obama", "Obama", "OBAMA.", "Honolulu", "United States", "Dreams from My Father", "Nobody"]


class AliasLayout(CypherLibrary):
    """The statements of now, but for the entity writes of before issue 32: an Alias node per name."""

    def get(self, name: str) -> str:
        if name in ("memory/create_entities", "memory/write_entities"):
            return (OLD / f"{name.split('/')[1]}.cypher").read_text().strip()
        return super().get(name)


def _names(store, space):
    """Every way a name is looked up: resolution's rows (with the merge flag) and retrieval's seek."""
    keys = sorted({normalize_entity_name(n) for n in NAMES})
    hits = sorted((h.key, h.entity_id, h.type, sorted(h.aliases), h.merged)
                  for h in EntityRepository(store, space).lookup_aliases(keys))
    return hits, SearchRepository(store, space).state_and_names("none_", keys, [])[1].entities


def _counts(test_store, space):
    return {label: sum(1 for labels, _ in snapshot(test_store, space).nodes.elements() if label in labels)
            for label in ("Entity", "Alias")}


def _same(test_store, got, want):
    assert differences(snapshot(test_store, got), snapshot(test_store, want)) == []


def test_names_resolve_as_with_an_alias_per_name(store, test_store, space, other_space, minilm, ontology,
                                                 monkeypatch):
    old = _memory(store.with_library(AliasLayout()), space, ontology, minilm)
    new = _memory(store, other_space, ontology, minilm)
    _ingest(old, DOCS)
    _ingest(new, DOCS)
    ids = new.entity_ids(NAMES)
    assert ids == old.entity_ids(NAMES)
    assert ids["Obama"] == ids["OBAMA."] == ids["Barack Obama"] == content_hash("barack obama")  # merged
    assert ids["Nobody"] is None
    assert _names(store, other_space) == _names(store, space)
    assert [h[4] for h in _names(store, other_space)[0] if h[0] == "obama"] == [True]  # the merge is recorded
    assert new.analytics("entity_merges") == old.analytics("entity_merges")
    entities = _counts(test_store, space)["Entity"]
    assert _counts(test_store, space) == {"Entity": entities, "Alias": entities + 1}
    assert _counts(test_store, other_space) == {"Entity": entities, "Alias": 1}  # "obama", merged

    # the old layout migrated by init (a database without the key's index): the memory written now, and a
    # second run changes nothing. Only this space: other pytest sessions share the instance's other ones
    fold_all = alias_keys.fold_alias_keys
    monkeypatch.setattr(alias_keys, "fold_alias_keys", lambda store, *_: fold_all(store, space))
    test_store.run_implicit("drop_entity_name_key")
    MemoryGraph(space=space, store=store, embedder=minilm).init()
    monkeypatch.undo()
    _same(test_store, space, other_space)
    assert fold_alias_keys(store, space) == 0
    _same(test_store, space, other_space)
    assert _names(store, space) == _names(store, other_space)

    # the migrated memory, written by the code of now: both unmerge alike, a later mention resolves alike
    old = _memory(store, space, ontology, minilm)
    for memory in (old, new):
        memory.unmerge("Obama")
        _ingest(memory, ["FIFTH Obama met Angela Merkel."])
    _same(test_store, space, other_space)
    assert old.entity_ids(NAMES) == new.entity_ids(NAMES)
    assert new.entity_ids(["Obama"]) == {"Obama": content_hash("obama")}
    assert _counts(test_store, other_space)["Alias"] == 0


def test_an_unmerge_of_the_alias_layout_is_migrated(store, test_store, space, other_space, minilm, ontology):
    """Before issue 32 an unmerged name's Alias moved to its own entity with `unmerged_from`: migrated, the
    name is the entity's key and the record on the entity, as an unmerge writes them now."""
    for name in (space, other_space):
        memory = _memory(store, name, ontology, minilm)
        _ingest(memory, DOCS[:2])
        memory.unmerge("Obama")
    assert test_store.write("unfold_unmerged_key", space=space) == [{"unfolded": 1}]
    unfolded = _memory(store, space, ontology, minilm)
    assert unfolded.entity_ids(["Obama"]) == {"Obama": content_hash("obama")}
    assert unfolded.unmerge("Obama").finished  # the record is read from the Alias
    assert fold_alias_keys(store, space) == 1
    _same(test_store, space, other_space)
    assert fold_alias_keys(store, space) == 0
    assert _memory(store, space, ontology, minilm).unmerge("Obama").finished  # and from the entity
