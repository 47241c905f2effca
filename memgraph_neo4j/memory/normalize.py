"""Pure normalisation helpers: relation/type/entity-name keys and content hashes.

Everything here is deterministic and side-effect free; the merge keys produced here end up
as Neo4j node keys, so changing them changes the identity of stored nodes.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the ontology module imports us; avoid the cycle at runtime
    from memgraph_neo4j.memory.ontology import Ontology

__all__ = [
    "MAX_INDEX_KEY_BYTES",
    "MAX_KEY_CHARS",
    "bounded_key",
    "index_safe_key",
    "content_hash",
    "normalize_entity_name",
    "normalize_relation",
    "normalize_type",
    "relation_key",
    "type_key",
]

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_APOSTROPHES = re.compile(r"['\u2019\u02bc`]")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_WS = re.compile(r"\s+")
# Auxiliaries an extractor leaves on a predicate ("was born in", "is part of"). Stripped only
# before a trailing preposition: "is director" -> "director" would flip the direction.
_AUX_PREFIX = re.compile(
    r"^(?:(?:is|was|are|were|has|have|had|been|being|be)_)+(?=\w*_(?:in|on|of|by|at|to|for|from|with|as|into)$)"
)

_QUOTES = "\"'`\u00ab\u00bb\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u300c\u300d"
_WRAPPERS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_LEAD_STRIP = _QUOTES + ",;:"
_TRAIL_STRIP = _QUOTES + ".,;:!?"


def relation_key(text: str) -> str:
    """Lower snake_case form of a relation phrase, without any ontology lookup."""
    text = unicodedata.normalize("NFKC", text)
    text = _CAMEL_BOUNDARY.sub(" ", text)  # bornIn / isPartOf -> born In / is Part Of
    text = _APOSTROPHES.sub("", text)  # "member's" -> "members", not "member_s"
    words = _NON_WORD.sub(" ", text.casefold()).split()
    return "_".join(words)


def normalize_relation(text: str, ontology: Ontology | None = None) -> str:
    """Canonical relation name: lower snake_case, mapped through ontology synonyms.

    ``"Part Of"``, ``"part-of"``, ``" part of "`` and ``"partOf"`` all give ``"part_of"``.
    Returns ``""`` for text without any word character.
    """
    key = relation_key(text)
    if ontology is None or not key:
        return key
    lookup = ontology.relation_lookup
    if key in lookup:
        return lookup[key]
    stripped = _AUX_PREFIX.sub("", key)
    return lookup.get(stripped, key) if stripped else key


def type_key(text: str) -> str:
    """Case- and punctuation-insensitive lookup key for a type name or alias."""
    return "".join(_NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).split())


def _camel(text: str) -> str:
    words = _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text)).split()
    # ALL-CAPS or all-lower words get capitalised; mixed-case words (iPhone, McDonald) keep theirs.
    return "".join(w.capitalize() if w.islower() or w.isupper() else w[0].upper() + w[1:] for w in words)


def normalize_type(text: str | None, ontology: Ontology | None = None) -> str:
    """Canonical CamelCase entity type.

    Ontology names and aliases match case-insensitively (simple English plurals are tolerated);
    unknown types become a cleaned CamelCase name; empty input gives ``"Thing"``.
    """
    if not text or not (key := type_key(text)):
        return "Thing"
    if ontology is not None:
        lookup = ontology.type_lookup
        # Exact key first, then naive singulars (cities -> city, churches -> church, teams -> team).
        candidates = [key]
        if key.endswith("s"):
            candidates += [key[:-3] + "y"] if key.endswith("ies") else []
            candidates += [key[:-2]] if key.endswith("es") else []
            candidates.append(key[:-1])
        for candidate in candidates:
            if candidate in lookup:
                return lookup[candidate]
    return index_safe_key(_camel(text)) or "Thing"


def normalize_entity_name(text: str) -> str:
    """Exact-merge key for an entity name; deliberately conservative.

    NFKC, casefold, collapsed whitespace, and surrounding quotes / trailing sentence
    punctuation removed. Inner punctuation, hyphens and articles are kept, so
    ``"The Who"`` and ``"Who"`` stay distinct.
    """
    s = _WS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    while True:
        before = s
        inner = s[1:-1]
        if len(s) >= 2 and _WRAPPERS.get(s[0]) == s[-1] and s[0] not in inner and s[-1] not in inner:
            s = inner  # "(band)" -> "band", but "(a) and (b)" stays
        s = s.lstrip(_LEAD_STRIP).rstrip(_TRAIL_STRIP).strip()
        if s == before:
            return index_safe_key(s)


# An indexed key longer than this is cut and given a hash of the whole: a range index entry must stay under
# ~8 KB (4 bytes per character at most; a longer title failed its passage's write).
MAX_KEY_CHARS = 1000


def bounded_key(key: str) -> str:
    """`key` itself, or, past MAX_KEY_CHARS, its start and a hash of the whole (still one key per text)."""
    if len(key) <= MAX_KEY_CHARS:
        return key
    return key[:MAX_KEY_CHARS - 33] + "#" + content_hash(key)


# A range index entry holds at most 8,167 bytes of a node's (space, key); a 13,897-character name failed its
# whole batch ("Property value is too large to index ... property size: 13917"). Space names are at most 255
# characters (validation.check_space), so keys up to this many bytes always fit, and every key that could be
# stored before keeps its value.
MAX_INDEX_KEY_BYTES = 7_500


def index_safe_key(key: str) -> str:
    """`key` itself while its UTF-8 fits an index entry; past MAX_INDEX_KEY_BYTES, its start and a hash of the
    whole (still one key per text). Entity names (Alias ids) and type names (Type ids) go through it."""
    data = key.encode("utf-8")
    if len(data) <= MAX_INDEX_KEY_BYTES:
        return key
    return data[:MAX_INDEX_KEY_BYTES - 33].decode("utf-8", errors="ignore") + "#" + content_hash(key)


def content_hash(*parts: str | bytes) -> str:
    """sha256 (32 hex chars) over the parts, length-prefixed so ("ab","c") != ("a","bc")."""
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8")
        h.update(f"{len(data)}:".encode("ascii"))
        h.update(data)
    return h.hexdigest()[:32]
