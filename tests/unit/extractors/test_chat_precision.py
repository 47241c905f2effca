"""Precision of the offline extractor on chat turns (LoCoMo), hand-labelled.

The fixture (tests/fixtures/chat_precision.json) names LoCoMo messages by conversation, message id and
sha256 of the text the extractor reads ("Speaker: text"; the texts stay in ../shared/data). They are the
first SAMPLE messages, in the order of sha256(SEED, conversation, message id, text) so nobody chose them,
on which the extractor of the labelling commit produced at least one fact other than co-occurrence (a
uniform sample of messages would hold about one such fact: 1.6 per 100 messages). Each fact is judged by
reading the message: correct = the message states that relation between those two, in that direction ("I"
being the speaker and "you" the other participant); ``co_occurs_with`` facts only on whether both ends are
real entity names of one sentence.

The inputs are built as conversation ingest builds them (ingest.episodes.extraction_inputs). When the
extractor changes, print the facts still to label with
``.venv/bin/python tests/unit/extractors/test_chat_precision.py`` and add them to the fixture.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import cache
from pathlib import Path

import pytest

from memgraph_neo4j.contracts import ExtractionInput
from memgraph_neo4j.evaluation.fact_sample import offline_triples
from memgraph_neo4j.evaluation.locomo import load_locomo
from memgraph_neo4j.extractors.offline import CO_OCCURS, load_spacy
from memgraph_neo4j.ingest.episodes import build_episodes, extraction_inputs

ROOT = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data")
DATA = SHARED / "locomo" / "locomo10.zip"
FIXTURE = ROOT / "tests" / "fixtures" / "chat_precision.json"
SEED = "chat-precision-v1"
SAMPLE = 60
MARGIN = 0.03  # the floor sits 3 points below the measured precision
COVERAGE = 0.90  # share of the facts produced now that must be labelled in the fixture

needs_data = pytest.mark.skipif(not DATA.is_file(), reason=f"LoCoMo not found at {DATA} (set MEMGRAPH_SHARED_DATA)")
needs_spacy = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def messages() -> list[tuple[str, str, ExtractionInput]]:
    """(conversation, message id, input) of every LoCoMo message, in the seeded order."""
    out = []
    for conv in load_locomo(DATA).conversations:
        batch = build_episodes([conv])
        turn = {pid: t for (_, t), pid in batch.by_turn.items()}
        out += [(conv.id, turn[i.passage_id], i) for i in extraction_inputs(batch, batch.passages)]
    return sorted(out, key=lambda m: sha256(f"{SEED}\n{m[0]}\n{m[1]}\n{m[2].text}"))


def extract(items: list[ExtractionInput]) -> list[list[tuple[str, str, str]]]:
    return offline_triples(items)


@pytest.fixture(scope="module")
def labelled() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(labelled: dict) -> list[tuple[dict, list[tuple[str, str, str]]]]:
    by_ref = {(c, t): i for c, t, i in messages()}
    rows = labelled["messages"]
    missing = [r for r in rows if (r["conversation"], r["id"]) not in by_ref
               or sha256(by_ref[(r["conversation"], r["id"])].text) != r["sha256"]]
    assert not missing, f"fixture messages not in {DATA} as labelled (data changed?): {missing[:3]}"
    return list(zip(rows, extract([by_ref[(r["conversation"], r["id"])] for r in rows]), strict=True))


@needs_data
def test_the_fixture_is_a_seeded_sample_of_references(labelled: dict) -> None:
    rows = labelled["messages"]
    rank = {(c, t): n for n, (c, t, _) in enumerate(messages())}
    order = [rank[(r["conversation"], r["id"])] for r in rows]
    assert order == sorted(order) and len(rows) == SAMPLE  # in the seeded order, not hand-ordered
    assert "text" not in json.dumps(rows[0])  # references only, never the texts
    facts = [f for r in rows for f in r["facts"]]
    assert all(isinstance(f["correct"], bool) for f in facts)
    assert all(f.get("reason") for f in facts if not f["correct"])


@needs_data
@needs_spacy
def test_chat_facts_are_labelled_and_precise(run, labelled: dict) -> None:
    produced = known = real = correct = 0
    for row, facts in run:
        labels = {(f["head"], f["relation"], f["tail"]): f["correct"] for f in row["facts"]}
        for fact in facts:
            produced += 1
            if fact in labels:
                known += 1
                if fact[1] != CO_OCCURS:
                    real += 1
                    correct += labels[fact]
    assert known >= COVERAGE * produced, (
        f"only {known} of {produced} facts are labelled: label the new ones (run this file as a script)")
    floor = labelled["measured_precision"] - MARGIN
    assert correct / real >= floor, f"precision {correct / real:.3f} fell below {floor:.3f} ({correct}/{real})"


if __name__ == "__main__":  # print the sample's facts that the fixture does not label yet
    known = json.loads(FIXTURE.read_text(encoding="utf-8")) if FIXTURE.is_file() else {"messages": []}
    labels = {(r["conversation"], r["id"]): {(f["head"], f["relation"], f["tail"]) for f in r["facts"]}
              for r in known["messages"]}
    order = messages()
    sample = [(c, t, i) for c, t, i in order if (c, t) in labels]
    if len(sample) < SAMPLE:  # no fixture yet: the first SAMPLE messages with a fact other than co-occurrence
        facts = extract([i for _, _, i in order])
        sample = [m for m, f in zip(order, facts, strict=True) if any(r != CO_OCCURS for _, r, _ in f)][:SAMPLE]
    for (c, t, item), facts in zip(sample, extract([i for _, _, i in sample]), strict=True):
        new = [f for f in facts if f not in labels.get((c, t), set())]
        print(json.dumps({"conversation": c, "id": t, "sha256": sha256(item.text), "text": item.text,
                          "new": [{"head": h, "relation": r, "tail": tl, "correct": None} for h, r, tl in new]},
                         ensure_ascii=False))
    sys.exit(0)
