"""Retracting documents: the memory forgets what only they said.

1. Their passages are deleted with every relationship (HAS_PASSAGE, NEXT, MENTIONS, EVIDENCED_BY);
   in the same transaction, batch by batch, the facts they evidence, those facts' schemas and
   entities and the entities they mention are marked `Retracting`.
2. Facts left without any evidence passage become `retracted`: kept, not deleted, out of retrieval
   and adjudication. Conflicts involving one are closed as `obsolete`, their applied verdicts undone
   first (a fact discarded because a retracted one won is back in), and the active facts of those
   conflicts are queued (Unchecked) for the conflict check the caller runs next.
3. The marked schemas' frequency (distinct supporting passages) is recounted; every stable schema
   below the promotion bar (tau, or the percentile rule's cutoff recomputed now) goes back to
   `candidate` and its active facts to `pending`, the conflicts of those facts closed as obsolete
   first (memory/promotion.demote_below_bar): a clean build of the remaining documents never checked
   them. No active fact stays under a marked candidate (an undone refine may bring one back there).
   A strict ontology's declared schemas are stable by declaration and stay so.
4. Marked entities that nothing live grounds any more (no mention, no fact but retracted ones) are
   deleted with their aliases: otherwise the extraction guide would keep offering their names, and
   the entity index and the PPR projection (through SIMILAR and type edges) would keep returning
   them. An entity that something else still grounds is kept whole, aliases included.
5. The marks go; the Document nodes go (and tombstones older than the window are pruned).

Each step that changes what retrieval holds is its own stamped transaction (a new memory version first,
`changed` on what it changes, a Tombstone for what it deletes: repository/documents.py), so retrieval
copies in every process follow a retraction by its changes instead of reading the space whole.

Every step is idempotent and works on what is marked, not on what the caller passed: if the process
dies half-way, running the retraction again (of the same documents, which are deleted last) finishes
the job. An ingest that evidences a retracted fact again gives it back the state a new fact gets, and
an obsolete conflict its facts form again is detected afresh, its verdict applied again as a first
detection would (adjudication/write_conflicts); one a person reviewed comes back as they left it.
"""

from __future__ import annotations

import time

from pydantic import BaseModel

from memgraph_neo4j.contracts import AdjudicationReport
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.promotion import demote_below_bar
from memgraph_neo4j.repository.documents import DocumentRepository
from memgraph_neo4j.repository.facts import FactRepository
from memgraph_neo4j.repository.ids import IdRepository


class RetractionReport(BaseModel):
    documents: int = 0
    passages: int = 0
    facts_retracted: int = 0
    conflicts_obsolete: int = 0
    facts_rechecked: int = 0  # active facts of the obsolete conflicts, queued for a conflict check
    schemas_recounted: int = 0
    schemas_demoted: int = 0  # stable -> candidate
    facts_deactivated: int = 0  # active -> pending (their schema was demoted)
    entities_deleted: int = 0
    aliases_deleted: int = 0
    version: int = 0  # the memory version after the retraction
    adjudication: AdjudicationReport | None = None  # the conflict check run afterwards (MemoryGraph.retract)
    seconds: float = 0.0


def retract_documents(documents: DocumentRepository, facts: FactRepository, ontology: Ontology,
                      doc_ids: list[str]) -> RetractionReport:
    """Retract these documents (ids, or unique prefixes of them) from the space; an unknown or ambiguous one
    changes nothing (repository/ids.IdError)."""
    began, report = time.monotonic(), RetractionReport()
    found = IdRepository(documents.store, documents.space).resolve_all("document", list(dict.fromkeys(doc_ids)))
    doc_ids = list(dict.fromkeys(c.id for c in found.values()))
    report.passages = documents.delete_passages(documents.passages_of(doc_ids))
    settle_marked(documents, facts, ontology, report)
    report.documents, report.version = documents.delete_documents(doc_ids)
    report.seconds = time.monotonic() - began
    return report


def settle_marked(documents: DocumentRepository, facts: FactRepository, ontology: Ontology,
                  report: RetractionReport) -> None:
    """Steps 2-5 on what is marked Retracting, whoever marked it (step 1, or memory/unmerge.py for the
    facts an unmerge took evidence from); counts into `report`."""
    report.conflicts_obsolete, report.facts_retracted, report.facts_rechecked = \
        documents.close_conflicts_and_retract()
    report.schemas_recounted = documents.recount_schemas()
    # every stable schema under the bar (the percentile's cutoff may have risen too), its conflicts closed first
    demotion = demote_below_bar(facts, ontology)
    report.conflicts_obsolete += demotion.conflicts
    report.schemas_demoted, report.facts_deactivated = demotion.schemas, demotion.facts
    if ontology.mode == "open":  # strict: declared schemas are stable by declaration, not by support
        report.facts_deactivated += documents.pend_under_candidates()
    report.entities_deleted, report.aliases_deleted = documents.delete_orphans()
    documents.unmark()
    report.version = documents.version
