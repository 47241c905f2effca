"""Entity resolution without Neo4j: the stored entities are an in-memory fake of the two look-ups."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.resolve import Mention, resolve_mentions
from memgraph_neo4j.repository.entities import AliasHit, EvidenceQuery, Neighbor, SimilarEdge, VectorQuery


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
                 stored: dict[str, tuple[str, np.ndarray]] | None = None, names: dict[str, str] | None = None,
                 context: dict[str, set[str]] | None = None) -> None:
        """`context`: entity id -> the documents and neighbour ids it is mentioned with (None: every stored
        entity shares context with every name, the case the older tests are about)."""
        self.aliases, self.stored, self.names, self.context = aliases or {}, stored or {}, names or {}, context
        self.alias_calls: list[list[str]] = []
        self.neighbor_calls: list[list[VectorQuery]] = []
        self.evidence_calls: list[EvidenceQuery] = []

    def merge_evidence(self, queries: list[EvidenceQuery]) -> dict[tuple[str, str], str]:
        self.evidence_calls += queries
        out = {}
        for q in queries:
            known = self.context.get(q.entity_id, set()) if self.context is not None else None
            if known is None or set(q.docs) & known:
                out[(q.key, q.entity_id)] = "same document"
            elif set(q.titles) & known:
                out[(q.key, q.entity_id)] = "title"
            elif set(q.context) & known:
                out[(q.key, q.entity_id)] = "shared neighbour"
        return out

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
    res = resolve_mentions(empty, [Mention("Barack Obama", "Person", "p1", "d"),
                                   Mention("Barack Obama", "Person", "p2", "d"),
                                   Mention("Obama", "Person", "p3", "d")], embedder, merge_threshold=0.9, mode="link")
    assert set(res.by_key.values()) == {content_hash("barack obama"), content_hash("obama")}
    assert [(e.id, e.neighbor) for e in res.same_as] == [(content_hash("obama"), content_hash("barack obama"))]


def test_merge_mode_joins_similar_new_names_of_one_batch():
    embedder = FakeEmbedder({"Barack Obama": OBAMA, "Obama": NEAR_OBAMA})
    mentions = [Mention("Barack Obama", "Person", "p1", "d"), Mention("Barack Obama", "Person", "p2", "d"),
                Mention("Obama", "Thing", "p3", "d")]  # one document: the evidence a similarity merge needs
    res = resolve_mentions(FakeEntities(), mentions, embedder, merge_threshold=0.9)
    only = content_hash("barack obama")
    assert res.by_key == {"barack obama": only, "obama": only}
    assert list(res.entities) == [only]
    assert res.entities[only].aliases == {"Barack Obama", "Obama"}
    assert res.entities[only].keys == {"barack obama", "obama"}
    assert res.entities[only].type == "Person"  # the specific type wins over Thing
    row = res.entities[only].row()  # its own name on the entity (Entity.key), the merged one an Alias node
    assert (row.key, row.keys) == ("barack obama", ["obama"])


@pytest.mark.parametrize("counts, canonical", [((3, 1), "Barack Obama"), ((1, 3), "Obama")])
def test_most_frequent_surface_form_becomes_canonical(counts, canonical):
    embedder = FakeEmbedder({"Barack Obama": OBAMA, "Obama": NEAR_OBAMA})
    mentions = ([Mention("Barack Obama", "Person", f"a{i}", "d") for i in range(counts[0])]
                + [Mention("Obama", "Person", f"b{i}", "d") for i in range(counts[1])])
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


HURST = unit(1.0, 0.0, 1.0)
ERIC_HURST = unit(1.0, 0.1, 1.0)  # cosine 0.995: two people MiniLM puts this close


def test_a_similar_stored_name_merges_only_with_shared_context():
    """Found on a 6k-passage build: "Michael Hurst" became "Michael Eric Hurst" on the embedding alone. A stored
    entity joins a similar name only when it is mentioned in the name's document or beside one of its
    neighbours; the merge is recorded on the name (rule, evidence, the name it joined)."""
    embedder = FakeEmbedder({"Michael Hurst": ERIC_HURST})
    names = {"E-eric": "Michael Eric Hurst"}
    stored = {"E-eric": ("Person", HURST), "E-auckland": ("Place", FAR)}
    aliases = {"auckland": ("E-auckland", "Place")}
    mentions = [Mention("Michael Hurst", "Person", "p1", "d1"), Mention("Auckland", "Place", "p1", "d1")]

    apart = FakeEntities(aliases, stored, names, context={"E-eric": {"d9", "E-london"}})
    res = resolve_mentions(apart, mentions, embedder, merge_threshold=0.9)
    assert res.by_key["michael hurst"] == content_hash("michael hurst")  # an entity of its own
    assert [(q.key, q.entity_id, q.docs, q.context, q.titles) for q in apart.evidence_calls] == [
        ("michael hurst", "E-eric", ["d1"], ["E-auckland"], [])]  # its document, its stored neighbour

    for context, evidence in [({"d1"}, "same document"), ({"E-auckland"}, "shared neighbour")]:
        res = resolve_mentions(FakeEntities(aliases, stored, names, context={"E-eric": context}), mentions,
                               embedder, merge_threshold=0.9)
        assert res.by_key["michael hurst"] == "E-eric"
        assert res.entities["E-eric"].merged == {
            "michael hurst": {"rule": "similarity", "evidence": evidence, "with": "Michael Eric Hurst"}}
        assert res.entities["E-eric"].row().merged == res.entities["E-eric"].merged

    # the rule before, for comparisons: the embedding and the values alone
    res = resolve_mentions(FakeEntities(aliases, stored, names, context={}), mentions, embedder, merge_threshold=0.9,
                           evidence=False)
    assert res.by_key["michael hurst"] == "E-eric"


def test_similar_new_names_of_one_batch_merge_only_with_shared_context():
    embedder = FakeEmbedder({"Michael Eric Hurst": HURST, "Michael Hurst": ERIC_HURST, "Auckland": FAR})
    eric, michael = content_hash("michael eric hurst"), content_hash("michael hurst")
    apart = [Mention("Michael Eric Hurst", "Person", "p1", "d1"), Mention("Michael Eric Hurst", "Person", "p1", "d1"),
             Mention("Michael Hurst", "Person", "p2", "d2")]
    res = resolve_mentions(FakeEntities(), apart, embedder, merge_threshold=0.9)
    assert res.by_key == {"michael eric hurst": eric, "michael hurst": michael}
    # a neighbour mentioned beside both (a stored entity or a new name) is evidence; so is one document, and a
    # page titled by the other name ("Michael Trent Reznor" on the page "Trent Reznor", HotpotQA)
    for extra, evidence in (
            ([Mention("Auckland", "Place", "p1", "d1"), Mention("Auckland", "Place", "p2", "d2")], "shared neighbour"),
            ([Mention("Michael Hurst", "Person", "p3", "d1")], "same document"),
            ([Mention("Michael Eric Hurst", "Person", "p4", "d4", "Michael Hurst")], "title")):
        res = resolve_mentions(FakeEntities(), apart + extra, embedder, merge_threshold=0.9)
        assert res.by_key["michael hurst"] == eric
        assert res.entities[eric].merged["michael hurst"] == {"rule": "similarity", "evidence": evidence,
                                                              "with": "Michael Eric Hurst"}


def test_dates_and_quantities_merge_only_as_one_value():
    """No context needed for a value ("9 km" is "9 kilometres" wherever it is said), but the words around the
    numbers must agree: "the late 1950s" is not "the 1950s" (cosine 0.93, the same numbers)."""
    stored = FakeEntities(stored={"E-50s": ("Date", DEC_4), "E-9km": ("Quantity", OBAMA)}, context={},
                          names={"E-50s": "the 1950s", "E-9km": "9 km"})
    embedder = FakeEmbedder({"the late 1950s": JUNE_8, "the year 1950s": JUNE_8, "9 kilometres": NEAR_OBAMA})
    mentions = [Mention(n, t, "p1", "d1") for n, t in [("the late 1950s", "Date"), ("the year 1950s", "Date"),
                                                       ("9 kilometres", "Quantity")]]
    res = resolve_mentions(stored, mentions, embedder, merge_threshold=0.9)
    assert res.by_key["the late 1950s"] == content_hash("the late 1950s")
    assert res.by_key["the year 1950s"] == "E-50s" and res.by_key["9 kilometres"] == "E-9km"
    assert res.entities["E-9km"].merged["9 kilometres"]["evidence"] == "same value"
    assert stored.evidence_calls == []  # values are not asked about context
