"""Conversation memory: conversations and messages ingested as Episode passages.

Each message is one Passage labelled `Episode` with its speaker, session, message id and timestamp;
each session is one Document (title "A and B, session 3"), so retracting a session forgets its
messages. The speaker is an Entity (type Person) linked by `(Episode)-[:SPOKEN_BY]->(Entity)`,
resolved like every other name, so "Caroline" in a message and Caroline the speaker are one node.
Extraction, promotion and adjudication then run on the episodes as on any passage, batch by batch,
and afterwards the facts they evidence get `valid_at` / `invalid_at` (memory/validity.py).

The plain JSON-lines chat format (`read_chat_jsonl`), one message per line:

    {"conversation": "c1", "session": "1", "speaker": "Ana", "text": "I moved.", "time": "2024-03-02T10:00:00Z"}

`text` and `speaker` are required; `conversation` (default: the file name), `session` (default "1"),
`time` (ISO 8601 or free text such as "1:56 pm on 8 May, 2023") and `id` are optional. Messages keep
file order within a session.
"""

from __future__ import annotations

import json
import time as clock
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memgraph_neo4j.contracts import ConsistencyChecker, ExtractionInput, ExtractionState, Extractor, NoGuide
from memgraph_neo4j.ingest.document import Document, ReaderError
from memgraph_neo4j.ingest.pipeline import IngestReport, document_rows, resume, tally
from memgraph_neo4j.memory.lease import IngestLease
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name
from memgraph_neo4j.memory.resolve import Mention, resolve_mentions
from memgraph_neo4j.memory.validity import parse_time, stamp_validity
from memgraph_neo4j.memory.writer import MemoryWriter
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.repository.conversation import ConversationRepository, EpisodeRow, SpeakerLink
from memgraph_neo4j.repository.passages import PassageRow

SPEAKER_TYPE = "Person"


@dataclass
class Message:
    speaker: str
    text: str
    id: str | None = None  # the source's message id ("D3:1")
    time: datetime | None = None  # when it was said; else the session's time


@dataclass
class Session:
    id: str
    messages: list[Message]
    time: datetime | None = None
    label: str | None = None  # the source's own date text ("1:56 pm on 8 May, 2023")


@dataclass
class Conversation:
    id: str
    sessions: list[Session]
    title: str | None = None
    metadata: dict = field(default_factory=dict)

    @property
    def speakers(self) -> list[str]:
        return list(dict.fromkeys(m.speaker for s in self.sessions for m in s.messages))

    @property
    def messages(self) -> int:
        return sum(len(s.messages) for s in self.sessions)


@dataclass
class EpisodeBatch:
    """What one ingest writes: documents (one per session), passages and their episode rows."""

    documents: list[Document]
    passages: list[PassageRow]
    episodes: list[EpisodeRow]
    by_turn: dict[tuple[str, str], str]  # (conversation, message id) -> passage id
    said: dict[str, str] = field(default_factory=dict)  # passage id -> "speaker: text" (what is extracted from)


def said_line(message: Message) -> str:
    return f"{message.speaker.strip()}: {' '.join(message.text.split())}"


def episode_text(message: Message, session: Session) -> str:
    """What an episode stores, embeds and BM25 indexes: "[when] speaker: text (image: caption)".
    The date is the session's own text ("1:56 pm on 8 May, 2023") or the message's (else the
    session's) time; without one, "speaker: text". Dated text is what the reference LoCoMo setup
    embeds, and it lets a temporal question ("in May 2023") match the message's words."""
    when = _when(message, session)
    return f"[{when}] {said_line(message)}" if when else said_line(message)


def _when(message: Message, session: Session) -> str | None:
    if session.label and message.time is None:
        return " ".join(session.label.split())
    moment = parse_time(message.time) or session.time
    if moment is None:
        return None
    clock_part = f"{moment:%H:%M} on " if (moment.hour, moment.minute) != (0, 0) else ""
    return f"{clock_part}{moment.day} {moment:%B %Y}"


