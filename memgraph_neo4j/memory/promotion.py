"""Algorithm 1, stage II: recount schema support, promote candidates to stable, activate their facts.

A schema's frequency is the number of distinct passages of its facts in a supporting state
(contracts.SUPPORTING: a verdict that judges a fact wrong takes its passages away). The ontology's rule
gives the bar: a fixed threshold tau, or "drop the lowest p %" of the undeclared schemas (promote
what lies strictly above the frequency at that percentile). Facts of stable schemas become active,
also those written before the promotion. A schema a refine verdict creates (born_in_broader) follows
the same rule when the verdict is applied, as does every schema a verdict's applying or undoing recounts
(adjudication/verdict_schemas).

Stable follows the bar both ways (open world): the percentile's cutoff rises as a space grows (a
first document with only declared schemas has no cutoff: bar 1), and a retraction takes support
away, so a stable schema under the bar goes back to candidate (`demote_below_bar`), its facts to
pending and their conflicts closed, as a clean build of the same documents leaves them. Before, stable
was never demoted, and which schemas were stable depended on the order documents came in (found by
tests/integration/test_chaos.py). A strict ontology's declared schemas are stable by declaration.

A verdict demotes nothing: adjudication checks active facts, so it judges facts of schemas already stable (a
clean build promotes, then judges); demotion counts the facts a verdict judged or moved off a schema as its
support (memory/stable_below_bar). Counted without them, demote_below_bar closed the verdict's own conflict
(demotion_conflicts: every conflict of the schema's facts), undoing it; the recheck applied it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.repository.facts import FactRepository


def min_frequency(facts: FactRepository, ontology: Ontology) -> int:
    """The frequency a candidate needs to become stable under the ontology's promotion rule."""
    rule = ontology.promotion
    if rule.threshold is not None:
        return rule.threshold
    if not rule.percentile:
        return 1
    return facts.promotion_cutoff(rule.percentile / 100.0) + 1


def promotion_bar(ontology: Ontology) -> tuple[int | None, float | None]:
    """(threshold, percentile 0..1) of the ontology's promotion rule, as promote_and_activate takes them."""
    rule = ontology.promotion
    if rule.threshold is not None:
        return rule.threshold, None
    return None, (rule.percentile / 100.0 if rule.percentile else None)


def promote(facts: FactRepository, ontology: Ontology, full: bool = False) -> tuple[int, int]:
    """Returns (schemas promoted, facts activated).

    After a batch only the schemas of the facts written since the last promotion are recounted (the
    facts carry an Unpromoted label until then, so a killed ingest leaves the work for the next one);
    `full` recounts every schema and activates every pending fact of a stable schema (MemoryGraph.promote).
    Either way the bar is checked against every candidate: the percentile rule's cutoff moves."""
    facts.promote_frequency(full)
    promoted, activated = facts.promote_and_activate(*promotion_bar(ontology), open_world=ontology.mode == "open")
    if full:
        activated += facts.activate_facts()
    return promoted, activated


# rounds of closing conflicts before the demotion: undoing a verdict moves support (a refine's fact back to
# its schema), which can move the bar once more; one round sufficed in every test and run measured
ROUNDS = 3


@dataclass
class Demotion:
    conflicts: int = 0  # closed as obsolete, their verdicts undone
    schemas: int = 0  # stable -> candidate
    facts: int = 0  # active -> pending
    versions: list[int] = field(default_factory=list)  # the memory versions its stamped transactions made


def demote_below_bar(facts: FactRepository, ontology: Ontology, bar: int | None = None) -> Demotion:
    """Stable schemas under the bar back to candidate: first the conflicts of their facts close (verdicts
    undone, the conflicts' other active facts queued for a new check), then the schemas and their active
    facts go back (candidate, pending). `bar`: the one a promotion just computed (else read: the percentile,
    ~20 ms). Nothing under the bar: one index seek, no write."""
    open_world = ontology.mode == "open"
    out = Demotion()
    if not open_world:
        return out
    below = facts.stable_below(min_frequency(facts, ontology) if bar is None else bar, open_world)
    for _ in range(ROUNDS if below else 0):
        ids, schemas = facts.demotion_conflicts(below)
        if not ids:
            break
        closed, version = facts.close_conflicts(ids, schemas)
        out.conflicts += closed
        out.versions.append(version)
        below = facts.stable_below(min_frequency(facts, ontology), open_world)  # undone verdicts moved support
    if below:
        out.schemas, out.facts, version = facts.demote(below)
        out.versions.append(version)
    return out
