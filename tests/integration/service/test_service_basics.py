"""The service's REST surface against a real uvicorn and Neo4j: a text written as a job and searched, the
same result as in process; errors as one-line 4xx; readiness; the OpenAPI lists every endpoint."""

from __future__ import annotations

import httpx

from memgraph_neo4j.api import MemoryGraph

TEXT = ("Ada Lovelace was born in London in 1815. She worked with Charles Babbage on the Analytical Engine. "
        "Charles Babbage designed the Difference Engine in London.")


def test_text_job_then_search_equals_in_process(service_url, space, store, minilm, test_settings):
    with httpx.Client(base_url=service_url, timeout=120) as http:
        job = http.post(f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": TEXT}).json()
        assert job["status"] == "done", job
        assert job["report"]["passages_new"] == 1 and job["report"]["facts"] > 0
        again = http.post(f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": TEXT}).json()
        assert again["report"]["passages_new"] == 0  # the same text twice adds nothing
        found = http.post(f"/v1/spaces/{space}/search", json={"query": "Where was Ada Lovelace born?",
                                                             "method": "memgraphrag"}).json()
    with MemoryGraph(space=space, store=store, embedder=minilm, settings=test_settings) as memory:
        local = memory.search("Where was Ada Lovelace born?", method="memgraphrag")
    assert [p["id"] for p in found["passages"]] == [p.id for p in local.passages]
    assert [round(p["score"], 6) for p in found["passages"]] == [round(p.score, 6) for p in local.passages]
    assert [f["id"] for f in found["facts"]] == [f.id for f in local.facts]
    assert found["labels"] and all(found["labels"])


def test_errors_are_one_line_4xx(service_url, space):
    with httpx.Client(base_url=service_url, timeout=60) as http:
        bad_space = http.get("/v1/spaces/bad%20space/documents")
        assert bad_space.status_code == 400 and "letters, digits" in bad_space.json()["detail"]
        empty = http.post(f"/v1/spaces/{space}/search", json={"query": "x"})
        assert empty.status_code == 404 and "empty" in empty.json()["detail"]
        invalid = http.post(f"/v1/spaces/{space}/search", json={"query": "", "top_k": 0})
        assert invalid.status_code == 422
        assert "query" in invalid.json()["detail"] and "top_k" in invalid.json()["detail"]
        http.post(f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": TEXT})
        missing = http.get(f"/v1/spaces/{space}/conflicts/abcdef123")
        body = missing.json()
        assert missing.status_code == 404 and body["remedy"] == "list_conflicts"
        assert f"GET /v1/spaces/{space}/conflicts" in body["detail"] and "\n" not in body["detail"]
        unknown_job = http.get("/v1/jobs/0123456789abcdef")
        assert unknown_job.status_code == 404
        too_big = http.post(f"/v1/spaces/{space}/texts", content=b"{" + b" " * (17 << 20) + b"}",
                            headers={"content-type": "application/json"})
        assert too_big.status_code == 413 and "MEMGRAPH_SERVICE_MAX_BODY_MB" in too_big.json()["detail"]


def test_probes_and_openapi(service_url):
    with httpx.Client(base_url=service_url, timeout=60) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        ready = http.get("/readyz").json()
        assert ready["status"] == "ready" and ready["gds"]
        paths = http.get("/openapi.json").json()["paths"]
    for path in ("/v1/spaces/{space}/documents", "/v1/spaces/{space}/texts", "/v1/spaces/{space}/conversations",
                 "/v1/spaces/{space}/search", "/v1/spaces/{space}/ask", "/v1/spaces/{space}/facts",
                 "/v1/spaces/{space}/facts/{fact_id}/provenance", "/v1/spaces/{space}/conflicts",
                 "/v1/spaces/{space}/conflicts/{conflict_id}/accept", "/v1/spaces/{space}/export",
                 "/v1/spaces/{space}/health", "/v1/spaces/{space}/stats", "/v1/jobs/{job_id}", "/v1/spaces"):
        assert path in paths, path