def build_episodes(conversations: Iterable[Conversation]) -> EpisodeBatch:
    """Documents, passages and episode rows with stable ids (content hashes, as in ingest)."""
    batch = EpisodeBatch([], [], [], {}, {})
    for conv in conversations:
        names = " and ".join(conv.speakers) or conv.id
        for session in conv.sessions:
            if not session.messages:
                continue
            lines = [episode_text(m, session) for m in session.messages]
            text = "\n".join(lines)
            when = session.label or (session.time.isoformat() if session.time else None)
            title = f"{conv.title or names}, session {session.id}" + (f" ({when})" if when else "")
            doc = Document(title=title, text=text, source=f"conversation:{conv.id}",
                           metadata={"kind": "conversation", "conversation": conv.id, "session": session.id,
                                     "speakers": conv.speakers, **({"time": when} if when else {})})
            batch.documents.append(doc)
            start = 0
            for index, (message, line) in enumerate(zip(session.messages, lines)):
                end = start + len(line)
                pid = content_hash(doc.id, str(start), str(end))
                turn = message.id or f"{session.id}:{index + 1}"
                batch.passages.append(PassageRow(id=pid, doc_id=doc.id, index=index, title=None, text=line,
                                                 start=start, end=end))
                batch.said[pid] = said_line(message)
                batch.episodes.append(EpisodeRow(id=pid, speaker=message.speaker.strip(), session=session.id,
                                                 turn=turn, conversation=conv.id,
                                                 time=parse_time(message.time) or session.time))
                batch.by_turn[(conv.id, turn)] = pid
                start = end + 1
    return batch


