"""What the adapters read through the facade: `MemoryGraph.passage_sources(ids, facts=N)` (each passage's facts,
any state, active first, with their conflicts) and `MemoryGraph.documents(source=...)` (the documents of a
source prefix with their metadata)."""

from __future__ import annotations

from adapter_memory import DOCS

from memgraph_neo4j.ingest.document import Document
from memgraph_neo4j.repository.documents import DocumentSummary


def test_passage_sources_carry_the_facts_of_each_passage_with_their_conflicts(known):
    hits = {h.name: h.id for h in known.search("Isaac Newton Ada Lovelace", method="bm25", top_k=10).passages}
    ids = [hits["Ada"], hits["Newton A"], hits["Newton B"]]
    plain = known.passage_sources(ids)
    assert all(source.facts == () for source in plain.values())  # by default: the documents only, as before
    sources = known.passage_sources(ids, facts=5)
    assert {i: (s.doc_id, s.title) for i, s in sources.items()} == {i: (s.doc_id, s.title) for i, s in plain.items()}
    ada = sources[hits["Ada"]].facts
    assert sorted(f.text for f in ada) == ["Ada Lovelace born in London", "Ada Lovelace knows Charles Babbage"]
    assert all(f.state == "active" and f.conflicts == () for f in ada)
    [woolsthorpe] = sources[hits["Newton A"]].facts
    [conflict] = woolsthorpe.conflicts
    assert (conflict["type"], conflict["status"], conflict["proposed"], conflict["applied"]) == (
        "mutual_exclusion", "needs_review", None, False)
    [other] = conflict["facts"]  # the conflict's other fact, not this one
    assert (other["text"], other["state"]) == ("Isaac Newton born in Cambridge", "active")
    assert other["id"] == sources[hits["Newton B"]].facts[0].id
    assert len(known.passage_sources([hits["Ada"]], facts=1)[hits["Ada"]].facts) == 1  # at most `facts`


def test_facts_are_listed_active_first_then_pending_then_verdicts(blank):
    blank.ingest(DOCS, progress=False)
    [conflict] = blank.conflicts.list("needs_review")
    keep = conflict.fact_ids[conflict.facts.index("Isaac Newton born in Woolsthorpe")]
    blank.conflicts.accept(conflict.id, keep)
    both = Document(title="Both", text="Isaac Newton: Woolsthorpe or Cambridge?")  # evidences both facts
    blank.ingest([both], progress=False)
    [passage] = [h.id for h in blank.search("Woolsthorpe or Cambridge", method="bm25", top_k=1).passages]
    facts = blank.passage_sources([passage], facts=5)[passage].facts
    assert [(f.tail, f.state) for f in facts] == [("Woolsthorpe", "active"), ("Cambridge", "discarded")]
    assert [(c["proposed"], c["applied"]) for f in facts for c in f.conflicts] == [("keep", True), ("discard", True)]


def test_documents_of_a_source_prefix_come_with_their_metadata(blank):
    tagged = [Document(title="one", text="First note about tea.", source="notes:a.", metadata={"n": 1}),
              Document(title="two", text="Second note about tea.", source="notes:a.b.", metadata={"n": 2}),
              Document(title="three", text="Third note about tea.", source="other", metadata={"n": 3})]
    blank.ingest(tagged, progress=False)
    every = blank.documents()
    assert [type(d) for d in every] == [DocumentSummary] * 3  # unchanged without a source (the CLI's listing)
    under = blank.documents(source="notes:a.")
    assert sorted((type(d).__name__, d.title, d.metadata["n"]) for d in under) == [("SourcedDocument", "one", 1),
                                                                                  ("SourcedDocument", "two", 2)]
    assert [d.title for d in blank.documents(source="notes:a.b.")] == ["two"]
    assert blank.documents(source="nothing") == []
