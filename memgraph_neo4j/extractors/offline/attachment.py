"""Which noun a participle after a prepositional phrase is about, when the parse hung it on the phrase's last
name (dependency.py): "a school in Manhattan, New York established in 1876" (the school), "a biopic about Amy
Johnson, directed by X" (the biopic)."""

from __future__ import annotations

from typing import Any

__all__ = ["in_place_phrase", "outer_noun"]


def in_place_phrase(tok: Any) -> bool:
    """A name at the end of a locative phrase ("in Manhattan, New York"): a participle after it is about
    what the phrase locates (measured: "Canada, located between ...", "New York established in 1876")."""
    tok = _phrase_end(tok)
    return tok.dep_ == "pobj" and tok.head.lower_ in ("in", "of", "at", "near") and tok.ent_type_ in ("GPE", "LOC")


def _phrase_end(tok: Any) -> Any:
    while tok.dep_ in ("appos", "conj", "npadvmod", "compound") and tok.head.i != tok.i:
        tok = tok.head
    return tok


def outer_noun(tok: Any) -> Any | None:
    """The noun a prepositional phrase ending in `tok` hangs on: "a school in Manhattan, New York" -> school,
    "a biopic about Amy Johnson" -> biopic (a participle after the phrase may be about that noun)."""
    tok = _phrase_end(tok)
    if tok.dep_ == "pobj" and tok.head.dep_ == "prep" and tok.head.head.pos_ == "NOUN":
        return tok.head.head
    # "a film directed by X, written by Y and starring Z": the parse hangs "written" on X; the noun the
    # first participle is about
    by = tok.head.head if tok.dep_ == "pobj" and tok.head.dep_ == "agent" else None
    if by is not None and by.dep_ == "acl" and by.head.pos_ == "NOUN":
        return by.head
    return None
