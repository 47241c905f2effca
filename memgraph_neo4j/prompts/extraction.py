"""The memory-guided extraction prompt (A_ext) and its reply: `Extraction` (contracts.py).

The system message holds what is fixed for a run (rules, output format, ontology), so
providers with prompt caching can reuse it; the user message holds what the memory says
about this chunk (stable schemas, known entities) and the passage itself, and for a conversation message
who speaks to whom and when (prompts/chat_turn.py; a document's prompt does not change).
Bump PROMPT_VERSION whenever the wording changes, CHAT_PROMPT_VERSION when only a message's does: the
version of the prompt sent is recorded on every outcome (`prompt_version`).
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ValidationError

from memgraph_neo4j.contracts import (
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractionInput,
    KnownEntity,
    KnownSchema,
    MemoryGuide,
)
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.prompts.chat_turn import chat_block, is_turn
from memgraph_neo4j.prompts.json_reply import parse_json_object

__all__ = ["CHAT_PROMPT_VERSION", "PROMPT_VERSION", "build_prompt", "parse_extraction", "prompt_version",
           "render_schema", "system_prompt", "user_prompt"]

log = logging.getLogger(__name__)

PROMPT_VERSION = "ext-v2"  # v2: references resolve within their own section
CHAT_PROMPT_VERSION = f"{PROMPT_VERSION}+chat-v1"  # a conversation message: speaker, addressee, time

_RULES = """You extract a knowledge graph from one passage.
Return only a JSON object:
{"entities":[{"name":"...","type":"..."}],
 "facts":[{"head":"...","relation":"...","tail":"...","head_type":"...","tail_type":"...","time":null}]}
Rules:
- Only facts the passage states; no outside knowledge. Skip what you are unsure of.
- head and tail are specific named entities or values (dates, numbers), written in full.
- Resolve pronouns and references like "the company" to names in the passage, within their own section only:
  never across a heading (a line starting with #). A reference you cannot resolve there gives no fact.
- relation: lower_snake_case, head-to-tail direction (e.g. Person -born_in-> Place).
- Every head and tail also appears in entities, with the same type as in the fact.
- time: when the passage dates the fact (e.g. "1998", "2001-2005"), else null.
- If memory lists a schema or entity that fits, reuse its relation name, types and exact entity name."""


def render_schema(head_type: str, relation: str, tail_type: str) -> str:
    return f"{head_type} -{relation}-> {tail_type}"


def system_prompt(ontology: Ontology) -> str:
    """Rules + ontology; identical for every chunk of a run."""
    strict = ontology.mode == "strict"
    lines = [_RULES, "", "Entity types: " + ", ".join(t.name for t in ontology.entity_types) + "."]
    if strict:
        lines.append("Use only these entity types and the relations below.")
    else:
        lines.append("Prefer these entity types; otherwise use Thing.")
    if ontology.relations:
        lines.append("Relations (head types -> tail types; (t) = usually has a time):")
        for r in ontology.relations:
            dom = "|".join(r.domain) or "Any"
            rng = "|".join(r.range) or "Any"
            lines.append(f"{r.name}: {dom} -> {rng}{' (t)' if r.temporal else ''}")
        if not strict:
            lines.append("Coin a new lower_snake_case relation only when none of these fits.")
    return "\n".join(lines)


def prompt_version(item: ExtractionInput) -> str:
    """The version of the prompt an input gets."""
    return CHAT_PROMPT_VERSION if is_turn(item) else PROMPT_VERSION


def user_prompt(item: ExtractionInput, schemas: list[KnownSchema], entities: list[KnownEntity]) -> str:
    """Memory guidance for this chunk, then the passage (a message: after who says it to whom, and when)."""
    parts: list[str] = []
    if schemas:
        ranked = sorted(schemas, key=lambda s: -s.frequency)  # stable: keeps the guide's order on ties
        parts.append("Memory - established schemas (most used first); reuse these relation names and types:\n"
                     + "\n".join(render_schema(s.head_type, s.relation, s.tail_type) for s in ranked))
    if entities:
        rows = []
        for e in entities:
            aka = f"; also: {', '.join(e.aliases)}" if e.aliases else ""
            rows.append(f"{e.name} ({e.type}{aka})")
        parts.append("Memory - known entities in this passage; use exactly these names:\n" + "\n".join(rows))
    if is_turn(item):  # its title only repeats the speaker and the date
        parts += [chat_block(item), f"Passage:\n{item.text}"]
        return "\n\n".join(parts)
    title = f"Title: {item.title}\n" if item.title else ""
    parts.append(f"Passage:\n{title}{_marked(item)}")
    return "\n\n".join(parts)


def _marked(item: ExtractionInput) -> str:
    """The passage with its section starts shown as Markdown headings: HTML and DOCX text has no "#", and the
    rules bound a reference by the headings."""
    text, out, last = item.text, [], 0
    for offset in sorted(o for o in set(item.scopes) if 0 < o < len(item.text)):
        out.append(text[last:offset])
        out.append("" if text.startswith("#", offset) else "## ")
        last = offset
    return "".join(out) + text[last:]


def build_prompt(
    item: ExtractionInput,
    ontology: Ontology,
    guide: MemoryGuide,
    *,
    max_schemas: int = 50,
    max_entities: int = 30,
) -> tuple[str, str]:
    """(system, user) for one chunk, asking the guide for schemas and entities."""
    schemas = guide.stable_schemas(limit=max_schemas)
    entities = guide.known_entities(item.text, limit=max_entities)
    return system_prompt(ontology), user_prompt(item, schemas, entities)


# --- the reply ----------------------------------------------------------------------------------


def _clean(item: Any) -> Any:
    # LLMs write numbers where strings are expected ("time": 1998) and nulls for defaults.
    if isinstance(item, dict):
        return {k: str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for k, v in item.items() if v is not None}
    return item


def _valid_items(raw: Any, model: type[BaseModel], what: str) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError(f"'{what}' is not a list")
    out, bad = [], 0
    for item in raw:
        if model is ExtractedEntity and isinstance(item, str):
            item = {"name": item}
        try:
            out.append(model.model_validate(_clean(item)))
        except ValidationError:
            bad += 1
    if bad and not out:
        raise ValueError(f"none of the {bad} {what} is valid")
    if bad:  # one malformed fact should not cost the whole chunk (or a retry that repeats it)
        log.warning("dropped %d malformed %s of %d", bad, what, bad + len(out))
    return out


def parse_extraction(text: str) -> Extraction:
    """Parse model output into an Extraction, repairing fences/trailing text/commas; ValueError if hopeless."""
    text = text.strip()
    if not text:
        raise ValueError("empty response")
    if text == "{}":  # a model's way of saying "nothing to extract"; a repaired "{" is not
        return Extraction()
    data = parse_json_object(text)
    if isinstance(data, list):  # several objects, or an array around the object
        data = next((d for d in data if isinstance(d, dict) and {"entities", "facts"} & d.keys()), None)
    if not isinstance(data, dict) or not {"entities", "facts"} & data.keys():
        raise ValueError(f"no object with 'entities' or 'facts' in: {text[:80]!r}")
    return Extraction(entities=_valid_items(data.get("entities"), ExtractedEntity, "entities"),
                      facts=_valid_items(data.get("facts"), ExtractedFact, "facts"))
