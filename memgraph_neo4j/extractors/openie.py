"""Import pre-extracted OpenIE triples (HippoRAG's ``openie_*.json``) as an extractor.

HippoRAG ships the real gpt-3.5-turbo-1106 OpenIE of its benchmark corpora: ``{"docs": [...]}``
where each doc has ``passage`` (``"title\\ntext"``), usually ``title`` and ``text`` (older
files: ``idx`` instead), ``extracted_entities`` and ``extracted_triples``. Replaying them gives
a real LLM-extracted memory without calling an LLM.

Malformed triples (not exactly three items, non-strings, empty parts) are skipped and counted;
relation phrases are kept raw (the memory writer normalises them). Entities carry no type in
the file: they are typed offline by ``TypeAssigner`` (rules, then MiniLM nearest type).

Passages are matched by content, not position: a hash of the whitespace/case-normalised text,
indexed for ``text``, for ``title\\ntext`` and for (title, text), so an input matches whether
the pipeline passes the bare text (with or without its title) or the HippoRAG passage string.
On MuSiQue-train all 1,890 corpus passages match, in every one of those three forms.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memgraph_neo4j import contracts
from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionOutcome
from memgraph_neo4j.extractors.typing import TypeAssigner
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name, relation_key

__all__ = ["NO_MATCH_ERROR", "OpenIEDoc", "OpenIEExtractor", "OpenIEFile", "load_openie", "passage_key"]

NO_MATCH_ERROR = "no pre-extracted triples for this passage"


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def passage_key(text: str, title: str | None = None) -> str:
    """Lookup key: hash of the normalised text, plus the normalised title when given."""
    if title is None:
        return content_hash("openie", _norm(text))
    return content_hash("openie", _norm(title), _norm(text))


class OpenIEDoc(BaseModel):
    index: int  # position in the file
    idx: int | str | None = None  # HippoRAG's own id, when the file has one
    title: str = ""
    text: str
    passage: str
    entities: list[str] = Field(default_factory=list)
    triples: list[tuple[str, str, str]] = Field(default_factory=list)


class OpenIEFile(BaseModel):
    path: str
    docs: list[OpenIEDoc]
    triples_total: int = 0
    skipped_triples: int = 0  # malformed: wrong length, non-string or empty part
    duplicate_triples: int = 0  # same (head, relation, tail) twice in one doc after normalisation
    skipped_entities: int = 0  # non-string or empty extracted_entities items

    def model_post_init(self, context: Any) -> None:
        self._index: dict[str, int] = {}
        for i, doc in enumerate(self.docs):  # setdefault: on duplicates the first doc wins
            self._index.setdefault(passage_key(doc.text, doc.title), i)
            self._index.setdefault(passage_key(doc.passage), i)
            self._index.setdefault(passage_key(doc.text), i)

    def find(self, text: str, title: str | None = None) -> OpenIEDoc | None:
        """The doc whose passage is ``text`` (bare, or ``title\\ntext``), by normalised content."""
        keys = [passage_key(text, title), passage_key(f"{title}\n{text}")] if title is not None else []
        for key in (*keys, passage_key(text)):
            if (i := self._index.get(key)) is not None:
                return self.docs[i]
        return None


def _valid(part: Any) -> bool:
    return isinstance(part, str) and bool(part.strip())


def load_openie(path: str | Path) -> OpenIEFile:
    """Read a HippoRAG OpenIE JSON file (or the single ``openie_*.json`` in a folder)."""
    path = Path(path)
    if path.is_dir():
        found = sorted(path.glob("openie_*.json"))
        if len(found) != 1:
            raise FileNotFoundError(f"expected exactly one openie_*.json in {path}, found {len(found)}")
        path = found[0]
    if path.exists() and not path.is_file():  # a pipe or a device: reading it would block or never end
        raise ValueError(f"{path}: not a regular file; give the OpenIE JSON file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} "
                         "(expected HippoRAG OpenIE JSON)") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not valid UTF-8 text ({exc.reason} at byte {exc.start})") from None
    raw_docs = data.get("docs") if isinstance(data, dict) else None
    if not isinstance(raw_docs, list):
        raise ValueError(f"{path}: expected a JSON object with a 'docs' list (HippoRAG OpenIE format)")
    docs: list[OpenIEDoc] = []
    total = skipped = dupes = bad_ents = 0
    for i, d in enumerate(raw_docs):
        if not isinstance(d, dict) or not isinstance(d.get("passage"), str):
            raise ValueError(f"{path}: docs[{i}] has no 'passage' string")
        passage: str = d["passage"]
        title, text = d.get("title"), d.get("text")
        if not isinstance(title, str) or not isinstance(text, str):
            title, _, text = passage.partition("\n") if "\n" in passage else ("", "", passage)
        ents = [e.strip() for e in d.get("extracted_entities") or [] if _valid(e)]
        bad_ents += len(d.get("extracted_entities") or []) - len(ents)
        triples: list[tuple[str, str, str]] = []
        seen: set[tuple[str, str, str]] = set()
        for t in d.get("extracted_triples") or []:
            total += 1
            if not (isinstance(t, list | tuple) and len(t) == 3 and all(map(_valid, t))):
                skipped += 1
                continue
            h, r, tl = (x.strip() for x in t)
            key = (normalize_entity_name(h), relation_key(r), normalize_entity_name(tl))
            if key in seen:
                dupes += 1
                continue
            seen.add(key)
            triples.append((h, r, tl))
        docs.append(OpenIEDoc(index=i, idx=d.get("idx"), title=title, text=text, passage=passage,
                              entities=ents, triples=triples))
    return OpenIEFile(path=str(path), docs=docs, triples_total=total, skipped_triples=skipped,
                      duplicate_triples=dupes, skipped_entities=bad_ents)


class OpenIEExtractor:
    """``Extractor`` that replays pre-extracted triples; no LLM call, zero usage."""

    name = "openie"
    uses_guide = False  # the output depends on the text only: ingest may extract the next batch early

    def __init__(self, openie_file: OpenIEFile, type_assigner: TypeAssigner | None,
                 model_name: str = "gpt-3.5-turbo-1106") -> None:
        self.openie_file = openie_file
        self.type_assigner = type_assigner  # None: every entity is 'Thing'
        self.model_name = model_name

    def extract(self, items: Sequence[contracts.ExtractionInput], guide: contracts.MemoryGuide | None = None
                ) -> list[ExtractionOutcome]:
        docs = [self.openie_file.find(item.text, item.title) for item in items]
        # One batched typing call for the whole batch, keyed by normalised name.
        keys = list({k: None for d in docs if d is not None for k in self._names(d)})
        types = dict(zip(keys, self._types(keys), strict=True))
        out: list[ExtractionOutcome] = []
        for item, doc in zip(items, docs, strict=True):
            common = {"passage_id": item.passage_id, "doc_id": item.doc_id, "title": item.title, "extractor": self.name,
                      "model": self.model_name, "usage": contracts.Usage()}
            if doc is None:
                out.append(ExtractionOutcome(error=NO_MATCH_ERROR, **common))
                continue
            names = self._names(doc)  # key -> surface name used throughout this passage
            entities = [ExtractedEntity(name=n, type=types[k]) for k, n in names.items()]
            facts = []
            for h, r, t in doc.triples:
                hk, tk = normalize_entity_name(h), normalize_entity_name(t)
                facts.append(ExtractedFact(head=names[hk], relation=r, tail=names[tk],
                                           head_type=types[hk], tail_type=types[tk]))
            out.append(ExtractionOutcome(extraction=Extraction(entities=entities, facts=facts), **common))
        return out

    def estimate(self, items: Sequence[contracts.ExtractionInput], guide: contracts.MemoryGuide | None = None
                 ) -> contracts.Usage:
        """Replaying triples calls no model."""
        return contracts.Usage()

    @staticmethod
    def _names(doc: OpenIEDoc) -> dict[str, str]:
        """Normalised name -> first surface form: extracted_entities, then triple heads/tails."""
        seen: dict[str, str] = {}
        for n in [*doc.entities, *(x for h, _, t in doc.triples for x in (h, t))]:
            seen.setdefault(normalize_entity_name(n), n)
        return seen

    def _types(self, names: list[str]) -> list[str]:
        return self.type_assigner.assign(names) if self.type_assigner is not None else ["Thing"] * len(names)
