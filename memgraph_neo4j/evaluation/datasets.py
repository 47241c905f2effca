"""Evaluation datasets: questions with gold evidence, and the corpus to retrieve them from.

``load_dataset(path)`` recognises these layouts (``path`` is a folder unless said otherwise):

* **HippoRAG layout** (MuSiQue, HotpotQA, 2WikiMultiHopQA): ``questions.json`` + ``corpus.json``,
  optionally an OpenIE file ``openie_*.json`` (the first in name order is ``EvalDataset.openie``).
  ``questions.json`` is a JSON list; each record has ``question``, ``answer``, an ``id`` or ``_id``, and
  either MuSiQue ``paragraphs`` (``[{title, is_supporting}]``) or HotpotQA/2Wiki ``supporting_facts``
  (``[[title, sentence_index]]``). Gold = titles (``gold="titles"``): the titles of the supporting
  paragraphs / facts, distinct, in order. ``corpus.json`` is a list of ``{title, text}`` (one passage
  each) or an object ``{title: [sentences]}``; whichever it holds is detected from its content.
  ``kind``: HotpotQA/2Wiki ``type``; MuSiQue the hop prefix of the id (``2hop``, ``3hop1``, ...).
* **GraphRAG-Bench**: ``questions.json`` + one or more ``*.parquet`` files with columns
  ``corpus_name`` and ``context`` (one Document per row, titled ``corpus_name``). Each question has
  ``question``, ``answer``, ``question_type`` (``kind``), ``source`` (the ``corpus_name`` it is about)
  and ``evidence``: paraphrased sentences joined by ``"; "``, split into ``EvalQuestion.evidence``
  (``gold="evidence"``). Reading parquet needs pyarrow (installed with ``graphdatascience``).
* **JSONL**: a folder holding ``questions.jsonl`` and exactly one corpus, or a ``*.jsonl`` questions
  file whose corpus sits in the same folder. The corpus is the first and only one of ``corpus/``
  (a folder), ``corpus.jsonl``, ``corpus.json``, ``corpus.md``, ``corpus.markdown``, ``corpus.txt``,
  read by ``memgraph_neo4j.ingest.readers.read_path`` (JSONL/JSON records with ``text`` and an
  optional ``title``; HippoRAG corpus files are recognised too). ``questions.jsonl`` holds one JSON
  object per line (blank lines skipped): ``question`` (string, required), ``answer`` (string,
  optional), ``id`` (optional; default ``q<line index>``), ``kind`` or ``type`` (optional), and
  exactly one of ``gold_titles`` (titles of corpus documents) or ``gold_passages`` (passage texts,
  matched by exact text: give each passage as one corpus record), a non-empty list of strings; all
  lines use the same one. Every gold title must be a corpus title, every gold passage must occur
  in a corpus text.
* **LoCoMo** (``locomo10.zip``, ``locomo10.json``, or a folder holding either): conversations, not documents
  (``EvalDataset.conversations``, one space each); the questions of categories 1-4, gold = the ids of the
  messages that hold the answer (``gold="turns"``, ``EvalQuestion.gold_turns``); see ``evaluation/locomo.py``.

Common rules: every question needs at least one gold item; a repeated id gets ``#2``, ``#3``, ...
appended; ``limit`` keeps the first N questions in file order and the whole corpus (the retrieval
pool), except GraphRAG-Bench, which keeps only the novels named by the kept questions' ``source``.
``name`` is the folder name (for a JSONL file: its stem, or its folder's name when the stem is
``questions``). Problems raise ``DatasetError`` with one line naming the file and the expected format.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NoReturn

from memgraph_neo4j.ingest.readers import Document, ReaderError, read_hotpotqa_corpus, read_musique_corpus, read_path

__all__ = ["DatasetError", "EvalDataset", "EvalQuestion", "load_dataset"]

HIPPORAG_FORMAT = ("a HippoRAG dataset folder: questions.json (a list of {id or _id, question, answer, and paragraphs "
                   "[{title, is_supporting}] or supporting_facts [[title, sentence_index]]}) and corpus.json "
                   "(a list of {title, text} or {title: [sentences]})")
BENCH_FORMAT = ("a GraphRAG-Bench folder: questions.json (a list of {id, source, question, answer, question_type, "
                "evidence}) and *.parquet with columns corpus_name, context")
JSONL_FORMAT = ("a JSONL dataset: questions.jsonl (one object per line: question, optional answer and id, and "
                "gold_titles or gold_passages, a list of strings) with one corpus beside it (corpus/, "
                "corpus.jsonl, corpus.json, corpus.md or corpus.txt)")
ANY_FORMAT = ("a dataset folder with questions.json + corpus.json (HippoRAG: MuSiQue, HotpotQA, 2WikiMultiHopQA), "
              "questions.json + *.parquet (GraphRAG-Bench) or questions.jsonl + corpus.* (JSONL), "
              "a questions .jsonl file, or LoCoMo (locomo10.zip, locomo10.json)")
CORPUS_NAMES = ("corpus", "corpus.jsonl", "corpus.json", "corpus.md", "corpus.markdown", "corpus.txt")
_EVIDENCE_SPLIT = re.compile(r"(?<=[.!?\"'”’)])\s*;\s*(?=\S)")


class DatasetError(ValueError):
    """A dataset could not be loaded; the message names the file, the expected format and what to do."""


@dataclass(frozen=True)
class EvalQuestion:
    id: str
    question: str
    answer: str | None
    gold_titles: tuple[str, ...]  # passages matched by title (MuSiQue, HotpotQA, 2Wiki, JSONL gold_titles)
    gold_passages: tuple[str, ...]  # passages matched by exact text (JSONL gold_passages)
    evidence: tuple[str, ...]  # GraphRAG-Bench: paraphrased evidence sentences
    kind: str | None = None  # question type/category when the dataset has one
    gold_turns: tuple[str, ...] = ()  # LoCoMo: ids of the messages holding the answer ("D3:1")
    conversation: str | None = None  # LoCoMo: the conversation it is asked about (retrieved from its space only)


@dataclass(frozen=True)
class EvalDataset:
    name: str
    path: Path
    questions: list[EvalQuestion]
    corpus: list[Document]
    openie: Path | None  # a HippoRAG OpenIE file found in the folder (openie_*.json), else None
    gold: str  # "titles" | "passages" | "evidence" | "turns"
    conversations: tuple = ()  # LoCoMo: ingest.episodes.Conversation, each its own space (corpus empty)


def load_dataset(path: str | Path, limit: int | None = None) -> EvalDataset:
    """Load a dataset folder (or a JSONL questions file); see the module docstring for the layouts."""
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be a positive number of questions, got {limit}")
    path = Path(path).expanduser()
    if not path.exists():
        raise DatasetError(f"{path}: no such file or folder; expected {ANY_FORMAT}")
    from memgraph_neo4j.evaluation.locomo import locomo_dataset, locomo_source  # (it imports this module)

    if (source := locomo_source(path)) is not None:
        return locomo_dataset(source, limit)
    if path.is_file():
        if path.suffix.lower() == ".jsonl":
            return _load_jsonl(path, path, limit)
        if path.name == "questions.json":
            path = path.parent
        else:
            raise DatasetError(f"{path}: not a dataset; expected {ANY_FORMAT}")
    if (path / "questions.jsonl").is_file():
        return _load_jsonl(path / "questions.jsonl", path, limit)
    questions = path / "questions.json"
    if not questions.is_file():
        found = ", ".join(sorted(p.name for p in path.iterdir())[:8]) or "nothing"
        raise DatasetError(f"{path}: no questions.json or questions.jsonl (found: {found}); expected {ANY_FORMAT}")
    records = _json_list(questions, HIPPORAG_FORMAT)
    parquets = sorted(path.glob("*.parquet"))
    if parquets or (records and isinstance(records[0], dict) and "evidence" in records[0]):
        return _load_bench(path, questions, records, parquets, limit)
    return _load_hipporag(path, questions, records, limit)


# -- HippoRAG layout --------------------------------------------------------------------------------


def _load_hipporag(folder: Path, file: Path, records: list[Any], limit: int | None) -> EvalDataset:
    corpus_file = folder / "corpus.json"
    if not corpus_file.is_file():
        raise DatasetError(f"{corpus_file}: missing, {file.name} needs it beside it; expected {HIPPORAG_FORMAT}")
    corpus_data = _json(corpus_file, HIPPORAG_FORMAT)
    reader = read_hotpotqa_corpus if isinstance(corpus_data, dict) else read_musique_corpus
    try:
        corpus = reader(corpus_file)
    except ReaderError as exc:
        raise DatasetError(f"{exc}; expected {HIPPORAG_FORMAT}") from None
    questions = []
    for i, rec in enumerate(records[:limit]):
        _need_object(file, i, rec, HIPPORAG_FORMAT)
        qid = str(rec.get("id", rec.get("_id", i)))
        if "paragraphs" in rec:
            paragraphs = rec["paragraphs"]
            if not isinstance(paragraphs, list) or not all(
                isinstance(p, dict) and isinstance(p.get("title"), str) and "is_supporting" in p for p in paragraphs
            ):
                _bad(file, i, "paragraphs", "a list of {title, is_supporting}", HIPPORAG_FORMAT)
            titles = [p["title"] for p in paragraphs if p["is_supporting"]]
            kind = qid.split("__")[0] if "__" in qid else None
        elif "supporting_facts" in rec:
            facts = rec["supporting_facts"]
            if not isinstance(facts, list) or not all(
                isinstance(f, list | tuple) and f and isinstance(f[0], str) for f in facts
            ):
                _bad(file, i, "supporting_facts", "a list of [title, sentence_index]", HIPPORAG_FORMAT)
            titles = [f[0] for f in facts]
            kind = _optional_str(file, i, rec, "type", HIPPORAG_FORMAT)
        else:
            raise DatasetError(f"{file}: record {i} has neither 'paragraphs' (MuSiQue) nor 'supporting_facts' "
                               f"(HotpotQA, 2Wiki); expected {HIPPORAG_FORMAT}")
        questions.append(EvalQuestion(
            id=qid, question=_required_str(file, i, rec, "question", HIPPORAG_FORMAT),
            answer=_answer(file, i, rec, HIPPORAG_FORMAT),
            gold_titles=_gold(file, i, titles, "gold titles", HIPPORAG_FORMAT),
            gold_passages=(), evidence=(), kind=kind,
        ))
    _check_titles(file, questions, corpus, corpus_file, HIPPORAG_FORMAT)
    return EvalDataset(name=folder.name, path=folder, questions=_unique_ids(questions), corpus=corpus,
                       openie=_openie(folder), gold="titles")


# -- GraphRAG-Bench ---------------------------------------------------------------------------------


def _load_bench(folder: Path, file: Path, records: list[Any], parquets: list[Path], limit: int | None) -> EvalDataset:
    if not parquets:
        raise DatasetError(f"{folder}: no *.parquet corpus beside {file.name} (GraphRAG-Bench questions); "
                           f"expected {BENCH_FORMAT}")
    questions, sources = [], []
    for i, rec in enumerate(records[:limit]):
        _need_object(file, i, rec, BENCH_FORMAT)
        evidence = _required_str(file, i, rec, "evidence", BENCH_FORMAT)
        sentences = [s.strip() for s in _EVIDENCE_SPLIT.split(evidence) if s.strip()]
        source = _optional_str(file, i, rec, "source", BENCH_FORMAT)
        sources.append(source)
        questions.append(EvalQuestion(
            id=str(rec.get("id", i)), question=_required_str(file, i, rec, "question", BENCH_FORMAT),
            answer=_answer(file, i, rec, BENCH_FORMAT), gold_titles=(), gold_passages=(),
            evidence=_gold(file, i, sentences, "evidence", BENCH_FORMAT),
            kind=_optional_str(file, i, rec, "question_type", BENCH_FORMAT),
        ))
    from memgraph_neo4j.evaluation.parquet import read_parquets  # pyarrow: only for GraphRAG-Bench

    corpus = read_parquets(parquets)
    names = {d.title for d in corpus}
    for i, source in enumerate(sources):
        if source is not None and source not in names:
            raise DatasetError(f"{file}: record {i} has source {source!r}, which no corpus_name in "
                               f"{', '.join(p.name for p in parquets)} matches; expected {BENCH_FORMAT}")
    if limit is not None and all(s is not None for s in sources):
        keep = set(sources)
        corpus = [d for d in corpus if d.title in keep]
    return EvalDataset(name=folder.name, path=folder, questions=_unique_ids(questions), corpus=corpus,
                       openie=_openie(folder), gold="evidence")


# -- JSONL ------------------------------------------------------------------------------------------


def _load_jsonl(file: Path, given: Path, limit: int | None) -> EvalDataset:
    folder = file.parent
    if file.name.startswith("corpus."):
        raise DatasetError(f"{file}: this is a corpus file, give the questions file or its folder; "
                           f"expected {JSONL_FORMAT}")
    found = [folder / n for n in CORPUS_NAMES if (folder / n).exists()]
    if not found:
        raise DatasetError(f"{folder}: no corpus beside {file.name} (looked for {', '.join(CORPUS_NAMES)}); "
                           f"expected {JSONL_FORMAT}")
    if len(found) > 1:
        raise DatasetError(f"{folder}: more than one corpus ({', '.join(p.name for p in found)}); keep one; "
                           f"expected {JSONL_FORMAT}")
    records = _jsonl(file)
    if not records:
        raise DatasetError(f"{file}: no questions; expected {JSONL_FORMAT}")
    gold_key = None
    questions = []
    wheres = []
    for i, (line, rec) in enumerate(records[:limit]):
        where = f"{i} (line {line})"
        wheres.append(where)
        _need_object(file, where, rec, JSONL_FORMAT)
        keys = [k for k in ("gold_titles", "gold_passages") if k in rec]
        if len(keys) != 1:
            problem = "both gold_titles and gold_passages" if keys else "neither gold_titles nor gold_passages"
            raise DatasetError(f"{file}: record {where} has {problem}; expected {JSONL_FORMAT}")
        if gold_key is None:
            gold_key = keys[0]
        elif keys[0] != gold_key:
            raise DatasetError(f"{file}: record {where} has {keys[0]} but earlier records have {gold_key}; "
                               f"use one kind per file; expected {JSONL_FORMAT}")
        gold = rec[gold_key]
        if not isinstance(gold, list) or not all(isinstance(g, str) for g in gold):
            _bad(file, where, gold_key, "a list of strings", JSONL_FORMAT)
        gold = _gold(file, where, gold, gold_key, JSONL_FORMAT)
        qid = rec.get("id", f"q{i}")
        if not isinstance(qid, str | int) or isinstance(qid, bool):
            _bad(file, where, "id", "a string", JSONL_FORMAT)
        kind = _optional_str(file, where, rec, "kind", JSONL_FORMAT)
        questions.append(EvalQuestion(
            id=str(qid), question=_required_str(file, where, rec, "question", JSONL_FORMAT),
            answer=_answer(file, where, rec, JSONL_FORMAT),
            gold_titles=gold if gold_key == "gold_titles" else (),
            gold_passages=gold if gold_key == "gold_passages" else (), evidence=(),
            kind=kind if kind is not None else _optional_str(file, where, rec, "type", JSONL_FORMAT),
        ))
    try:
        corpus = read_path(found[0])
    except ReaderError as exc:
        raise DatasetError(f"{exc}; expected {JSONL_FORMAT}") from None
    if not corpus:
        raise DatasetError(f"{found[0]}: the corpus holds no text; expected {JSONL_FORMAT}")
    if gold_key == "gold_titles":
        _check_titles(file, questions, corpus, found[0], JSONL_FORMAT)
    else:
        texts = [d.text for d in corpus]
        exact = set(texts)
        for i, q in enumerate(questions):
            for passage in q.gold_passages:
                if passage not in exact and not any(passage in t for t in texts):
                    raise DatasetError(f"{file}: record {wheres[i]} has a gold passage found in no text of {found[0]} "
                                       f"({passage[:60]!r}); expected {JSONL_FORMAT}")
    name = folder.name if file.stem == "questions" else file.stem
    return EvalDataset(name=name, path=given,
                       questions=_unique_ids(questions), corpus=corpus, openie=_openie(folder),
                       gold="titles" if gold_key == "gold_titles" else "passages")


# -- helpers ----------------------------------------------------------------------------------------


def _read(file: Path, expected: str) -> str:
    try:
        return file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{file}: not UTF-8 text (byte {exc.start}); expected {expected}") from None
    except OSError as exc:
        raise DatasetError(f"{file}: cannot be read ({exc.strerror}); expected {expected}") from None


def _json(file: Path, expected: str) -> Any:
    try:
        return json.loads(_read(file, expected))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{file}: invalid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg}); "
                           f"expected {expected}") from None


def _json_list(file: Path, expected: str) -> list[Any]:
    data = _json(file, expected)
    if not isinstance(data, list) or not data:
        what = "an empty list" if data == [] else f"a JSON {type(data).__name__}"
        raise DatasetError(f"{file}: holds {what}, not a list of questions; expected {expected}")
    return data


def _jsonl(file: Path) -> list[tuple[int, Any]]:
    records = []
    for line_no, line in enumerate(_read(file, JSONL_FORMAT).splitlines(), start=1):
        if line.strip():
            try:
                records.append((line_no, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{file}: invalid JSON on line {line_no}, column {exc.colno} ({exc.msg}); "
                                   f"expected {JSONL_FORMAT}") from None
    return records


def _need_object(file: Path, i: int | str, rec: Any, expected: str) -> None:
    if not isinstance(rec, dict):
        raise DatasetError(f"{file}: record {i} is a JSON {type(rec).__name__}, not an object; expected {expected}")


def _bad(file: Path, i: int | str, field: str, want: str, expected: str) -> NoReturn:
    raise DatasetError(f"{file}: record {i} field {field!r} is not {want}; expected {expected}")


def _required_str(file: Path, i: int | str, rec: dict[str, Any], field: str, expected: str) -> str:
    value = rec.get(field)
    if not isinstance(value, str) or not value.strip():
        problem = "is missing" if value is None else "is not a non-empty string"
        raise DatasetError(f"{file}: record {i} field {field!r} {problem}; expected {expected}")
    return value


def _optional_str(file: Path, i: int | str, rec: dict[str, Any], field: str, expected: str) -> str | None:
    value = rec.get(field)
    if value is not None and not isinstance(value, str):
        _bad(file, i, field, "a string", expected)
    return value


def _answer(file: Path, i: int | str, rec: dict[str, Any], expected: str) -> str | None:
    value = rec.get("answer")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if value is not None and not isinstance(value, str):
        _bad(file, i, "answer", "a string", expected)
    return value


def _gold(file: Path, i: int | str, items: list[str], what: str, expected: str) -> tuple[str, ...]:
    gold = tuple(dict.fromkeys(s for s in items if s.strip()))
    if not gold:
        raise DatasetError(f"{file}: record {i} has no {what}; every question needs at least one; "
                           f"expected {expected}")
    return gold


def _check_titles(file: Path, questions: list[EvalQuestion], corpus: list[Document], corpus_file: Path,
                  expected: str) -> None:
    titles = {d.title for d in corpus}
    for i, q in enumerate(questions):
        if missing := [t for t in q.gold_titles if t not in titles]:
            raise DatasetError(f"{file}: record {i} has gold title {missing[0]!r}, which no passage of "
                               f"{corpus_file} carries; expected {expected}")


def _unique_ids(questions: list[EvalQuestion]) -> list[EvalQuestion]:
    seen: Counter[str] = Counter()
    out = []
    for q in questions:
        seen[q.id] += 1
        n = seen[q.id]
        out.append(q if n == 1 else replace(q, id=f"{q.id}#{n}"))
    return out


def _openie(folder: Path) -> Path | None:
    return next(iter(sorted(folder.glob("openie_*.json"))), None)
