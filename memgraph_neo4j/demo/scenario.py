"""The demo: a memory built from the shipped corpus, its conflicts adjudicated, three questions answered.

The corpus (`corpus/*.md`, ten short documents written for this project from well-known public facts) plants:
- a contradiction: `alan-turing.md` says Alan Turing was born in 1912, `computing-timeline.md` says 1913
  (deliberately wrong). `birth_date` is functional, so adjudication finds a mutual exclusion; no rule can
  tell which value is true, so offline it waits for review (a chat model may settle it);
- a temporal change: Microsoft headquartered in Albuquerque (1975 to 1979), Bellevue (1979 to 1986) and
  Redmond (since 1986). `headquartered_in` is functional and temporal: the rules qualify each value with
  its years (valid_from / valid_to), resolved offline;
- one value at two levels: Marie Curie born in Warsaw and born in Poland, with Warsaw located in Poland:
  granularity, refined to `born_in_broader Poland`, resolved offline;
- a duplicate entity: "Charles Darwin" and "Charles Robert Darwin" (MiniLM cosine 0.95, both persons),
  merged into one entity by entity resolution.
Each sentence that carries one of these is a plain pattern ("X was born in 1912 in London.") that the
offline extractor reads with or without spaCy.

Running it again ingests nothing new (passages and facts are MERGEd on content hashes) and answers again.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pydantic import BaseModel, Field

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.evaluation.health import graph_health
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.retrieval.answer import Answer
from memgraph_neo4j.store import default_library

CORPUS = Path(__file__).with_name("corpus")
QUESTIONS = (
    "In which country was Marie Curie born?",
    "Where has Microsoft been headquartered?",
    "Which ship did Charles Darwin sail on?",
)
DUPLICATE = ("Charles Darwin", "Charles Robert Darwin")
SNIPPET = 240  # characters of a cited passage shown with a generated answer
GUIDE = "demo/fact_graph"  # the Browser query the demo suggests (cypher/demo/fact_graph.cypher)


class Citation(BaseModel):
    label: str  # P1, P2 ...: as the answer cites it
    passage_id: str
    source: str  # the passage's document (and heading)
    text: str  # the quoted sentence (extractive) or the start of the passage (generated)


class DemoAnswer(BaseModel):
    question: str
    answer: str
    extractive: bool
    model: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)  # the facts that seeded retrieval, best first


class ConflictFact(BaseModel):
    text: str
    state: str | None
    verdict: str | None  # proposed: keep, discard, merge, qualify, refine
    valid_from: str | None = None
    valid_to: str | None = None


class DemoConflict(BaseModel):
    id: str
    type: str
    status: str  # resolved | needs_review | open | dismissed
    reason: str | None = None
    rationale: str | None = None
    model: str | None = None
    facts: list[ConflictFact] = Field(default_factory=list)


class DemoConflicts(BaseModel):
    total: int = 0
    resolved: int = 0
    needs_review: int = 0
    items: list[DemoConflict] = Field(default_factory=list)


class Duplicate(BaseModel):
    names: list[str]
    entity_ids: list[str | None]
    merged: bool  # every name resolved to the one entity


class DemoReport(BaseModel):
    """What the demo did; `memgraph-neo4j demo --json` prints it (a stable structure for scripts)."""

    space: str
    answers_by: str  # "extractive" | "chat model"
    model: str | None = None  # the chat model of adjudication and answers, when one is configured
    ingest: dict = Field(default_factory=dict)  # IngestReport of this run: passages_new 0 on a re-run
    counts: dict[str, dict] = Field(default_factory=dict)  # label -> {"total": n, "by_state": {...}}
    other_documents: int = 0  # documents in the space that are not the demo corpus
    conflicts: DemoConflicts = Field(default_factory=DemoConflicts)
    duplicates: list[Duplicate] = Field(default_factory=list)
    answers: list[DemoAnswer] = Field(default_factory=list)
    health: dict = Field(default_factory=dict)  # evaluation.health.GraphHealth as a dict
    browser: dict | None = None  # url, params and query: set by the command, which knows the server
    warnings: list[str] = Field(default_factory=list)


def browser_guide(space: str, url: str | None) -> dict:
    """Where to look at the memory: the Browser URL, the parameter line and the guide query to paste, and
    the other guide queries (cypher/browser/)."""
    library = default_library()
    query = "\n".join(line for line in library.get(GUIDE).splitlines() if not line.lstrip().startswith("//"))
    return {"url": url, "params": f':params {{space: "{space}"}}', "query": query,
            "more": [f"cypher/{name}.cypher" for name in library.names("browser")]}


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.md"))


def _citations(answer: Answer) -> list[Citation]:
    hits = {hit.id: (f"P{i}", hit) for i, hit in enumerate(answer.evidence.passages, 1)}
    if answer.extractive:
        return [Citation(label=q.label, passage_id=q.passage_id, source=hits[q.passage_id][1].at(q.text).label(),
                         text=q.text)
                for q in answer.quotes]
    out = []
    for pid in answer.cited_passage_ids:
        label, hit = hits[pid]
        text = " ".join((hit.text or "").split())
        out.append(Citation(label=label, passage_id=pid, source=hit.matched(answer.question).label(),
                            text=text if len(text) <= SNIPPET else text[:SNIPPET].rsplit(" ", 1)[0] + " ..."))
    return out


def answer(memory: MemoryGraph, question: str, chat: ChatClient | None, warnings: list[str]) -> DemoAnswer:
    """A generated answer with a chat model, else (or when the model fails) an extractive one."""
    result = None
    if chat is not None:
        try:
            result = memory.ask(question, chat=chat)
        except Exception as exc:  # noqa: BLE001 - any provider error: the demo still answers, offline
            warnings.append(f"chat model {chat.model!r} failed on {question!r} ({type(exc).__name__}: {exc}); "
                            "answered extractively")
    if result is None:
        result = memory.answer_extractive(question)
    seeds = [f.text or f.name or f.id for f in result.evidence.facts[:3]]
    return DemoAnswer(question=question, answer=result.answer, extractive=result.extractive, model=result.model,
                      citations=_citations(result), facts=seeds)


def conflicts(memory: MemoryGraph, limit: int = 50) -> DemoConflicts:
    found = DemoConflicts()
    for summary in memory.conflicts.list(limit=limit):
        detail = memory.conflicts.show(summary.id)
        facts = [ConflictFact(text=f["text"], state=f.get("state"), verdict=f.get("proposed"),
                              valid_from=f.get("valid_from"), valid_to=f.get("valid_to")) for f in detail.facts]
        found.items.append(DemoConflict(id=detail.id, type=detail.type, status=detail.status, reason=detail.reason,
                                        rationale=detail.rationale, model=detail.model, facts=facts))
    found.total = len(found.items)
    found.resolved = sum(c.status == "resolved" for c in found.items)
    found.needs_review = sum(c.status == "needs_review" for c in found.items)
    return found


def run_demo(memory: MemoryGraph, chat: ChatClient | None = None, progress: bool = False) -> DemoReport:
    """Ingest the corpus (offline extractor, promotion and adjudication inside), promote and adjudicate
    whatever is still due, answer QUESTIONS, and collect conflicts, the duplicate and graph health."""
    report = DemoReport(space=memory.space, answers_by="chat model" if chat is not None else "extractive",
                        model=chat.model if chat is not None else None)
    files = corpus_files()
    ingest = memory.ingest(files, progress=progress)
    memory.promote()  # a full recount: also what an interrupted earlier run left
    memory.adjudicate()  # facts still unchecked (none after a complete ingest)
    report.ingest = ingest.model_dump(include={"documents", "passages", "passages_new", "facts", "entities_new",
                                               "promoted", "activated", "bridges", "conflicts", "seconds"})
    report.counts = memory.stats()["nodes"]
    report.other_documents = max(report.counts.get("Document", {}).get("total", 0) - len(files), 0)
    if report.other_documents:
        report.warnings.append(f"space {memory.space!r} holds {report.other_documents} documents besides the demo "
                               "corpus; answers and conflicts may draw on them (give --space a new name)")
    report.conflicts = conflicts(memory)
    ids = memory.entity_ids(DUPLICATE)
    report.duplicates = [Duplicate(names=list(DUPLICATE), entity_ids=[ids[n] for n in DUPLICATE],
                                   merged=ids[DUPLICATE[0]] is not None and len({ids[n] for n in DUPLICATE}) == 1)]
    report.answers = [answer(memory, q, chat, report.warnings) for q in QUESTIONS]
    report.health = dataclasses.asdict(graph_health(memory.store, memory.space))
    return report
