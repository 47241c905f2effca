"""16 clients searching one space while a job ingests into another, against a real uvicorn and Neo4j: no
error, and every result the in-process search of the same question; then the written space, whose warm
copies were built before the job, searched through the service as in process."""

from __future__ import annotations

import threading

import httpx
from service_harness import new_service, running, two_spaces

from memgraph_neo4j.api import MemoryGraph

CLIENTS = 16
SEARCHED = ("Ada Lovelace was born in London in 1815. She worked with Charles Babbage on the Analytical Engine. "
            "Charles Babbage designed the Difference Engine in London. Alan Turing was born in Maida Vale. Turing "
            "worked at Bletchley Park during the war. Grace Hopper built the first COBOL compiler. Hopper served "
            "in the United States Navy. Marie Curie discovered polonium in Paris with Pierre Curie.")
QUESTIONS = ("Where was Ada Lovelace born?", "Who designed the Difference Engine?", "Where did Alan Turing work?",
             "What did Grace Hopper build?", "What did Marie Curie discover?", "Who worked with Charles Babbage?")
PEOPLE = ["Niels Bohr", "Emmy Noether", "Lise Meitner", "Enrico Fermi", "Paul Dirac", "Kurt Godel"]
CITIES = ["Copenhagen", "Erlangen", "Vienna", "Rome", "Bristol", "Brno", "Zurich"]


def written_text(sentences: int = 160) -> str:
    """~10 passages: an ingest of seconds."""
    return " ".join(f"{PEOPLE[i % len(PEOPLE)]} lectured in {CITIES[i % len(CITIES)]} in {1900 + i}."
                    for i in range(sentences))


def same(found: dict, local) -> bool:
    return ([p["id"] for p in found["passages"]] == [p.id for p in local.passages]
            and all(abs(p["score"] - q.score) <= 1e-6 for p, q in zip(found["passages"], local.passages, strict=True)))


spaces = two_spaces


def test_sixteen_clients_search_while_a_job_writes_another_space(spaces, store, minilm, test_settings, tmp_path):
    searched, written = spaces
    with running(new_service(test_settings, store, minilm, tmp_path / "jobs", mcp=False)) as url, \
            httpx.Client(base_url=url, timeout=300) as http:
        for space, text in ((searched, SEARCHED), (written, "Niels Bohr was born in Copenhagen in 1885.")):
            assert http.post(f"/v1/spaces/{space}/texts", params={"wait": True},
                             json={"text": text}).json()["status"] == "done"
        assert http.post(f"/v1/spaces/{written}/search", json={"query": "Bohr"}).status_code == 200  # warm copies
        with MemoryGraph(space=searched, store=store, embedder=minilm, settings=test_settings) as memory:
            expected = {q: memory.search(q) for q in QUESTIONS}
        assert all(result.passages for result in expected.values())

        job = http.post(f"/v1/spaces/{written}/texts", json={"text": written_text(), "title": "Lectures"}).json()
        stop, errors, counts, done_while_running = threading.Event(), [], [0] * CLIENTS, []

        def client(n: int) -> None:
            with httpx.Client(base_url=url, timeout=120) as mine:
                while not stop.is_set() or counts[n] < len(QUESTIONS):
                    question = QUESTIONS[(n + counts[n]) % len(QUESTIONS)]
                    try:
                        answer = mine.post(f"/v1/spaces/{searched}/search", json={"query": question})
                        if answer.status_code != 200 or not same(answer.json(), expected[question]):
                            errors.append((question, answer.status_code, answer.text[:300]))
                    except httpx.HTTPError as exc:
                        errors.append((question, type(exc).__name__, str(exc)))
                    counts[n] += 1
                    if not stop.is_set():
                        done_while_running.append(n)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        finished = http.get(f"/v1/jobs/{job['id']}", params={"wait": True, "timeout": 280}).json()
        stop.set()
        for thread in threads:
            thread.join(120)
        assert finished["status"] == "done" and finished["report"]["passages_new"] >= 5, finished
        assert errors == [], errors[:3]
        assert min(counts) >= len(QUESTIONS) and len(done_while_running) >= CLIENTS, counts

        found = http.post(f"/v1/spaces/{written}/search", json={"query": "Where did Lise Meitner lecture?"}).json()
    with MemoryGraph(space=written, store=store, embedder=minilm, settings=test_settings) as memory:
        local = memory.search("Where did Lise Meitner lecture?")
    assert "Lise Meitner" in local.passages[0].text
    assert same(found, local), (found["passages"], local.passages)
