"""Ids by a unique prefix, one rule for every surface: wherever the API, the CLI or an MCP tool takes a
conflict, fact or document id, a unique prefix of at least MIN_PREFIX characters names it too.

A full id always names itself (even when it also starts a longer one). A shorter prefix refuses; one that
starts several ids lists them (short id and a label: type and facts, text, title); an unknown id says
where the ids are listed, in the words of the caller's surface (validation.SurfaceError).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.validation import SurfaceError

MIN_PREFIX = 6  # characters a prefix needs: short enough to type, long enough to be rarely ambiguous
SHORT_ID = 12  # characters of an id that listings show (cli `conflicts list`, the demo)
SHOWN = 5  # candidates an ambiguous prefix lists
LABEL_CHARS = 80

# kind -> (statement, the remedy that lists these ids: validation.API_REMEDIES)
KINDS = {"conflict": ("admin/match_conflicts", "list_conflicts"),
         "fact": ("admin/match_facts", "list_facts"),
         "document": ("admin/match_documents", "list_documents")}


class IdError(SurfaceError):
    """An id that names nothing, or a prefix too short or ambiguous; the message says which and what to do."""


@dataclass(frozen=True, slots=True)
class Candidate:
    id: str
    label: str | None = None


def short_ids(ids: Sequence[str]) -> dict[str, str]:
    """Each id cut to SHORT_ID characters, or to as many more as keep these ids apart."""
    n = SHORT_ID
    while len({i[:n] for i in ids}) < len(set(ids)) and n < max(map(len, ids)):
        n += 4
    return {i: i[:n] for i in ids}


def listing(candidates: Sequence[Candidate]) -> str:
    short = short_ids([c.id for c in candidates])
    return ", ".join(f"{short[c.id]} ({_clip(c.label)})" if c.label else short[c.id] for c in candidates)


def _clip(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[:LABEL_CHARS - 1] + "…"


def pick(kind: str, given: str, matches: Sequence[Candidate], scope: str,
         among: Sequence[Candidate] | None = None, **values: str) -> str:
    """The one id `given` names among `matches` (the ids that start with it): itself when it is a full id,
    else the only match of a prefix of MIN_PREFIX characters or more. `scope` says where ids were looked
    for ("space 'demo'"); `among`: every id there, listed when nothing matches (else the remedy of `kind`,
    worded by the caller's surface with `values`)."""
    if not isinstance(given, str):
        raise TypeError(f"a {kind} id is a string, not {type(given).__name__}")
    if any(c.id == given for c in matches):
        return given
    remedy = None if among is not None else KINDS[kind][1]
    if len(given) < MIN_PREFIX:
        raise IdError(f"{kind} id {given!r} is too short: give at least {MIN_PREFIX} characters of it", remedy,
                      **values)
    if not matches:
        if among is not None:
            raise IdError(f"no {kind} {given!r} in {scope}: give one of {listing(among)}")
        raise IdError(f"no {kind} {given!r} in {scope}", remedy, **values)
    if len(matches) > 1:
        shown = sorted(matches, key=lambda c: c.id)[:SHOWN]
        more = ", ..." if len(matches) > SHOWN else ""
        raise IdError(f"{given!r} starts {'more than ' * bool(more)}{len(shown)} {kind} ids in {scope} "
                      f"({listing(shown)}{more}): give more of it")
    return matches[0].id


class IdRepository(Repository):
    def matches(self, kind: str, prefixes: Sequence[str], limit: int = SHOWN + 1) -> dict[str, list[Candidate]]:
        """Per prefix (or full id), the ids of `kind` in the space that start with it (at most `limit`)."""
        statement, _ = KINDS[kind]
        rows = self.store.read(statement, space=self.space, prefixes=list(dict.fromkeys(prefixes)), limit=limit)
        return {r["prefix"]: [Candidate(m["id"], m["label"]) for m in r["matches"]] for r in rows}

    def resolve_all(self, kind: str, given: Sequence[str]) -> dict[str, Candidate]:
        """Each given id or prefix -> the one id it names (with its label), in one read; IdError at the first
        that names none or several."""
        found = self.matches(kind, [g for g in given if isinstance(g, str)])
        resolved = {}
        for g in given:
            named = pick(kind, g, found.get(g, []), f"space {self.space!r}", space=self.space)
            resolved[g] = next(c for c in found[g] if c.id == named)
        return resolved

    def resolve(self, kind: str, given: str) -> str:
        """The id that `given` (an id, or a unique prefix of one) names; IdError if none or several."""
        return self.resolve_all(kind, [given])[given].id
