"""What every adapter returns for a retrieved passage, built from the facade alone (`MemoryGraph.search` and
`MemoryGraph.passage_sources`), so that the four frameworks see the same items with the same metadata:

    passage_id, doc_id, document (its title), source, title, page, page_end, heading, citation, score, method,
    space, as_of, and facts: the facts the passage evidences (any state, active first), each with its
    conflicts (type, status, the verdict proposed for it and whether it was applied) and, in each conflict,
    the other facts with their states and verdicts.

No framework is imported here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.repository.provenance import PassageFact, PassageSource
    from memgraph_neo4j.retrieval import Hit

FACTS_PER_PASSAGE = 10  # supporting facts carried per passage


@dataclass(frozen=True)
class Recalled:
    """One retrieved passage: its id, text, score and the metadata every adapter carries."""

    id: str
    text: str
    score: float
    metadata: dict[str, Any]

    def facts_text(self) -> str:
        """The supporting facts, one line each, with their states and conflicts ("" without facts)."""
        return "\n".join(fact_line(f) for f in self.metadata["facts"])

    def context(self) -> str:
        """The passage as a model reads it: its citation and id, its text, then the facts it supports."""
        cited = self.metadata["citation"]
        head = f"[{cited}] (passage {self.id})" if cited else f"(passage {self.id})"  # an untitled text
        facts = self.facts_text()
        return f"{head}\n{self.text}" + (f"\nFacts it supports:\n{facts}" if facts else "")


def fact_line(fact: dict[str, Any]) -> str:
    """`- Isaac Newton born in Cambridge [active]; conflict 1a2b3c4d5e6f (mutual_exclusion, needs_review): no
    verdict; against: Isaac Newton born in Woolsthorpe [active]`."""
    line = f"- {fact['text']} [{fact['state']}] (fact {fact['id']})"
    for c in fact["conflicts"]:
        verdict = c["proposed"] or "no verdict"
        others = "; ".join(f"{o['text']} [{o['state']}{', ' + o['proposed'] if o['proposed'] else ''}]"
                           for o in c["facts"])
        line += (f"; conflict {c['id']} ({c['type']}, {c['status']}): {verdict}"
                 f"{' (applied)' if c['applied'] else ''}; against: {others or 'nothing left'}")
    return line


def recall(memory: MemoryGraph, query: str, method: str = "memgraphrag", top_k: int = 5, as_of: Any = None,
           facts: int = FACTS_PER_PASSAGE) -> list[Recalled]:
    """`memory.search` (its errors as they are: a bad method, top_k, or as_of without a hybrid method), each
    passage with its document and up to `facts` supporting facts."""
    if not isinstance(facts, int) or facts < 0:
        raise ValueError(f"facts must be a whole number >= 0 (supporting facts per passage), not {facts!r}")
    result = memory.search(query, method=method, top_k=top_k, as_of=as_of)
    sources = memory.passage_sources([hit.id for hit in result.passages], facts=facts)
    return [Recalled(hit.id, hit.text or "", hit.score,
                     passage_metadata(memory.space, result.method, hit, sources.get(hit.id), as_of))
            for hit in result.passages]


def passage_metadata(space: str, method: str, hit: Hit, source: PassageSource | None, as_of: Any = None
                     ) -> dict[str, Any]:
    """The metadata of one retrieved passage (JSON values only). `citation`: "Report, p. 3, § Methods" (an
    episode: its speaker and time)."""
    title = (source.title if source else None) or hit.name or (source.doc_title if source else None)
    return {
        "passage_id": hit.id,
        "doc_id": source.doc_id if source else None,
        "document": source.doc_title if source else None,
        "source": source.source if source else None,
        "title": title,
        "page": hit.page,
        "page_end": hit.page_end,
        "heading": hit.heading,
        "citation": hit.model_copy(update={"name": title}).label() or None,
        "score": hit.score,
        "method": method,
        "space": space,
        "as_of": as_of.isoformat() if isinstance(as_of, (date, datetime)) else as_of,
        "facts": [fact_dict(f) for f in (source.facts if source else ())],
    }


CONFLICT_KEYS = ("id", "type", "status", "proposed", "applied")  # and `facts`: the conflict's other facts
OTHER_KEYS = ("id", "text", "state", "proposed", "applied")


def fact_dict(fact: PassageFact) -> dict[str, Any]:
    """A supporting fact: id, text, state, relation, head, tail, time, valid_at, invalid_at, and its conflicts
    (id, type, status, the verdict `proposed` for it, `applied`, and `facts`: the others, with theirs)."""
    found = dataclasses.asdict(fact)
    found["conflicts"] = [{**{k: c.get(k) for k in CONFLICT_KEYS},
                           "facts": [{k: o.get(k) for k in OTHER_KEYS} for o in c["facts"]]} for c in fact.conflicts]
    return found
