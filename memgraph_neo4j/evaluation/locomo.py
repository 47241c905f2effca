"""LoCoMo (snap-research/locomo): long multi-session conversations and questions whose gold is the
ids of the messages that hold the answer ("D3:1": session 3, message 1).

Reads `locomo10.zip` as shipped (one JSON file per conversation under `data/.../locomo10_v2/`), the
released single `locomo10.json` (a list of samples with `conversation` and `qa`), or a folder of
either. Every message becomes a `Message` of an `ingest.episodes.Conversation` (a shared image is
kept as its caption: "(image: a photo of ...)"); questions keep their category:
1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (no answer in the conversation).

Evidence-turn recall (`evidence_recall`): per question, the share of its evidence messages among the
top k episodes retrieved from its own conversation, averaged over questions.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memgraph_neo4j.ingest.document import ReaderError
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session
from memgraph_neo4j.memory.validity import parse_time

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_EVIDENCE = re.compile(r"D(\d+):(\d+)")
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class LocomoQuestion:
    id: str  # "<conversation>/<index>"
    conversation: str
    question: str
    answer: str | None
    category: int
    evidence: tuple[str, ...]  # message ids, normalised ("D3:1")


@dataclass
class Locomo:
    conversations: list[Conversation]
    questions: list[LocomoQuestion]

    def select(self, categories: Iterable[int] = (1, 2, 3, 4)) -> list[LocomoQuestion]:
        """Questions of these categories that name at least one message of their conversation."""
        wanted = set(categories)
        turns = {c.id: {m.id for s in c.sessions for m in s.messages} for c in self.conversations}
        return [q for q in self.questions if q.category in wanted and q.evidence
                and any(e in turns.get(q.conversation, ()) for e in q.evidence)]


def evidence_ids(raw: Iterable[str]) -> tuple[str, ...]:
    """Message ids from LoCoMo's evidence strings, which are not always clean ("D8:6; D9:17", "D:11:26")."""
    found: list[str] = []
    for item in raw:
        for session, turn in _EVIDENCE.findall(str(item).replace("D:", "D")):
            found.append(f"D{int(session)}:{int(turn)}")
    return tuple(dict.fromkeys(found))


def _message(turn: dict) -> Message:
    text = str(turn.get("text") or "").strip()
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} (image: {caption})".strip()
    return Message(speaker=str(turn["speaker"]), text=text, id=str(turn["dia_id"]))


def _sample(conversation: dict, qa: Sequence[dict], sample_id: str) -> tuple[Conversation, list[LocomoQuestion]]:
    sessions = []
    for key in sorted((k for k in conversation if _SESSION.match(k)), key=lambda k: int(k.split("_")[1])):
        turns = conversation[key]
        if not isinstance(turns, list) or not turns:
            continue
        number = key.split("_")[1]
        label = conversation.get(f"{key}_date_time")
        sessions.append(Session(id=number, messages=[_message(t) for t in turns if t.get("text") or
                                                     t.get("blip_caption")],
                                time=parse_time(label), label=label))
    speakers = [conversation.get("speaker_a"), conversation.get("speaker_b")]
    conv = Conversation(id=sample_id, sessions=sessions, title=" and ".join(s for s in speakers if s) or None,
                        metadata={"source": "locomo"})
    questions = [LocomoQuestion(id=f"{sample_id}/{i}", conversation=sample_id, question=str(q["question"]),
                                answer=None if q.get("answer") is None else str(q["answer"]),
                                category=int(q.get("category", 0)), evidence=evidence_ids(q.get("evidence", [])))
                 for i, q in enumerate(qa)]
    return conv, questions


def _samples(name: str, data) -> Iterable[tuple[dict, list, str]]:
    if isinstance(data, list):  # the released locomo10.json
        for i, item in enumerate(data):
            yield item["conversation"], item.get("qa", []), str(item.get("sample_id", i))
    elif isinstance(data, dict) and "conversation" in data:
        yield data["conversation"], data.get("qa", []), str(data.get("sample_id", PurePosixPath(name).stem))
    elif isinstance(data, dict):  # locomo10_v2/<n>.json: the conversation's fields at the top level
        yield data, data.get("qa", []), PurePosixPath(name).stem
    else:
        raise ReaderError(f"{name}: not a LoCoMo sample")


