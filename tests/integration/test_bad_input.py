"""Bad input, file side: each case asserts the exact error or outcome, and that what a space held before is
still there, once (node ids per label set and relationship counts compared before and after).

The model-output, Cypher-syntax, embedding, query, unicode and space cases are in test_bad_input_model.py;
docs/troubleshooting.md's "What bad input gets" table lists them all.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import Extraction, ExtractionInput, ExtractionOutcome
from memgraph_neo4j.ingest.readers import EmptyFileError, ReaderError, iter_path, read_path
from memgraph_neo4j.memory.ontology import OntologyError

SEED = "DOC_A Ada Lovelace worked for the Analytical Society and knew Charles Babbage."
SCRIPT = {"DOC_A": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization"),
                    ("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person")]}


class Nothing:
    """An extractor that finds nothing, fast (the big-file cases test the passage layer)."""

    name = "nothing"
    uses_guide = False

    def extract(self, items: list[ExtractionInput], guide) -> list[ExtractionOutcome]:
        return [ExtractionOutcome(passage_id=i.passage_id, doc_id=i.doc_id, extractor=self.name) for i in items]


class Empty(Nothing):
    """Extracts nothing, successfully: every passage ends `ok`."""

    def extract(self, items: list[ExtractionInput], guide) -> list[ExtractionOutcome]:
        return [o.model_copy(update={"extraction": Extraction()}) for o in super().extract(items, guide)]


def snapshot(test_store, space: str) -> dict[str, tuple[int, list[str]]]:
    return {r["key"]: (r["count"], sorted(map(str, r["ids"]))) for r in test_store.read("space_snapshot", space=space)}


def memory_of(store, space: str, embedder=None, extractor=None, **kw) -> MemoryGraph:
    return MemoryGraph(space=space, store=store, embedder=embedder, extractor=extractor or ScriptedExtractor(SCRIPT),
                       **kw)


def kept_space(store, test_store):
    """A space with one document, two facts and their entities: every refused input must leave it as it is."""
    name = f"t_kept_{uuid.uuid4().hex[:8]}"
    with memory_of(store, name) as memory:
        memory.ingest(SEED, progress=False)
    before = snapshot(test_store, name)
    assert before["node:Document"][0] == 1 and before["node:Fact"][0] == 2
    yield name, before
    store.run_implicit("admin/delete_space", space=name)


kept = pytest.fixture(scope="module", name="kept")(kept_space)


def refused(store, test_store, kept, source, error: type[Exception], message: str) -> None:
    """Ingesting `source` into the kept space fails with `message` (a regex) and changes nothing."""
    name, before = kept
    with memory_of(store, name) as memory, pytest.raises(error, match=message) as caught:
        memory.ingest(source, progress=False)
    assert "\n" not in str(caught.value)
    assert snapshot(test_store, name) == before


def test_empty_file(store, test_store, kept, tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    refused(store, test_store, kept, tmp_path / "empty.txt", EmptyFileError,
            r"^no text in .*empty\.txt: the file is empty; nothing to ingest$")


def test_whitespace_only_file(store, test_store, kept, tmp_path):
    (tmp_path / "blank.md").write_text(" \n\t\n\n")
    refused(store, test_store, kept, tmp_path / "blank.md", EmptyFileError,
            r"^no text in .*blank\.md: it holds only whitespace; nothing to ingest$")


def test_binary_file_with_a_text_extension(store, test_store, kept, tmp_path):
    (tmp_path / "photo.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + os.urandom(2000))
    refused(store, test_store, kept, tmp_path / "photo.txt", ReaderError,
            r"photo\.txt: a binary file, not text \(NUL byte at offset 8\); give UTF-8 text")


def test_binary_file_with_an_unknown_extension(store, test_store, kept, tmp_path):
    (tmp_path / "blob.bin").write_bytes(os.urandom(4000))
    refused(store, test_store, kept, tmp_path / "blob.bin", ReaderError,
            r"unsupported file type '\.bin' for .*blob\.bin; supported: \.docx, .*\.txt")


def test_non_utf8_text(store, test_store, kept, tmp_path):
    (tmp_path / "latin1.txt").write_bytes("Café au lait in Montréal.".encode("latin-1"))
    refused(store, test_store, kept, tmp_path / "latin1.txt", ReaderError,
            r"latin1\.txt: not valid UTF-8 text \(invalid continuation byte at byte 3\); convert it to UTF-8 first, "
            r"e\.g\. iconv -f latin1 -t utf-8 latin1\.txt > latin1\.utf8\.txt")


def test_non_utf8_byte_far_into_a_large_file_is_located(tmp_path):
    path = tmp_path / "late.txt"
    path.write_bytes(b"word " * 300_000 + b"\xff tail")  # past the first 1 MiB decoded block
    with pytest.raises(ReaderError, match=r"invalid start byte at byte 1500000\)"):
        read_path(path)


def test_unknown_extension(store, test_store, kept, tmp_path):
    (tmp_path / "notes.odt").write_text("Ada Lovelace.")
    refused(store, test_store, kept, tmp_path / "notes.odt", ReaderError,
            r"unsupported file type '\.odt' .*\(plain text: rename it to \.txt\)$")


def test_missing_file(store, test_store, kept, tmp_path):
    refused(store, test_store, kept, tmp_path / "nowhere.txt", FileNotFoundError,
            r"no such file or directory: .*nowhere\.txt")


def test_folder_without_any_text(store, test_store, kept, tmp_path):
    (tmp_path / "a.txt").write_text("")
    (tmp_path / "b.csv").write_text("x,y")
    refused(store, test_store, kept, tmp_path, EmptyFileError, r"^no text in .*: no file in it has text to ingest")


def test_a_malformed_jsonl_line_is_reported_and_the_rest_ingested(store, test_store, kept, space, tmp_path,
                                                                   caplog):
    path = tmp_path / "records.jsonl"
    path.write_text('{"title": "One", "text": "DOC_A Ada Lovelace worked for the Analytical Society."}\n'
                    '{"title": "Two", "text": broken\n'
                    '{"title": "Three", "text": "Grace Hopper wrote COBOL compilers."}\n')
    with memory_of(store, space) as memory:
        memory.ingest(SEED, progress=False)
        before = snapshot(test_store, space)
        with caplog.at_level(logging.WARNING, logger="memgraph_neo4j.ingest"):
            report = memory.ingest(path, progress=False)
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: line 2 skipped: invalid JSON (Expecting value); the other lines are read"]
    assert (report.documents, report.passages_new) == (2, 2)
    after = snapshot(test_store, space)
    assert after["node:Document"][0] == before["node:Document"][0] + 2
    for key, (count, ids) in before.items():  # everything seeded is still there, once
        assert set(ids) <= set(after[key][1]) and (key.startswith(("node:Document", "node:Passage", "rel:"))
                                                   or after[key] == (count, ids)), key
    assert snapshot(test_store, kept[0]) == kept[1]


def test_jsonl_without_a_single_valid_line(store, test_store, kept, tmp_path):
    (tmp_path / "bad.jsonl").write_text("{oops\nnot json either\n")
    refused(store, test_store, kept, tmp_path / "bad.jsonl", ReaderError,
            r"bad\.jsonl: no line is valid JSON \(2 malformed\); expected one JSON object per line$")


def test_jsonl_record_that_is_not_an_object(store, test_store, kept, tmp_path):
    (tmp_path / "list.jsonl").write_text('{"text": "fine"}\n[1, 2, 3]\n')
    refused(store, test_store, kept, tmp_path / "list.jsonl", ReaderError,
            r"list\.jsonl: record 1 \(line 2\) is a JSON list, expected an object with a text field$")


def test_a_10_mb_line_without_whitespace_is_dropped(store, test_store, kept, tmp_path, caplog):
    (tmp_path / "blob.txt").write_text("QUJD" * 2_500_000)  # 10 MB of base64, one line
    with caplog.at_level(logging.WARNING, logger="memgraph_neo4j.ingest"):
        refused(store, test_store, kept, tmp_path / "blob.txt", EmptyFileError,
                r"^no text in .*blob\.txt: it holds only runs of characters without whitespace \(encoded data\?\)")
    assert "dropped 1 run(s) of 1,000,000 characters without whitespace" in caplog.records[0].getMessage()


def test_a_run_without_whitespace_inside_prose_is_dropped(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("# Page\n\nAda Lovelace wrote notes.\n\n![logo](data:image/png;base64," + "A" * 5000
                    + ")\n\nShe worked with Babbage.\n")
    [doc] = read_path(path)
    assert doc.title == "Page" and "AAAA" not in doc.text
    assert "Ada Lovelace wrote notes." in doc.text and "She worked with Babbage." in doc.text


def test_a_10_mb_line_of_prose(tmp_path):
    line = " ".join(f"Ada{i % 97} met Babbage in London." for i in range(360_000))  # one line, ~10 MB
    path = tmp_path / "line.txt"
    path.write_text(line)
    assert len(line) > 10_000_000
    parts = list(iter_path(path))
    assert len(parts) == 11 and all(len(p.text) <= 1_000_000 for p in parts)
    assert "".join(p.text for p in parts) == line  # cut at spaces: nothing lost, nothing repeated
    assert [p.metadata["part"] for p in parts] == list(range(1, 12)) and len({p.id for p in parts}) == 11


def test_a_1_mb_line_is_ingested_into_bounded_passages(store, test_store, kept, space, tmp_path):
    line = " ".join(f"Ada{i % 97} met Babbage in London in {1800 + i % 50}." for i in range(25_000))
    path = tmp_path / "line.txt"
    path.write_text(line)
    with memory_of(store, space, extractor=Nothing()) as memory:
        report = memory.ingest(path, progress=False, batch_size=4096)
        again = memory.ingest(path, progress=False, batch_size=4096)
    assert report.documents == 1 and report.passages == report.passages_new > 1000
    assert (again.passages, again.passages_new) == (report.passages, 0)
    passages = snapshot(test_store, space)["node:Passage"][0]
    assert passages == report.passages
    assert snapshot(test_store, kept[0]) == kept[1]


_STREAM = textwrap.dedent("""
    import resource, sys
    from memgraph_neo4j.ingest.chunking import chunk_text
    from memgraph_neo4j.ingest.readers import iter_path
    chunk_text("warm up the tokenizer")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    chars = parts = chunks = 0
    for doc in iter_path(sys.argv[1]):
        chars += len(doc.text)
        parts += 1
        if parts <= 2:
            chunks += len(chunk_text(doc.text))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(chars, parts, chunks, (after - before) // 1024)
""")


def test_a_50_mb_file_is_streamed_in_bounded_memory(tmp_path):
    path = tmp_path / "big.md"
    paragraph = ("Ada Lovelace wrote the first published algorithm for the Analytical Engine. " * 12 + "\n\n")
    with path.open("w") as f:
        f.write("# Big\n\n")
        for _ in range(52_000_000 // len(paragraph)):
            f.write(paragraph)
    size = path.stat().st_size
    ran = subprocess.run([sys.executable, "-c", _STREAM, str(path)], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    chars, parts, chunks, grown_mb = map(int, ran.stdout.split())
    assert chars == size and parts == 53 and chunks > 500  # parts of at most 1,000,000 characters
    assert grown_mb < 200, f"peak memory grew {grown_mb} MB while reading a {size // 2**20} MB file"


def test_ingest_pulls_documents_lazily(store, space):
    pulled: list[int] = []

    def documents():
        for i in range(8):
            pulled.append(i)
            from memgraph_neo4j.ingest.readers import Document
            yield Document(title=f"D{i}", text=f"Lazy document number {i} about Ada Lovelace.")

    with memory_of(store, space, extractor=Nothing()) as memory:
        seen: list[int] = []
        memory.ingest(documents(), progress=False, batch_size=1,
                      on_batch=lambda report, done: seen.append(len(pulled)))
    # when the first batch is written: that batch and the two staged after it (parsed, embedded), pulled in
    # groups of GROUP_BATCHES batches, not all 8
    from memgraph_neo4j.ingest.pipeline import GROUP_BATCHES
    assert len(seen) == 8 and seen[0] <= -(-3 // GROUP_BATCHES) * GROUP_BATCHES < 8 and seen[-1] == 8


def test_ingest_holds_a_bounded_window_of_a_long_stream(store, space):
    """At every batch the pipeline has pulled at most a few batches more than it has extracted, and the
    totals are those of the whole stream (a duplicate document counted once)."""
    from memgraph_neo4j.ingest.readers import Document

    pulled: list[int] = []

    def documents():
        for i in range(40):
            pulled.append(i)
            yield Document(title=f"D{i}", text=f"Document {i} says Ada Lovelace met Babbage.")
        yield Document(title="D0 again", text="Document 0 says Ada Lovelace met Babbage.")

    ahead: list[int] = []
    with memory_of(store, space, extractor=Empty()) as memory:
        report = memory.ingest(documents(), progress=False, batch_size=4,
                               on_batch=lambda report, done: ahead.append(len(pulled) - done))
        rerun: list[int] = []
        again = memory.ingest(documents(), progress=False, batch_size=4, on_batch=lambda r, done: rerun.append(done))
    assert len(ahead) == 10 and max(ahead) <= 3 * 4  # the batch written, the one extracted ahead, one queued
    assert (report.documents, report.passages, report.passages_new, report.failed) == (40, 40, 40, 0)
    assert (again.documents, again.passages, again.passages_new, rerun) == (40, 40, 0, [])  # all committed


def test_a_long_text_on_one_line_is_a_text_not_a_file_name(store, space):
    text = "Ada Lovelace met Charles Babbage in London. " * 20  # longer than a file name may be
    with memory_of(store, space, extractor=Empty()) as memory:
        report = memory.ingest(text, progress=False)
    assert (report.documents, report.passages, report.failed) == (1, 1, 0)


def test_invalid_ontology_yaml(store, test_store, kept, tmp_path):
    path = tmp_path / "ontology.yaml"
    path.write_text("entity_types:\n  - name: Person\n    description: a human\nrelations: [\n")
    with pytest.raises(OntologyError) as caught:
        memory_of(store, kept[0], ontology=path).ingest(SEED, progress=False)
    assert str(caught.value).startswith(f"invalid ontology:\n  {path}, line 5, field <root>: YAML syntax error")
    path.write_text("entity_types:\n  - name: Person\n    description: a human\n"
                    "relations:\n  - name: born_in\n    description: birth place\n    domain: [Persn]\n")
    with pytest.raises(OntologyError, match=r"line 7, field relations\[0\]\.domain\[0\]: unknown entity type 'Persn'"):
        memory_of(store, kept[0], ontology=path).ingest(SEED, progress=False)
    assert snapshot(test_store, kept[0]) == kept[1]


def test_a_duplicate_document_under_a_new_file_name(store, test_store, space, tmp_path):
    first = tmp_path / "ada.txt"
    first.write_text(SEED)
    with memory_of(store, space) as memory:
        memory.ingest(first, progress=False)
        before = snapshot(test_store, space)
        copy = tmp_path / "copy of ada.txt"
        shutil.copy(first, copy)
        report = memory.ingest(copy, progress=False)
        [document] = memory.documents()
    assert (report.documents, report.passages, report.passages_new, report.facts) == (1, 1, 0, 0)
    assert snapshot(test_store, space) == before  # one Document (its content hash), nothing doubled
    assert Path(document.source).name in {"ada.txt", "copy of ada.txt"}


def test_json_records_without_text(store, test_store, kept, tmp_path):
    (tmp_path / "r.json").write_text(json.dumps([{"text": "  "}, {"text": ""}]))
    refused(store, test_store, kept, tmp_path / "r.json", EmptyFileError,
            r"^no text in .*r\.json: no record holds text; nothing to ingest$")

