"""The states a Schema and a Fact can be in, in one place (they are stored as `state` properties).

Schemas: `candidate` until seen often enough, then `stable` (promotion, cypher/memory/promote_*).
Facts: `pending` while their schema is a candidate, `active` once it is stable; the verdict states
are set by checking and adjudication (and by a strict ontology for undeclared schemas).
"""

SCHEMA_CANDIDATE = "candidate"
SCHEMA_STABLE = "stable"

FACT_PENDING = "pending"
FACT_ACTIVE = "active"
# verdicts: the memory judged these facts wrong, outdated or in conflict; retrieval leaves them out
# unless adjudication is switched off (the "no adjudication" ablation)
FACT_VERDICTS = ("discarded", "superseded", "contradicted")


def fact_states(schema_filter: bool, adjudication: bool = True) -> list[str]:
    """Fact states retrieval uses: active only under the schema filter, verdicts only without adjudication."""
    states = [FACT_ACTIVE] if schema_filter else [FACT_ACTIVE, FACT_PENDING]
    return states if adjudication else [*states, *FACT_VERDICTS]


def schema_states(schema_filter: bool) -> list[str]:
    return [SCHEMA_STABLE] if schema_filter else [SCHEMA_STABLE, SCHEMA_CANDIDATE]
