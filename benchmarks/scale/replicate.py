"""A large corpus from a small one: copies of MuSiQue-train whose entities are renamed, with the real
gpt-3.5 OpenIE triples renamed the same way, and vectors that need no model per copy.

Copy 0 is the corpus itself. In copy c every entity name the triples mention is suffixed with a
pseudo-word of its own ("Paris" -> "Paris Lozq"), in the passage, its title and its triples, so the
copies add new entities, facts and schema support instead of merging into the originals.

Vectors: the benchmark measures the database at size, not the embedder, so a copy's text gets the
vector of its original text (embedded once by MiniLM, cached) turned by a fixed, text-seeded random
direction: cosine 1/sqrt(2) ~ 0.71 to the original, below the merge (0.9) and bridge (0.8)
thresholds, so copies are neither merged into nor bridged to the originals by construction.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionOutcome
from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.ingest.readers import Document

_SYLLABLES = ["ka", "lo", "mer", "vin", "ta", "dor", "shi", "bru", "nel", "qua", "ri", "zen", "fo", "gal", "pe", "tur"]


def tag(copy: int) -> str:
    """A pronounceable word, unique per copy number (base-16 digits as syllables)."""
    digits = []
    n = copy
    while True:
        digits.append(_SYLLABLES[n % 16])
        n //= 16
        if n == 0:
            break
    return "".join(reversed(digits)).capitalize() + "zq"  # "zq": no English or name word ends so


_TAGGED = re.compile(r" [A-Z][a-z]+zq\b")


def untagged(text: str) -> str:
    return _TAGGED.sub("", text)


def rename_map(outcome: ExtractionOutcome, copy: int) -> dict[str, str]:
    """Every entity name of the outcome -> its name in `copy`, longest first (so 'New York City'
    is replaced before 'New York')."""
    names = {e.name for e in outcome.extraction.entities} if outcome.extraction else set()
    if outcome.extraction:
        names |= {n for f in outcome.extraction.facts for n in (f.head, f.tail)}
    suffix = " " + tag(copy)
    return {n: n + suffix for n in sorted(names, key=len, reverse=True) if len(n) > 1}


def rename_text(text: str, names: dict[str, str]) -> str:
    if not names:
        return text
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names))
    return pattern.sub(lambda m: names[m.group(0)], text)


def copy_document(doc: Document, outcome: ExtractionOutcome, copy: int) -> Document:
    names = rename_map(outcome, copy)
    return Document(title=rename_text(doc.title, names), text=rename_text(doc.text, names), source=doc.source,
                    metadata={**doc.metadata, "copy": copy})


def copy_outcome(outcome: ExtractionOutcome, copy: int, passage_id: str, doc_id: str) -> ExtractionOutcome:
    names = rename_map(outcome, copy)
    new = outcome.model_copy(update={"passage_id": passage_id, "doc_id": doc_id})
    if outcome.extraction is None:
        return new
    entities = [ExtractedEntity(name=names.get(e.name, e.name), type=e.type) for e in outcome.extraction.entities]
    facts = [ExtractedFact(**{**f.model_dump(), "head": names.get(f.head, f.head), "tail": names.get(f.tail, f.tail)})
             for f in outcome.extraction.facts]
    return new.model_copy(update={"extraction": Extraction(entities=entities, facts=facts)})


class CopyEmbedder(Embedder):
    """Vectors of copies from the vectors of their originals (see the module docstring)."""

    name = "minilm-copies"

    def __init__(self, base: Embedder) -> None:
        self.base = base
        self._cache: dict[str, np.ndarray] = {}

    @property
    def dimension(self) -> int:
        return self.base.dimension

    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        originals = [untagged(t) for t in texts]
        todo = sorted({o for o in originals if o not in self._cache})
        if todo:
            for text, vector in zip(todo, self.base.embed_documents(todo, show_progress=show_progress)):
                self._cache[text] = vector
        return np.stack([self._turn(self._cache[o], t) if o != t else self._cache[o]
                         for o, t in zip(originals, texts)])

    @staticmethod
    def _turn(vector: np.ndarray, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        noise = np.random.default_rng(seed).standard_normal(vector.shape[0]).astype(np.float32)
        noise -= noise.dot(vector) * vector  # orthogonal to the original: cosine exactly 1/sqrt(2)
        noise /= np.linalg.norm(noise)
        out = vector + noise
        return out / np.linalg.norm(out)


def replicate(docs: Sequence[Document], outcomes: Sequence[ExtractionOutcome], copies: int
              ) -> list[tuple[int, Document, ExtractionOutcome]]:
    """(copy, document, outcome of its original) for copies 0..copies-1; ids are made at ingest."""
    return [(c, doc if c == 0 else copy_document(doc, out, c), out)
            for c in range(copies) for doc, out in zip(docs, outcomes)]
