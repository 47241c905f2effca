"""Jobs through the service: one stopped by SIGTERM mid-ingest (the service runs as `memgraph-neo4j serve`, a
process of its own) is marked interrupted, resumed by the next start, and leaves the space as one
uninterrupted in-process ingest of the same file; a client that disconnects does not stop its job; DELETE
cancels a queued job."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from service_harness import free_port, running, two_spaces

from memgraph_neo4j.api import MemoryGraph

FIRST = ["Ada", "Alan", "Grace", "John", "Marie", "Niels", "Emmy", "Paul", "Lise", "Enrico", "Rosalind", "Kurt",
         "Barbara", "Claude", "Dorothy", "Edwin"]
LAST = ["Hartley", "Moreau", "Lindqvist", "Okafor", "Brandt", "Castellano", "Novak", "Whitaker", "Sato", "Dufresne",
        "Albrecht", "Kowalski", "Fairbanks"]
CITIES = ["London", "Paris", "Vienna", "Berlin", "Rome", "Madrid", "Prague", "Lisbon", "Oslo", "Dublin", "Zurich"]
ORGS = ["the Royal Society", "Bell Labs", "the Sorbonne", "the Institute for Advanced Study", "Siemens",
        "the University of Vienna", "Philips", "CERN"]
PASSAGES = 150  # single-passage records in batches of 64 (the ingest default): 64, 64, 22


def corpus(path: Path, n: int = PASSAGES) -> Path:
    """A MuSiQue-style corpus file ({title, text} records: one passage each) of `n` distinct short passages."""
    records = []
    for i in range(n):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]}"
        city, other, org = CITIES[i % len(CITIES)], CITIES[(i * 7 + 3) % len(CITIES)], ORGS[i % len(ORGS)]
        records.append({"title": name, "text": f"{name} was born in {city} in {1800 + i}. {name} later worked "
                                               f"for {org} in {other}."})
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def service_env(connection, spool: Path) -> dict[str, str]:
    """The environment of `memgraph-neo4j serve` on the test instance, with no token (loopback)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MEMGRAPH_SERVICE_TOKEN", "MEMGRAPH_SERVICE_TOKENS_FILE", "MEMGRAPH_SERVICE_URL")}
    return env | {"NEO4J_URI": connection.uri, "NEO4J_USERNAME": connection.username,
                  "NEO4J_PASSWORD": connection.password, "NEO4J_DATABASE": connection.database,
                  "MEMGRAPH_SERVICE_DIR": str(spool)}


def serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """`memgraph-neo4j serve` as its own process, once its port answers /healthz."""
    with open(log, "ab") as err:
        process = subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.entry", "serve", "--port", str(port)],
                                   env=env, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            pytest.fail(f"serve exited with {process.returncode}: {log.read_text()[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"serve did not answer in 120 s: {log.read_text()[-3000:]}")
        time.sleep(0.1)


def stop(process: subprocess.Popen, log: Path) -> float:
    """SIGTERM, as a process manager stops it: a clean exit (0) within a minute; the seconds it took."""
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"serve did not stop within 60 s of SIGTERM: {log.read_text()[-3000:]}")
    assert code == 0, log.read_text()[-3000:]
    assert "Traceback" not in log.read_text()
    return time.monotonic() - began


def fingerprint(test_store, space: str) -> tuple[Counter, Counter]:
    """Every node (labels, id, state, names, ...) and every edge (type, ends) of a space, as multisets."""
    def hashable(value):
        return tuple(sorted(value)) if isinstance(value, list) else value

    nodes = Counter(tuple((k, hashable(v)) for k, v in sorted(row.items()))
                    for row in test_store.read("kill_resume_nodes", space=space))
    edges = Counter((r["type"], r["source"], r["target"]) for r in test_store.read("kill_resume_edges", space=space))
    return nodes, edges


other_spaces = two_spaces


