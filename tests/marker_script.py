"""A deterministic extractor for tests: the facts of every marker word a chunk contains, no model."""

from __future__ import annotations

from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionOutcome, Usage

Row = tuple[str, str, str, str, str]  # head, relation, tail, head type, tail type


class MarkerScript:
    """Facts by marker word: `script` maps a word to the facts of a chunk that contains it."""

    name = "scripted"
    uses_guide = False

    def __init__(self, script: dict[str, list[Row]]) -> None:
        self.script = script

    def extract(self, items, guide):
        out = []
        for item in items:
            facts = [ExtractedFact(head=h, relation=r, tail=t, head_type=ht, tail_type=tt)
                     for key, rows in self.script.items() if key in item.text for h, r, t, ht, tt in rows]
            entities = [ExtractedEntity(name=n, type=ty) for f in facts
                        for n, ty in ((f.head, f.head_type), (f.tail, f.tail_type))]
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, extractor=self.name,
                                         extraction=Extraction(entities=entities, facts=facts), model="script"))
        return out

    def estimate(self, items, guide):
        return Usage()
