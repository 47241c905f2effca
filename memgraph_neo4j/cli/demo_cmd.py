"""`memgraph-neo4j demo`: the main job in one command, on a fresh machine, with no API key.

Starts the local Neo4j + GDS unless NEO4J_URI points elsewhere, builds a memory from the shipped corpus
(memgraph_neo4j/demo), adjudicates its conflicts, answers three questions with cited passages, prints the
graph health and where to look in Neo4j Browser. `--json` prints demo.scenario.DemoReport instead.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from memgraph_neo4j.cli.output import err, fail, stdout_console

if TYPE_CHECKING:
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.demo.scenario import DemoReport

out = stdout_console()

_MARK = {"resolved": "[green]resolved[/green]", "needs_review": "[yellow]needs review[/yellow]"}


def _start_server(settings: Settings) -> str | None:
    """The local server's Browser URL once it answers; None when NEO4J_URI names another server."""
    from memgraph_neo4j.server.launcher import LauncherError, LocalNeo4j

    if os.environ.get("NEO4J_URI"):
        return None
    server = LocalNeo4j(settings)
    try:  # progress on stderr: stdout stays the report (or the JSON)
        info = server.start(progress=lambda message: err.print(message, highlight=False))
    except LauncherError as exc:
        fail(exc)
    if not info.get("already_running"):
        err.print(f"Neo4j + GDS started (pid {info.get('pid')})", highlight=False)
    return server.browser_url


def demo(space: str = typer.Option("demo", help="Memory space for the demo"),
         offline: bool = typer.Option(False, "--offline",
                                      help="Ignore a configured chat model: offline rules, extractive answers"),
         as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Build a memory from a small shipped corpus, adjudicate its conflicts and answer three questions with
    citations; needs no API key (a configured chat model, OPENAI_API_KEY or OPENAI_BASE_URL, is used when set)."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.demo.scenario import browser_guide, run_demo
    from memgraph_neo4j.llm.chat import chat_from_environment
    from memgraph_neo4j.store import StoreError

    settings = Settings()
    url = _start_server(settings)
    chat = None if offline else chat_from_environment(settings.llm_model, settings.llm_timeout)
    try:
        with MemoryGraph(space=space, extractor="offline", settings=settings, adjudication_chat=chat) as memory:
            report = run_demo(memory, chat, progress=not as_json)
    except (StoreError, ValueError) as exc:
        fail(exc)
    report.browser = browser_guide(space, url)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    render(report)


def _section(title: str) -> None:
    out.print(f"\n[bold cyan]{escape(title)}[/bold cyan]", highlight=False, soft_wrap=True)


def _line(text: str, indent: int = 2) -> None:
    out.print(" " * indent + text, highlight=False, markup=False, soft_wrap=True)


def render(report: DemoReport) -> None:
    from memgraph_neo4j.evaluation.report import health_lines

    ingest, counts = report.ingest, report.counts
    total = {label: c.get("total", 0) for label, c in counts.items()}
    new = "nothing new: already in the memory" if not ingest.get("passages_new") else \
        f"{ingest['passages_new']} new passages, {ingest['facts']} facts"
    _section(f"1. Memory '{report.space}': the demo corpus, offline extractor ({new}, {ingest.get('seconds', 0):.1f}s)")
    _line(f"{total.get('Document', 0)} documents, {total.get('Passage', 0)} passages, {total.get('Entity', 0)} "
          f"entities, {total.get('Fact', 0)} facts ({_states(counts.get('Fact'))}), {total.get('Schema', 0)} "
          f"schemas ({_states(counts.get('Schema'))})")

    c = report.conflicts
    judge = f"chat model {report.model}" if report.model else "offline rules (no chat model configured)"
    _section(f"2. Conflicts: {c.total} found, {c.resolved} resolved, {c.needs_review} to review; by {judge}")
    for item in c.items:
        out.print(f"  {_MARK.get(item.status, escape(item.status))}  {escape(item.type)}: "
                  f"{escape(item.rationale or item.reason or '')}", highlight=False, soft_wrap=True)
        for f in item.facts:
            span = _span(f.valid_from, f.valid_to)
            _line(f"- {f.text}{span}" + (f"  ({f.verdict})" if f.verdict else ""), indent=6)
        if item.status == "needs_review":
            _line(f"review it: memgraph-neo4j conflicts show {item.id[:12]} --space {report.space}", indent=6)

    _section("3. Entity resolution")
    for d in report.duplicates:
        names = " / ".join(f'"{n}"' for n in d.names)
        _line(f"{names}: " + ("one entity (merged)" if d.merged else "not merged: " + ", ".join(
            str(i) for i in d.entity_ids)))

    how = "generated by " + (report.model or "the chat model") if report.model else \
        "extractive: the best-supporting sentences of the cited passages, quoted, nothing generated"
    _section(f"4. Answers ({how})")
    for a in report.answers:
        out.print(f"  [bold]Q: {escape(a.question)}[/bold]", highlight=False, soft_wrap=True)
        _line(("A (extractive): " if a.extractive else "A: ") + a.answer, indent=4)
        for cite in a.citations:
            _line(f"[{cite.label}] {cite.source}: {cite.text}", indent=6)
        if a.facts:
            _line("facts: " + "; ".join(a.facts), indent=6)

    _section(f"5. Graph health (memgraph-neo4j health --space {report.space})")
    for row in health_lines(report.health):
        _line(row)

    b = report.browser or {}
    _section("6. Explore it in Neo4j Browser")
    if b.get("url"):
        _line(f"{b['url']}  (user neo4j; `memgraph-neo4j neo4j env` prints the password)")
    _line("paste, then run:")
    _line(b.get("params", ""), indent=4)
    for row in (b.get("query") or "").splitlines():
        _line(row, indent=4)
    if b.get("more"):
        _line("more guide queries: " + ", ".join(b["more"]))
    for warning in report.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False, soft_wrap=True)


def _span(valid_from: str | None, valid_to: str | None) -> str:
    """A qualified fact's validity as the rules or the model set it ("from 1975": no end is known)."""
    if valid_from and valid_to:
        return f"  [valid {valid_from} to {valid_to}]"
    if valid_from or valid_to:
        return f"  [valid from {valid_from}]" if valid_from else f"  [valid until {valid_to}]"
    return ""


def _states(count: dict | None) -> str:
    return ", ".join(f"{n} {state}" for state, n in sorted(((count or {}).get("by_state") or {}).items())) or "-"