def test_a_job_stopped_by_sigterm_resumes_at_the_next_start_and_ends_as_one_run(
        neo4j_connection, space, other_spaces, store, test_store, minilm, test_settings, tmp_path):
    other_space, third = other_spaces
    data = corpus(tmp_path / "people.json")
    env, port, log = service_env(neo4j_connection, tmp_path / "service"), free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    process = serve(env, port, log)
    try:
        with httpx.Client(base_url=url, timeout=120) as http:
            sent = http.post(f"/v1/spaces/{space}/documents",
                             files=[("files", ("people.json", data.read_bytes(), "application/json"))])
            assert sent.status_code == 202, sent.text
            job_id = sent.json()["id"]
            behind = http.post(f"/v1/spaces/{third}/texts", json={"text": "Grace Hopper lived in New York."})
            assert behind.json()["status"] == "queued", behind.text
            queued_id = behind.json()["id"]
            deadline = time.monotonic() + 180
            while (job := http.get(f"/v1/jobs/{job_id}").json())["progress"]["chunks_done"] < 64:
                assert job["status"] in ("queued", "running"), job
                assert time.monotonic() < deadline, job
                time.sleep(0.05)
        answers: dict[str, httpx.Response | Exception] = {}

        def wait_for(job: str) -> None:  # a client waiting for each job when the service is told to stop
            try:
                answers[job] = httpx.get(f"{url}/v1/jobs/{job}", params={"wait": True}, timeout=120)
            except httpx.HTTPError as exc:
                answers[job] = exc
        waiters = [threading.Thread(target=wait_for, args=(job,)) for job in (job_id, queued_id)]
        for waiter in waiters:
            waiter.start()
        time.sleep(0.5)
        took = stop(process, log)
        for waiter in waiters:
            waiter.join(60)
    finally:
        if process.poll() is None:
            process.kill()
    # the waiting clients do not hold the stop (uvicorn waits up to 30 s for open requests): each is told
    # where its job stands, the running one interrupted after its batch, the queued one still queued
    assert took < 25, took
    assert {job: (a.status_code, a.json()["status"]) if isinstance(a, httpx.Response) else repr(a)
            for job, a in answers.items()} == {job_id: (200, "interrupted"), queued_id: (200, "queued")}
    stopped = json.loads((tmp_path / "service" / "jobs" / job_id / "job.json").read_text())
    assert stopped["status"] == "interrupted" and stopped["runs"] == 1, stopped
    assert 64 <= stopped["progress"]["chunks_done"] < PASSAGES, stopped

    process = serve(env, port, log)
    try:
        with httpx.Client(base_url=url, timeout=300) as http:
            done = http.get(f"/v1/jobs/{job_id}", params={"wait": True, "timeout": 280}).json()
            queued = http.get(f"/v1/jobs/{queued_id}", params={"wait": True, "timeout": 60}).json()
        stop(process, log)
    finally:
        if process.poll() is None:
            process.kill()
    assert done["status"] == "done" and done["runs"] == 2, done
    assert done["progress"]["chunks_done"] == PASSAGES - stopped["progress"]["chunks_done"]  # only the rest
    assert done["report"]["passages"] == PASSAGES and done["report"]["failed"] == 0, done["report"]
    assert queued["status"] == "done" and queued["runs"] == 1, queued  # queued at the stop: run after the restart

    with MemoryGraph(space=other_space, store=store, embedder=minilm, settings=test_settings) as memory:
        memory.ingest([data], progress=False)
    resumed, whole = fingerprint(test_store, space), fingerprint(test_store, other_space)
    kinds = Counter(dict(row)["labels"] for row in resumed[0])
    assert kinds[("Passage",)] == PASSAGES and kinds[("Fact",)] > 0 and kinds[("Entity",)] > 0, kinds
    assert resumed == whole


def long_text(sentences: int = 200) -> str:
    """~12 passages of distinct sentences: an ingest of seconds."""
    return " ".join(f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} visited {CITIES[i % len(CITIES)]} in {1700 + i} "
                    f"and met members of {ORGS[i % len(ORGS)]}." for i in range(sentences))


def test_a_client_that_disconnects_does_not_stop_its_job_and_delete_cancels_a_queued_one(service_url, space):
    with httpx.Client(base_url=service_url, timeout=0.5) as impatient, pytest.raises(httpx.ReadTimeout):
        impatient.post(f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": long_text(), "title": "Long"})
    with httpx.Client(base_url=service_url, timeout=120) as http:
        [first] = http.get("/v1/jobs", params={"space": space}).json()
        assert first["status"] in ("queued", "running"), first
        queued = http.post(f"/v1/spaces/{space}/texts", json={"text": "Grace Hopper lived in New York.",
                                                             "title": "Queued"})
        assert queued.status_code == 202 and queued.json()["status"] == "queued", queued.text
        cancelled = http.delete(f"/v1/jobs/{queued.json()['id']}")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled", cancelled.text
        done = http.get(f"/v1/jobs/{first['id']}", params={"wait": True, "timeout": 110}).json()
        assert done["status"] == "done" and done["runs"] == 1 and done["report"]["passages_new"] > 5, done
        assert http.get(f"/v1/jobs/{queued.json()['id']}").json()["status"] == "cancelled"
        assert [d["title"] for d in http.get(f"/v1/spaces/{space}/documents").json()] == ["Long"]


def test_a_job_sent_while_the_service_stops_is_503_and_leaves_nothing_in_the_spool(service, space):
    with running(service) as url, httpx.Client(base_url=url, timeout=60) as http:
        service.jobs.stopping()  # what `serve` does as its shutdown begins, while requests may still arrive
        text = http.post(f"/v1/spaces/{space}/texts", json={"text": "Grace Hopper lived in New York."})
        upload = http.post(f"/v1/spaces/{space}/documents", files=[("files", ("a.txt", b"Some text.", "text/plain"))])
    for refused in (text, upload):
        assert refused.status_code == 503, refused.text
        assert "the service is stopping" in refused.json()["detail"]
    assert list(service.store.root.iterdir()) == []
