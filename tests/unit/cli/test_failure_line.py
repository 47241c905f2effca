"""The one line an ingest with failed chunks ends with: the count, the first cause, what to do."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memgraph_neo4j.cli.memory_cmd import failure_line


@pytest.mark.parametrize(("cause", "hint"), [
    ("model call failed: AuthenticationError: Error code: 401 - {'error': 'bad key'}", "check OPENAI_API_KEY"),
    ("HTTP 401 Unauthorized", "check OPENAI_API_KEY"),
    # CI drew port 38401 once: the cause named the endpoint, and "401" in it was read as the status
    ("model call failed: ValueError: the answer of http://127.0.0.1:38401/v1/ is not OpenAI-compatible JSON",
     "check --base-url"),
])
def test_the_hint_follows_the_cause_not_a_port(cause, hint):
    report = SimpleNamespace(failed=2, extracted=1, failed_causes={cause: 2})
    assert failure_line(report, "http://127.0.0.1:38401/v1/").endswith(hint)
