"""Uploads against a real uvicorn and Neo4j: a file of each format (PDF, HTML, DOCX, Markdown, text, JSON, a
chat .jsonl) ends as the same documents (their source the name the client sent) and passages as an
in-process ingest of the same files; an unsupported extension is 415 naming the file and the formats; an
upload above the limit is 413 and leaves nothing in the job spool."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from service_harness import module_spaces, new_service, running

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS

CHAT = [{"conversation": "c1", "session": "1", "speaker": "Ana", "text": "Acme is based in Paris.",
         "time": "2024-01-10T09:30:00Z"},
        {"conversation": "c1", "session": "1", "speaker": "Bo", "text": "Did you visit Acme in Paris?"},
        {"conversation": "c1", "session": "2", "speaker": "Ana", "text": "I moved to Berlin.", "time": "2024-06-01"}]
MIME = {".pdf": "application/pdf", ".html": "text/html", ".md": "text/markdown", ".txt": "text/plain",
        ".json": "application/json", ".jsonl": "application/jsonl",
        ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


def write_files(folder: Path) -> list[Path]:
    """One small file per format, each about other people (distinct texts: distinct documents)."""
    from docx import Document as Docx
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("Ada Lovelace")
    for heading, body in (("Origins", "Ada Lovelace was born in London in 1815. " * 6),
                          ("Legacy", "The language Ada was named after Ada Lovelace in 1980. " * 6)):
        pdf.add_page()
        pdf.start_section(heading)
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(text=heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body.strip())
    pdf.output(str(folder / "ada.pdf"))
    (folder / "turing.html").write_text(
        "<!doctype html><html><head><title>Alan Turing</title></head><body><main><h1>Alan Turing</h1>"
        "<p>Alan Turing was born in Maida Vale, London.</p><h2>War</h2><p>Turing worked at Bletchley Park.</p>"
        "</main></body></html>", encoding="utf-8")
    docx = Docx()
    docx.core_properties.title = "Grace Hopper"
    docx.add_heading("Navy", 1)
    docx.add_paragraph("Grace Hopper joined the United States Navy Reserve in 1943.")
    docx.add_heading("Compilers", 1)
    docx.add_paragraph("Grace Hopper led the team that built the first COBOL compiler.")
    docx.save(str(folder / "hopper.docx"))
    (folder / "curie.md").write_text("# Marie Curie\n\nMarie Curie was born in Warsaw.\n\n## Work\n\n"
                                     "Marie Curie discovered polonium with Pierre Curie in Paris.\n", encoding="utf-8")
    (folder / "bohr.txt").write_text("Niels Bohr was born in Copenhagen in 1885.\n\nBohr founded an institute "
                                     "in Copenhagen.\n", encoding="utf-8")
    (folder / "noether.json").write_text(json.dumps([
        {"title": "Emmy Noether", "text": "Emmy Noether was born in Erlangen in 1882.", "field": "algebra"},
        {"title": "Noether at Göttingen", "text": "Emmy Noether taught at the University of Göttingen."}]),
        encoding="utf-8")
    (folder / "chat.jsonl").write_text("\n".join(json.dumps(r) for r in CHAT) + "\n", encoding="utf-8")
    return sorted(folder.iterdir())


spaces = module_spaces


@pytest.fixture(scope="module")
def url(test_settings, store, minilm, tmp_path_factory):
    with running(new_service(test_settings, store, minilm, tmp_path_factory.mktemp("uploads") / "jobs")) as base:
        yield base


def passages(test_store, space: str) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "created_at"}
            for row in test_store.read("passage_provenance", space=space)]


def test_each_format_ends_as_an_in_process_ingest_of_the_same_file(url, spaces, store, test_store, minilm,
                                                                   test_settings, tmp_path):
    served, local = spaces
    files = write_files(tmp_path)
    assert {f.suffix for f in files} == set(MIME)
    with httpx.Client(base_url=url, timeout=300) as http:
        job = http.post(f"/v1/spaces/{served}/documents", params={"wait": True},
                        files=[("files", (f.name, f.read_bytes(), MIME[f.suffix])) for f in files]).json()
        assert job["status"] == "done" and job["report"]["failed"] == 0, job
        assert [u["name"] for u in job["files"]] == [f.name for f in files]
        documents = http.get(f"/v1/spaces/{served}/documents").json()
    chat = [f for f in files if f.suffix == ".jsonl"]
    with MemoryGraph(space=local, store=store, embedder=minilm, settings=test_settings) as memory:
        memory.ingest_conversations(chat[0])  # as the service does: the chat first, then the documents
        memory.ingest([f for f in files if f not in chat], progress=False)
        expected = memory.documents()

    assert len(documents) == len(expected) >= len(files) + 1  # the JSON file holds two documents
    by_id = {d.id: d for d in expected}
    for document in documents:
        twin = by_id[document["id"]]
        assert document["title"] == twin.title
        if twin.source.startswith("conversation:"):  # an episode's source is its conversation, in process too
            assert document["source"] == twin.source
        else:
            assert document["source"] == Path(twin.source).name, document  # the name sent, not the spool's path
    sources = [d["source"] for d in documents]
    assert {Path(s).suffix for s in sources if not s.startswith("conversation:")} == set(MIME) - {".jsonl"}
    assert "conversation:c1" in sources
    assert passages(test_store, served) == passages(test_store, local)
    assert len({p["heading"] for p in passages(test_store, served)} - {None}) >= 4  # PDF, HTML, DOCX, Markdown


def test_an_unsupported_extension_is_415_naming_the_file_and_the_formats(url, spaces):
    served, _ = spaces
    with httpx.Client(base_url=url, timeout=60) as http:
        before = http.get("/v1/jobs").json()
        refused = http.post(f"/v1/spaces/{served}/documents",
                            files=[("files", ("notes.txt", b"Some text.", "text/plain")),
                                   ("files", ("sheet.xlsx", b"PK\x03\x04", "application/octet-stream"))])
        assert refused.status_code == 415
        detail = refused.json()["detail"]
        assert "'sheet.xlsx'" in detail and "notes.txt" not in detail
        assert all(extension in detail for extension in SUPPORTED_EXTENSIONS), detail
        assert http.get("/v1/jobs").json() == before  # no job for a refused upload


def multipart(name: str, data: bytes, boundary: str = "b0undary") -> tuple[bytes, dict[str, str]]:
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{name}\"\r\n"
            f"Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, {"content-type": f"multipart/form-data; boundary={boundary}"}


def test_an_upload_above_the_limit_is_413_and_leaves_nothing_in_the_spool(test_settings, store, minilm, tmp_path,
                                                                           space):
    spool = tmp_path / "jobs"
    service = new_service(test_settings, store, minilm, spool, mcp=False)
    service.max_upload_bytes = 4096
    big = b"Ada Lovelace was born in London. " * 400  # 13 kB
    with running(service) as base, httpx.Client(base_url=base, timeout=60) as http:
        declared = http.post(f"/v1/spaces/{space}/documents", files=[("files", ("big.txt", big, "text/plain"))])
        body, headers = multipart("big.txt", big)
        streamed = http.post(f"/v1/spaces/{space}/documents", headers=headers,
                             content=(body[i:i + 1024] for i in range(0, len(body), 1024)))  # chunked: no length
        small = http.post(f"/v1/spaces/{space}/documents", params={"wait": True},
                          files=[("files", ("small.txt", big[:1000], "text/plain"))])
    for refused in (declared, streamed):
        assert refused.status_code == 413, refused.text
        assert "MEMGRAPH_SERVICE_MAX_UPLOAD_MB" in refused.json()["detail"]
    assert "content-length" not in streamed.request.headers
    assert small.status_code == 200 and small.json()["status"] == "done", small.text  # under the limit: taken
    assert [p.name for p in spool.iterdir()] == [small.json()["id"]]  # the refused ones left nothing


def test_a_file_name_the_spool_cannot_keep_still_titles_the_document_as_in_process(url, space, tmp_path):
    from memgraph_neo4j.ingest.readers import iter_path

    name = "Meeting notes (2024) & Q+A's.txt"  # spooled as "Meeting notes _2024_ _ Q_A_s.txt"
    path = tmp_path / name
    path.write_text("Lise Meitner explained nuclear fission with Otto Frisch in 1939.\n", encoding="utf-8")
    [local] = iter_path(path)
    with httpx.Client(base_url=url, timeout=120) as http:
        job = http.post(f"/v1/spaces/{space}/documents", params={"wait": True},
                        files=[("files", (name, path.read_bytes(), "text/plain"))]).json()
        assert job["status"] == "done", job
        [document] = http.get(f"/v1/spaces/{space}/documents").json()
    assert (document["id"], document["title"], document["source"]) == (local.id, "Meeting notes (2024) & Q+A's",
                                                                       name)
