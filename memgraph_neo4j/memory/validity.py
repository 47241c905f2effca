"""Time-scoped facts: when a fact became true (`valid_at`) and when a later one replaced it (`invalid_at`).

- `valid_at` and a stated `invalid_at` come from the fact's own time qualifier, for facts from any
  source, as ingest writes them (memory/timespan.py `time_interval`: "from 1975 to 1979" ->
  [1975-01-01, 1980-01-01)); a conversation fact whose qualifier names no date is valid from the
  earliest episode that said it (the message's timestamp).
- `invalid_at`: a relation that holds one value per head at a time (the ontology's `functional`
  relations, plus any the caller names, e.g. `lives_in`) loses its earlier value when a later message
  gives another one ("I moved to Berlin"): the earlier fact gets the later one's `valid_at` as its
  `invalid_at` and keeps its state, so `as_of` queries still find it for the time it held. This is
  the functional-relation rule; adjudication's temporal verdict, when it qualified a fact with its
  years, gives the same picture from the text itself.

Facts without either time stay valid at every time (no valid_at, no invalid_at).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.timespan import parse_time, time_interval
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.repository.conversation import ConversationRepository, ValidAt

__all__ = ["VALIDITY_STATES", "changing_relations", "parse_time", "stamp_validity"]

# states whose facts take part in validity (verdicts are out, as in retrieval)
VALIDITY_STATES = (FactState.ACTIVE, FactState.PENDING)


def changing_relations(ontology: Ontology, extra: Iterable[str] = ()) -> list[str]:
    """Relations with one value per head at a time: the ontology's functional ones and `extra`."""
    return sorted(set(ontology.consistency_rules().functional) | set(extra))


def stamp_validity(repository: ConversationRepository, ontology: Ontology, episode_ids: Sequence[str],
                   extra_relations: Iterable[str] = ()) -> tuple[int, int]:
    """valid_at for the facts these episodes evidence, then invalid_at over the space's changing
    relations, in one stamped transaction. Returns (facts stamped, facts invalidated). Idempotent."""
    stamped = []
    for fact in repository.episode_facts(episode_ids):
        start, end = time_interval(fact.time)
        # no date in the qualifier: true from when it was said; "until 2001" alone: since always
        when = start or (fact.said if end is None else None)
        if when is not None and (fact.valid_at is None or when < fact.valid_at):
            stamped.append(ValidAt(fact.id, when))
    # one transaction that moves the memory version on, stamped on the facts it changes (retrieval copies
    # hold no validity, so they catch up on nothing; a version that moved unstamped made them re-read all)
    batch = WriteBatch(repository.store, repository.space, stamped=True)
    index = repository.add_validity(batch, stamped, changing_relations(ontology, extra_relations), VALIDITY_STATES)
    results = batch.commit()
    return len(stamped), (results[index][0]["invalidated"] if results[index] else 0)
