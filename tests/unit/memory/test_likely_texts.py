"""memory/facts.likely_texts: what the ingest pipeline embeds ahead of a batch's write is what the write
embeds (the names resolution embeds, the texts of the facts it writes), when no name merges by similarity."""

from __future__ import annotations

from test_fact_rows import NothingStored, outcome

from memgraph_neo4j.memory.facts import fact_rows, likely_texts, mentions_of
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.memory.resolve import resolve_mentions


class Recorder:
    """An embedder that records what resolution asks it for (unit vectors, all different: no merges)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed_documents(self, texts):
        import numpy as np

        self.asked += texts
        return np.eye(len(texts), 8, dtype=np.float32) if len(texts) <= 8 else np.eye(len(texts), dtype=np.float32)


class Stored(NothingStored):
    """The space holds these keys (an Alias hit each)."""

    def __init__(self, keys: dict[str, str]) -> None:
        self.keys = keys

    def lookup_aliases(self, keys):
        from memgraph_neo4j.memory.resolve import AliasHit

        return [AliasHit(k, self.keys[k], "Person", (), False) for k in keys if k in self.keys]


OUTCOMES = [
    outcome("p1", [("Ada Lovelace", "was born in", "London", "Person", "Place"),
                   ("ada lovelace", "worked with", "Charles Babbage", "Person", "Person"),
                   ("Ada Lovelace", "born in", "London", "Person", "Place", "1815")],
            entities=[("Analytical Engine", "Thing")]),
    outcome("p2", [("Charles Babbage", "designed", "Analytical Engine", "Person", "Thing"),
                   ("Ada Lovelace", "?!", "Paris", "Person", "Place"),  # no relation: no fact, the name stays
                   ("Charles Babbage", "knows", "charles babbage.", "Person", "Person")]),  # one entity: no fact
]


def test_with_nothing_stored_the_guess_is_what_the_write_embeds():
    ontology = load_ontology()
    recorder = Recorder()
    resolution = resolve_mentions(NothingStored(), mentions_of(OUTCOMES, ontology), recorder)
    rows = fact_rows(OUTCOMES, resolution, ontology)
    names, facts = likely_texts(OUTCOMES, ontology, set())
    assert sorted(names) == sorted(recorder.asked)  # the spelling resolution embeds, once per key
    assert "Ada Lovelace" in names and "ada lovelace" not in names
    assert sorted(facts) == sorted({f.text for f in rows.facts})
    assert "Ada Lovelace born in London (1815)" in facts


def test_stored_names_are_not_guessed_nor_facts_between_two_of_them():
    ontology = load_ontology()
    stored = {"ada lovelace": "e1", "london": "e2"}
    recorder = Recorder()
    resolution = resolve_mentions(Stored(stored), mentions_of(OUTCOMES, ontology), recorder)
    rows = fact_rows(OUTCOMES, resolution, ontology)
    names, facts = likely_texts(OUTCOMES, ontology, set(stored))
    assert sorted(names) == sorted(recorder.asked)
    assert "Ada Lovelace" not in names and "London" not in names
    # facts between two stored entities may be stored already (their vectors are read back): not guessed
    new_end = {f.text for f in rows.facts if not {f.head_id, f.tail_id} <= set(stored.values())}
    assert sorted(facts) == sorted(new_end)
    assert "Ada Lovelace born in London" in {f.text for f in rows.facts}
    assert "Ada Lovelace born in London" not in facts and "Ada Lovelace worked with Charles Babbage" in facts
