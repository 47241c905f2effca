"""Algorithm 1, stage II: recount schema support, promote candidates to stable, activate their facts.

A schema's frequency is the number of distinct passages supporting its facts. The ontology's rule
gives the bar: a fixed threshold tau, or "drop the lowest p %" of the undeclared schemas (promote
what lies strictly above the frequency at that percentile). Stable is never demoted; facts of
stable schemas become active, also those written before the promotion.
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


def promote(facts: FactRepository, ontology: Ontology) -> tuple[int, int]:
    """Returns (schemas promoted, facts activated)."""
    facts.promote_frequency()
    promoted = facts.promote_schemas(min_frequency(facts, ontology), open_world=ontology.mode == "open")
    return promoted, facts.activate_facts()
