"""Algorithm 1, stage II: recount schema support, promote candidates to stable, activate their facts.

A schema's frequency is the number of distinct passages supporting its facts. The ontology's rule
gives the bar: a fixed threshold tau, or "drop the lowest p %" of the undeclared schemas (promote
what lies strictly above the frequency at that percentile). Stable is never demoted; facts of
stable schemas become active, also those written before the promotion. A schema a refine verdict
creates (born_in_broader) follows the same rule when the verdict is applied (adjudication/refined_schemas).
"""

from __future__ import annotations

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