def read_chat_jsonl(path: str | Path) -> list[Conversation]:
    """Conversations of a JSON-lines chat file (format in the module docstring); a line that is no JSON
    object with speaker and text, or whose time is no date, raises a ReaderError naming the file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReaderError(f"{path}: cannot read ({exc})") from exc
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append((f"{path}:{number}", json.loads(line)))
        except ValueError as exc:
            raise ReaderError(f"{path}:{number}: not valid JSON ({exc}); a chat file has one JSON object per "
                              "line with speaker and text") from exc
    return conversations_of_records(records, conversation=path.stem)


def conversations_of_records(records: Iterable[tuple[str, object]], conversation: str = "chat") -> list[Conversation]:
    """Conversations of chat records (dicts in the chat format), each with where it comes from ("chat.jsonl:3",
    "turn 2"), named in the error a bad one raises. `conversation`: the id of the records that name none."""
    sessions: dict[str, dict[str, Session]] = {}
    for where, record in records:
        message = _message(where, record)
        conv = str(record.get("conversation") or conversation)
        session_id = str(record.get("session") or "1")
        session = sessions.setdefault(conv, {}).setdefault(session_id, Session(session_id, []))
        session.messages.append(message)
        if message.time is not None and (session.time is None or message.time < session.time):
            session.time = message.time
    return [Conversation(conv, list(by_id.values())) for conv, by_id in sessions.items()]


def _message(where: str, record: object) -> Message:
    """One record as a Message, or a ReaderError saying what is wrong with it."""
    if not isinstance(record, dict):
        raise ReaderError(f"{where}: a JSON {type(record).__name__}, expected an object with speaker and text "
                          "(and optionally conversation, session, time, id)")
    for key in ("speaker", "text"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            found = "missing" if key not in record else f"{record[key]!r}"
            raise ReaderError(f"{where}: {key} must be a non-empty string ({found}); a chat record has speaker "
                              "and text (and optionally conversation, session, time, id)")
    when = parse_time(raw) if (raw := record.get("time")) not in (None, "") else None
    if raw not in (None, "") and when is None:
        raise ReaderError(f"{where}: time {raw!r} is not a date or time (ISO 8601, or e.g. "
                          "'1:56 pm on 8 May, 2023')")
    ident = record.get("id")
    return Message(record["speaker"].strip(), record["text"], None if ident is None else str(ident), when)


def conversations_of(source: Iterable[Conversation] | Iterable[dict] | str | Path) -> list[Conversation]:
    """What `ingest_conversations` of the API accepts: a chat file, Conversations, or chat records (dicts)."""
    if isinstance(source, (str, Path)):
        return read_chat_jsonl(source)
    items = list(source)
    if all(isinstance(i, Conversation) for i in items):
        return items
    return conversations_of_records((f"record {n}", r) for n, r in enumerate(items, 1))


def ingest_conversations(writer: MemoryWriter, conversations: Iterable[Conversation], extractor: Extractor,
                         batch_size: int = 64, guided: bool = True, checker: ConsistencyChecker | None = None,
                         extract: bool = True, changing_relations: Iterable[str] = ()) -> IngestReport:
    """Writes the episodes (idempotent), their speakers, then extracts the messages not yet extracted,
    promotes and adjudicates after every batch, and stamps the facts' validity. `extract=False` writes
    only the episode layer (dense and BM25 search need nothing more). Holds the space's ingest lease
    (memory/lease.py): a document or conversation ingest of the same space waits for this one."""
    with IngestLease(writer.store, writer.space):
        return _ingest(writer, conversations, extractor, batch_size, guided, checker, extract, changing_relations)


def _ingest(writer: MemoryWriter, conversations: Iterable[Conversation], extractor: Extractor, batch_size: int,
            guided: bool, checker: ConsistencyChecker | None, extract: bool,
            changing_relations: Iterable[str]) -> IngestReport:
    began = clock.monotonic()
    batch = build_episodes(conversations)
    repo = ConversationRepository(writer.passages.store, writer.space)
    report = IngestReport(documents=len(batch.documents), passages=len(batch.passages))
    resume(writer, checker, report)
    existing = writer.existing_passages([p.id for p in batch.passages])
    new = [p for p in batch.passages if p.id not in existing]
    report.passages_new = len(new)
    writer.write_passages(new, document_rows(batch.documents))
    report.entities_new += _write_episodes(writer, repo, batch.episodes)
    if not extract:
        report.seconds = clock.monotonic() - began
        return report
    guide = writer.guide() if guided else NoGuide()
    inputs = extraction_inputs(batch, [p for p in batch.passages if existing.get(p.id) != ExtractionState.OK])
    for start in range(0, len(inputs), batch_size):
        outcomes = extractor.extract(inputs[start:start + batch_size], guide)
        written = writer.write_batch(outcomes)  # stamped, promotion in the same transaction
        tally(report, outcomes, written, written.promoted, written.activated, checker)
    stamp_validity(repo, writer.ontology, [e.id for e in batch.episodes], changing_relations)
    report.seconds = clock.monotonic() - began
    return report


def extraction_inputs(batch: EpisodeBatch, passages: Iterable[PassageRow]) -> list[ExtractionInput]:
    """What the extractor gets of each message: "speaker: text", who said it and when, and who else takes
    part in the conversation."""
    speaker_of = {e.id: e for e in batch.episodes}
    people = participants(batch.episodes)
    return [ExtractionInput(passage_id=p.id, doc_id=p.doc_id, text=batch.said.get(p.id, p.text),
                            title=_said(e := speaker_of[p.id]), speaker=e.speaker, said_at=e.time,
                            listeners=[s for s in people.get(e.conversation, ()) if s != e.speaker]) for p in passages]


def participants(episodes: Iterable[EpisodeRow]) -> dict[str | None, list[str]]:
    """Each conversation's speakers, in order of first message: the extractor's "you" is the one other."""
    people: dict[str | None, dict[str, None]] = {}
    for e in episodes:
        if e.speaker:
            people.setdefault(e.conversation, {})[e.speaker] = None
    return {conv: list(names) for conv, names in people.items()}


def _said(episode: EpisodeRow) -> str:
    """What the extractor is told about a message: who said it, and when."""
    return f"{episode.speaker}" + (f", {episode.time:%d %B %Y}" if episode.time else "")


def _write_episodes(writer: MemoryWriter, repo: ConversationRepository, episodes: list[EpisodeRow]) -> int:
    """The episode layer in one stamped transaction: the Episode marks, the speakers as Person entities
    (resolved against the stored names) and their SPOKEN_BY links. Returns the speakers that are new."""
    mentions = [Mention(e.speaker, SPEAKER_TYPE, e.id) for e in episodes if e.speaker]
    first = {}
    for m in mentions:
        first.setdefault(m.name, m)
    resolution = resolve_mentions(writer.entities, list(first.values()), writer.embedder,
                                  writer.config.merge_threshold, writer.config.resolution,
                                  evidence=writer.config.merge_evidence) if first else None
    batch = WriteBatch(writer.store, writer.space, stamped=True)
    links: list[SpeakerLink] = []
    if resolution is not None:
        rows = [e.row() for e in resolution.entities.values()]
        writer.facts.add_types(batch, {r.type for r in rows})
        writer.entities.add_entities(batch, [], rows)  # merged: a speaker may exist already
        links = [SpeakerLink(e.id, resolution.by_key[key]) for e in episodes
                 if e.speaker and (key := normalize_entity_name(e.speaker)) in resolution.by_key]
    repo.add_episodes(batch, episodes, links)
    batch.commit()
    return sum(e.is_new for e in resolution.entities.values()) if resolution is not None else 0
