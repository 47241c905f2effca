"""store/retry.py on a fake clock: one outage, one budget, whatever the number of statements and threads."""

from __future__ import annotations

import pytest
from neo4j.exceptions import ClientError, ServiceUnavailable, TransientError

from memgraph_neo4j.store.retry import Retry


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def failing(clock: Clock, error: Exception, answer_at: float | None = None):
    calls = []

    def attempt():
        calls.append(clock.now)
        if answer_at is None or clock.now < answer_at:
            raise error
        return "ok"
    return attempt, calls


def test_a_dead_server_costs_one_budget_then_one_attempt_per_statement():
    clock = Clock()
    retry = Retry(15, sleep=clock.sleep, clock=clock)
    attempt, calls = failing(clock, ServiceUnavailable("down"))
    with pytest.raises(ServiceUnavailable):
        retry.run(attempt, "first")
    assert clock.now == pytest.approx(15) and len(calls) > 3
    began = clock.now
    for name in ("release lease", "heartbeat"):  # what runs after the failed statement: fails at once
        attempt, calls = failing(clock, ServiceUnavailable("down"))
        with pytest.raises(ServiceUnavailable):
            retry.run(attempt, name)
        assert len(calls) == 1
    assert clock.now == began


def test_a_server_back_within_the_budget_answers_and_resets_it():
    clock = Clock()
    retry = Retry(15, sleep=clock.sleep, clock=clock)
    attempt, _ = failing(clock, ServiceUnavailable("leader switch"), answer_at=6)
    assert retry.run(attempt, "write") == "ok"
    clock.now += 1
    attempt, calls = failing(clock, ServiceUnavailable("next switch"), answer_at=clock.now + 10)
    assert retry.run(attempt, "write") == "ok" and len(calls) > 1  # a new outage: a whole budget again


def test_errors_that_are_not_retryable_are_raised_at_once_and_transient_ones_retried():
    clock = Clock()
    retry = Retry(15, sleep=clock.sleep, clock=clock)
    attempt, calls = failing(clock, ClientError("syntax"))
    with pytest.raises(ClientError):
        retry.run(attempt, "bad")
    assert len(calls) == 1
    attempt, calls = failing(clock, TransientError("deadlock"), answer_at=2)
    assert retry.run(attempt, "deadlock") == "ok" and len(calls) > 1


def test_no_retry_budget_is_one_attempt():
    clock = Clock()
    attempt, calls = failing(clock, ServiceUnavailable("down"))
    with pytest.raises(ServiceUnavailable):
        Retry(0, sleep=clock.sleep, clock=clock).run(attempt, "probe")
    assert len(calls) == 1
