"""Time-scoped facts: when a fact became true (`valid_at`) and when a later one replaced it (`invalid_at`).

- `valid_at` comes from the fact's own time qualifier when it names a date ("2019", "May 2023",
  "2023-05-08"), else from the earliest episode that said it (the message's timestamp).
- `invalid_at`: a relation that holds one value per head at a time (the ontology's `functional`
  relations, plus any the caller names, e.g. `lives_in`) loses its earlier value when a later message
  gives another one ("I moved to Berlin"): the earlier fact gets the later one's `valid_at` as its
  `invalid_at` and keeps its state, so `as_of` queries still find it for the time it held. This is
  the functional-relation rule; adjudication's temporal verdict, when it qualified a fact with its
  years, gives the same picture from the text itself.

Facts without either time stay valid at every time (no valid_at, no invalid_at).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.repository.conversation import ConversationRepository, ValidAt

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], 1)}
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r"|" + "|".join(m[:3] for m in _MONTHS) + r")\b", re.I)
_DAY = re.compile(r"\b([0-2]?\d|3[01])(?:st|nd|rd|th)?\b")
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?", re.I)

# states whose facts take part in validity (verdicts are out, as in retrieval)
VALIDITY_STATES = (FactState.ACTIVE, FactState.PENDING)


def parse_time(text: str | datetime | None) -> datetime | None:
    """A timestamp from ISO 8601 or free text ("1:56 pm on 8 May, 2023", "May 2023", "2019"), in UTC;
    None when no year is found. Missing month or day default to the first."""
    if text is None or isinstance(text, datetime):
        return _utc(text) if text is not None else None
    value = str(text).strip()
    if not value:
        return None
    try:
        return _utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        pass
    year = _YEAR.search(value)
    if year is None:
        return None
    rest = value[:year.start()] + " " + value[year.end():]
    month_match = _MONTH.search(rest)
    month = _MONTHS[_full_month(month_match.group(1))] if month_match else None
    day = None
    if month_match:
        clockless = _CLOCK.sub(" ", rest)
        day_match = _DAY.search(clockless)
        day = int(day_match.group(1)) if day_match and 1 <= int(day_match.group(1)) <= 31 else None
    hour = minute = 0
    if (clock := _CLOCK.search(value)) is not None:
        hour, minute = int(clock.group(1)) % 24, int(clock.group(2)) % 60
        meridiem = (clock.group(3) or "").lower().replace(".", "")
        if meridiem == "pm" and hour < 12:
            hour += 12
        elif meridiem == "am" and hour == 12:
            hour = 0
    try:
        return datetime(int(year.group(1)), month or 1, day or 1, hour, minute, tzinfo=UTC)
    except ValueError:  # 31 February
        return datetime(int(year.group(1)), month or 1, 1, hour, minute, tzinfo=UTC)


def _full_month(word: str) -> str:
    word = word.lower()
    return next(m for m in _MONTHS if m.startswith(word[:3]))


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def changing_relations(ontology: Ontology, extra: Iterable[str] = ()) -> list[str]:
    """Relations with one value per head at a time: the ontology's functional ones and `extra`."""
    return sorted(set(ontology.consistency_rules().functional) | set(extra))


def stamp_validity(repository: ConversationRepository, ontology: Ontology, episode_ids: Sequence[str],
                   extra_relations: Iterable[str] = ()) -> tuple[int, int]:
    """valid_at for the facts these episodes evidence, then invalid_at over the space's changing
    relations, in one stamped transaction. Returns (facts stamped, facts invalidated). Idempotent."""
    stamped = []
    for fact in repository.episode_facts(episode_ids):
        when = parse_time(fact.time) or fact.said
        if fact.valid_at is None or when < fact.valid_at:
            stamped.append(ValidAt(fact.id, when))
    # one transaction that moves the memory version on, stamped on the facts it changes (retrieval copies
    # hold no validity, so they catch up on nothing; a version that moved unstamped made them re-read all)
    batch = WriteBatch(repository.store, repository.space, stamped=True)
    index = repository.add_validity(batch, stamped, changing_relations(ontology, extra_relations), VALIDITY_STATES)
    results = batch.commit()
    return len(stamped), (results[index][0]["invalidated"] if results[index] else 0)
