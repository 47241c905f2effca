"""How long a start waits: the deadline moves with every line the server logs, up to a ceiling."""

from __future__ import annotations

import json

from memgraph_neo4j.server.startup_watch import CEILING, StartupWatch, log_message, recovery_report


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _line(message: str, category: str = "o.n.k.r.Recovery") -> str:
    # the JSON-lines format our instance's debug.log is written in
    return json.dumps({"time": "2026-12-06 14:37:54.798+0000", "level": "INFO",
                       "category": category, "message": message}) + "\n"


def _append(path, *lines: str) -> None:
    with path.open("a") as fh:
        fh.writelines(lines)


def test_silence_for_the_timeout_expires(tmp_path):
    log, clock = tmp_path / "debug.log", Clock()
    _append(log, _line("written before the start: not progress"))
    watch = StartupWatch(log, stall=10, clock=clock)
    clock.now += 9.9
    assert watch.poll() == [] and not watch.expired()
    clock.now += 0.1
    assert watch.poll() == [] and watch.expired()


def test_a_recovery_that_reports_progress_keeps_the_start_waiting(tmp_path):
    log, clock = tmp_path / "debug.log", Clock()
    watch = StartupWatch(log, stall=10, clock=clock)
    _append(log, _line("[neo4j/a834acff] Recovery required from position LogPosition{logVersion=91}",
                       category="o.n.k.d.Database"))
    reports = []
    for percent in range(10, 101, 10):  # 100 s of recovery, a line every 8 s: ten times the timeout
        clock.now += 8
        _append(log, _line(f"[neo4j/a834acff] {percent:3d}% completed"))
        reports += watch.poll()
        assert not watch.expired()
    assert watch.recovering
    assert reports[0].startswith("the database was not stopped cleanly")
    assert reports[1:] == [f"recovery {percent}% done" for percent in range(10, 101, 10)]
    clock.now += 10
    assert watch.expired()


def test_a_server_that_logs_for_ever_meets_the_ceiling(tmp_path):
    log, clock = tmp_path / "debug.log", Clock()
    watch = StartupWatch(log, stall=10, clock=clock)
    while not watch.expired():
        clock.now += 5
        _append(log, _line("still busy"))
        watch.poll()
    assert clock.now - 1000.0 == 10 * CEILING


def test_a_line_being_written_waits_for_its_end(tmp_path):
    log, clock = tmp_path / "debug.log", Clock()
    watch = StartupWatch(log, stall=10, clock=clock)
    text = _line("[neo4j/x] Recovery required from position 0")
    _append(log, text[:30])
    assert watch.poll() == []
    _append(log, text[30:])
    assert len(watch.poll()) == 1


def test_a_rotated_log_is_read_from_its_start(tmp_path):
    log, clock = tmp_path / "debug.log", Clock()
    _append(log, *[_line("old") for _ in range(50)])
    watch = StartupWatch(log, stall=10, clock=clock)
    log.rename(tmp_path / "debug.log.01")
    _append(log, _line("[neo4j/x] Recovery required from position 0"))
    assert watch.poll() and watch.recovering


def test_plain_text_lines_and_unrelated_percentages():
    plain = "2026-12-06 14:37:54.798+0000 INFO  [o.n.k.r.Recovery] [neo4j/x]  40% completed"
    assert recovery_report(log_message(plain)) == "recovery 40% done"
    gds = _line("[gid-n4j-1] PageRank 100% completed", category="o.n.g.e.OpenGraphDataScienceExtension")
    assert recovery_report(log_message(gds)) is None  # GDS progress, not recovery
    done = _line("[neo4j/x] Recovery in 'full' mode completed. Observed transactions range", "o.n.k.d.Database")
    assert recovery_report(log_message(done)) == "recovery done"