def load_locomo(path: str | Path) -> Locomo:
    """LoCoMo from the zip, a JSON file or a folder of JSON files; conversations sorted by id."""
    path = Path(path)
    files: list[tuple[str, bytes]] = []
    if path.is_dir():
        files = [(str(p), p.read_bytes()) for p in sorted(path.rglob("*.json"))]
    elif path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            files = [(n, archive.read(n)) for n in sorted(archive.namelist())
                     if n.endswith(".json") and not PurePosixPath(n).name.startswith(".")]
    elif path.is_file():
        files = [(str(path), path.read_bytes())]
    if not files:
        raise ReaderError(f"{path}: no LoCoMo JSON found (expected locomo10.zip, locomo10.json or a folder of them)")
    conversations, questions = [], []
    for name, raw in files:
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise ReaderError(f"{name}: not JSON ({exc})") from exc
        for conversation, qa, sample_id in _samples(name, data):
            conv, qs = _sample(conversation, qa, sample_id)
            conversations.append(conv)
            questions.extend(qs)
    conversations.sort(key=lambda c: c.id)
    return Locomo(conversations, questions)


def evidence_recall(retrieved: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Share of the evidence message ids among the first k retrieved ones."""
    if not evidence:
        return 0.0
    top = set(retrieved[:k])
    return sum(e in top for e in evidence) / len(evidence)


# -- as an eval dataset (evaluation/datasets.load_dataset) ------------------------------------------


def _looks_like_locomo(data) -> bool:
    sample = data[0] if isinstance(data, list) and data else data
    return isinstance(sample, dict) and ("conversation" in sample and "qa" in sample
                                         or any(_SESSION.match(k) for k in sample))


def locomo_source(path: Path) -> Path | None:
    """What to read LoCoMo from when `path` is LoCoMo: a .zip, a LoCoMo JSON file, or a folder (without
    questions.json/.jsonl) holding one zip or LoCoMo JSON files; else None."""
    if path.is_file():
        if path.suffix.lower() == ".zip":
            return path
        if path.suffix.lower() != ".json" or path.name == "questions.json":
            return None
        try:
            return path if _looks_like_locomo(json.loads(path.read_bytes())) else None
        except ValueError:
            return None
    if (path / "questions.json").exists() or (path / "questions.jsonl").exists():
        return None
    zips = sorted(path.glob("*.zip"))
    if zips:
        return zips[0] if len(zips) == 1 else None
    first = next(iter(sorted(path.glob("*.json"))), None)
    return path if first is not None and locomo_source(first) is not None else None


def locomo_dataset(source: Path, limit: int | None = None):
    """LoCoMo as an `EvalDataset`: its conversations (each evaluated in a space of its own) and the questions
    of categories 1-4 whose evidence is in their conversation (`Locomo.select`), the first `limit` of them and
    only the conversations they are about. Gold: the evidence message ids (`gold="turns"`)."""
    from memgraph_neo4j.evaluation.datasets import DatasetError, EvalDataset, EvalQuestion

    try:
        locomo = load_locomo(source)
    except (ReaderError, KeyError, TypeError, ValueError) as exc:
        raise DatasetError(f"{source}: not LoCoMo ({exc}); expected locomo10.zip, locomo10.json or a folder of "
                           "LoCoMo samples ({conversation: {speaker_a, session_N: [{speaker, dia_id, text}]}, "
                           "qa: [{question, answer, evidence, category}]})") from None
    chosen = locomo.select()[:limit]
    if not chosen:
        raise DatasetError(f"{source}: no question of categories 1-4 with evidence in its conversation; expected "
                           "LoCoMo qa items with evidence message ids such as 'D3:1'")
    about = {q.conversation for q in chosen}
    questions = [EvalQuestion(id=q.id, question=q.question, answer=q.answer, gold_titles=(), gold_passages=(),
                              evidence=(), kind=CATEGORIES[q.category], gold_turns=q.evidence,
                              conversation=q.conversation) for q in chosen]
    name = source.stem if source.is_file() else source.name
    return EvalDataset(name=name, path=source, questions=questions, corpus=[], openie=None, gold="turns",
                       conversations=tuple(c for c in locomo.conversations if c.id in about))
