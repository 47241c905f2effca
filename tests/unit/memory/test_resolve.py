"""Entity resolution without Neo4j: the stored entities are an in-memory fake of the two look-ups."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.resolve import Mention, resolve_mentions
from memgraph_neo4j.repository.entities import AliasHit, Neighbor, SimilarEdge, VectorQuery


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


class FakeEmbedder:
    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    def embed_documents(self, texts, batch_size=None, show_progress=False) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


class FakeEntities:
    """Stored entities: alias keys -> (entity id, type), entity id -> (type, vector)."""

    def __init__(self, aliases: dict[str, tuple[str, str]] | None = None,
                 stored: dict[str, tuple[str, np.ndarray]] | None = None, names: dict[str, str] | None = None) -> None:
        self.aliases, self.stored, self.names = aliases or {}, stored or {}, names or {}
        self.alias_calls: list[list[str]] = []
        self.neighbor_calls: list[list[VectorQuery]] = []

    def lookup_aliases(self, keys: list[str]) -> list[AliasHit]:
        self.alias_calls.append(list(keys))
        return [AliasHit(k, *self.aliases[k]) for k in keys if k in self.aliases]

    def entity_names(self, ids: list[str]) -> dict[str, str]:  # "E-obama" is named "Obama" unless told otherwise
        return {i: self.names.get(i, i.removeprefix("E-").capitalize()) for i in ids if i in self.stored}

    def entity_neighbors(self, rows: list[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        self.neighbor_calls.append(list(rows))
        hits = []
        for q in rows:
            scored = sorted(((float(np.dot(q.vector, v)), eid, t) for eid, (t, v) in self.stored.items()
                             if eid != q.id), reverse=True)[:fetch]
            hits += [Neighbor(q.id, eid, t, cos) for cos, eid, t in scored if cos >= min_cosine]
        return hits


OBAMA = unit(1.0, 0.0, 0.0)
NEAR_OBAMA = unit(1.0, 0.1, 0.0)  # cosine 0.995 with OBAMA
FAR = unit(1.0, 1.0, 0.0)  # cosine 0.707 with OBAMA


def test_exact_alias_hit_reuses_the_stored_entity():
    stored = FakeEntities(aliases={"ada lovelace": ("E-ada", "Person")})
    embedder = FakeEmbedder({})  # never asked: every name is known exactly
    res = resolve_mentions(stored, [Mention("Ada Lovelace", "Person", "p1"), Mention("ADA LOVELACE.", "Thing", "p2")],
                           embedder)
    assert stored.alias_calls == [["ada lovelace"]]  # one normalised key for both spellings
    assert stored.neighbor_calls == []
    assert res.by_key == {"ada lovelace": "E-ada"}
    ada = res.entities["E-ada"]
    assert not ada.is_new and ada.type == "Person"
    assert ada.aliases == {"Ada Lovelace", "ADA LOVELACE."} and ada.keys == {"ada lovelace"}
    assert ada.row().aliases == ["ADA LOVELACE.", "Ada Lovelace"]  # sorted for the write
    assert res.same_as == []


@pytest.mark.parametrize("mention_type", ["Person", "Thing"])
def test_similar_stored_entity_of_compatible_type_is_merged(mention_type):
    stored = FakeEntities(stored={"E-obama": ("Person", OBAMA)})
    res = resolve_mentions(stored, [Mention("Obama", mention_type, "p1")], FakeEmbedder({"Obama": NEAR_OBAMA}),
                           merge_threshold=0.9)
    assert res.by_key == {"obama": "E-obama"}
    assert list(res.entities) == ["E-obama"]
    merged = res.entities["E-obama"]
    assert not merged.is_new and merged.type == "Person" and merged.aliases == {"Obama"}
    assert res.same_as == []


def test_similar_but_below_threshold_is_a_new_entity():
    stored = FakeEntities(stored={"E-obama": ("Person", OBAMA)})
    res = resolve_mentions(stored, [Mention("Obama", "Person", "p1")], FakeEmbedder({"Obama": FAR}),
                           merge_threshold=0.9)
    assert res.by_key == {"obama": content_hash("obama")}
    assert res.entities[content_hash("obama")].is_new


def test_incompatible_types_are_not_merged():
    stored = FakeEntities(stored={"E-obama": ("Person", OBAMA)})
    res = resolve_mentions(stored, [Mention("Obama", "Place", "p1")], FakeEmbedder({"Obama": NEAR_OBAMA}),
                           merge_threshold=0.9)
    new_id = content_hash("obama")
    assert res.by_key == {"obama": new_id} and "E-obama" not in res.entities
    entity = res.entities[new_id]
    assert entity.is_new and entity.type == "Place" and entity.name == "Obama"
    assert entity.embedding == pytest.approx(NEAR_OBAMA.tolist())  # a new root keeps its vector
    assert res.same_as == []


def test_link_mode_keeps_entities_apart_and_returns_same_as():
    # against a stored entity: "Obama" is near it, but stays an entity of its own
    stored = FakeEntities(stored={"E-obama": ("Person", OBAMA)})
    embedder = FakeEmbedder({"Obama": NEAR_OBAMA, "Barack Obama": OBAMA})
    res = resolve_mentions(stored, [Mention("Obama", "Person", "p1")], embedder, merge_threshold=0.9, mode="link")
    new_id = content_hash("obama")
    assert res.by_key == {"obama": new_id} and "E-obama" not in res.entities
    assert res.entities[new_id].is_new
    assert res.same_as == [SimilarEdge(new_id, "E-obama", pytest.approx(float(np.dot(NEAR_OBAMA, OBAMA))))]

    # within one batch: both names become entities, joined by SAME_AS (the rarer one points to the other)
    empty = FakeEntities()
    res = resolve_mentions(empty, [Mention("Barack Obama", "Person", "p1"), Mention("Barack Obama", "Person", "p2"),
                                   Mention("Obama", "Person", "p3")], embedder, merge_threshold=0.9, mode="link")
    assert set(res.by_key.values()) == {content_hash("barack obama"), content_hash("obama")}
    assert [(e.id, e.neighbor) for e in res.same_as] == [(content_hash("obama"), content_hash("barack obama"))]


def test_merge_mode_joins_similar_new_names_of_one_batch():
    embedder = FakeEmbedder({"Barack Obama": OBAMA, "Obama": NEAR_OBAMA})
    mentions = [Mention("Barack Obama", "Person", "p1"), Mention("Barack Obama", "Person", "p2"),
                Mention("Obama", "Thing", "p3")]
    res = resolve_mentions(FakeEntities(), mentions, embedder, merge_threshold=0.9)
    only = content_hash("barack obama")
    assert res.by_key == {"barack obama": only, "obama": only}
    assert list(res.entities) == [only]
    assert res.entities[only].aliases == {"Barack Obama", "Obama"}
    assert res.entities[only].keys == {"barack obama", "obama"}
    assert res.entities[only].type == "Person"  # the specific type wins over Thing


@pytest.mark.parametrize("counts, canonical", [((3, 1), "Barack Obama"), ((1, 3), "Obama")])
def test_most_frequent_surface_form_becomes_canonical(counts, canonical):
    embedder = FakeEmbedder({"Barack Obama": OBAMA, "Obama": NEAR_OBAMA})
    mentions = ([Mention("Barack Obama", "Person", f"a{i}") for i in range(counts[0])]
                + [Mention("Obama", "Person", f"b{i}") for i in range(counts[1])])
    res = resolve_mentions(FakeEntities(), mentions, embedder, merge_threshold=0.9)
    (entity,) = res.entities.values()
    assert entity.name == canonical and entity.id == content_hash(canonical.casefold())


def test_most_frequent_spelling_of_one_key_names_the_entity():
    mentions = [Mention("ada lovelace", "Person", "p1"), Mention("Ada Lovelace", "Person", "p2"),
                Mention("Ada Lovelace", "Person", "p3")]
    res = resolve_mentions(FakeEntities(), mentions)  # no embedder: exact keys only
    (entity,) = res.entities.values()
    assert entity.name == "Ada Lovelace" and entity.aliases == {"Ada Lovelace", "ada lovelace"}
    assert entity.embedding is None and entity.is_new


DEC_4 = unit(1.0, 0.0, 0.0)
JUNE_8 = unit(1.0, 0.12, 0.0)  # cosine 0.993: MiniLM puts dates of one year this close


def test_a_similar_name_stating_other_values_is_not_merged():
    """Found on a 6k-passage build: "June 8, 1969" merged into "December 4, 1969" (cosine >= 0.9), and every
    fact with the later date took the earlier one. Stored and within the batch, dates, numbers and regnal
    numerals must agree for a similarity merge; the same date written another way still merges."""
    stored = FakeEntities(stored={"E-dec": ("Date", DEC_4), "E-louis": ("Person", OBAMA)},
                          names={"E-dec": "December 4, 1969", "E-louis": "Louis I"})
    embedder = FakeEmbedder({"June 8, 1969": JUNE_8, "4 December 1969": JUNE_8, "Louis II": NEAR_OBAMA,
                             "Louis the First": NEAR_OBAMA})
    mentions = [Mention(n, t, "p1") for n, t in [("June 8, 1969", "Date"), ("4 December 1969", "Date"),
                                                 ("Louis II", "Person"), ("Louis the First", "Person")]]
    res = resolve_mentions(stored, mentions, embedder, merge_threshold=0.9)
    assert res.by_key["june 8, 1969"] == content_hash("june 8, 1969")  # a new entity of its own
    assert res.by_key["4 december 1969"] == "E-dec"
    assert res.by_key["louis ii"] == content_hash("louis ii") and res.by_key["louis the first"] == "E-louis"
    dates = [Mention("1 March 1990", "Date", "p1"), Mention("1 March 1990", "Date", "p2"),
             Mention("2 March 1990", "Date", "p3")]
    batch = resolve_mentions(FakeEntities(), dates, FakeEmbedder({"1 March 1990": DEC_4, "2 March 1990": JUNE_8}),
                             merge_threshold=0.9)
    assert len(set(batch.by_key.values())) == 2  # the batch's second date is not merged into its first
