"""`memgraph-neo4j conflicts scan|list|show|accept|reject|revert`: adjudication, reviewed by a person."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer
from rich.table import Table
from rich.text import Text

from memgraph_neo4j.cli import remote
from memgraph_neo4j.cli.output import error, missing_space, stdout_console
from memgraph_neo4j.contracts import ConflictStatus

if TYPE_CHECKING:
    from memgraph_neo4j.api import MemoryGraph

app = typer.Typer(help="Conflicting facts: find them, review them, undo a verdict.", no_args_is_help=True)
out = stdout_console()
SPACE = typer.Option("default", help="Memory space")
JSON = typer.Option(False, "--json", help="Machine-readable output")
CONFLICT_ID = typer.Argument(..., help="The conflict's id, or a unique prefix of it (6 characters or more)")
SHORT = 12  # characters of the ids `list` shows: a prefix that the commands taking an id accept


@contextmanager
def _memory(space: str, model: str | None = None, base_url: str | None = None) -> Iterator[MemoryGraph]:
    """The space's MemoryGraph (with a chat model for the agents when --model is given); bad input and
    store errors, a lease lost and a half-deleted space end the command with a one-line message."""
    from memgraph_neo4j.adjudication import ConflictError
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.memory.lease import LeaseLost, SpaceDeleting
    from memgraph_neo4j.store import StoreError

    try:
        chat = None
        if model:
            from memgraph_neo4j.llm import make_chat

            chat = make_chat("openai", model=model, base_url=base_url)
        with MemoryGraph(space=space, extractor="offline", adjudication_chat=chat) as memory:
            if not memory.exists():
                raise ConflictError(missing_space(space))
            yield memory
    except (StoreError, ConflictError, ValueError, LeaseLost, SpaceDeleting) as exc:
        error(exc)
        raise typer.Exit(1) from None


def _remote_detail(space: str, conflict_id: str, action: str | None = None, keep: str | None = None):
    """The conflict (after `action`) from the memory service when MEMGRAPH_SERVICE_URL is set, else None."""
    service = remote.client()
    if service is None:
        return None
    from pydantic import TypeAdapter

    from memgraph_neo4j.repository.conflicts import ConflictDetail
    from memgraph_neo4j.service.client import ServiceError

    try:
        found = service.conflict(space, conflict_id, action, keep)
    except ServiceError as exc:  # a space that holds nothing is said as in process
        remote.fail_unless_exists(service, space, exc)
    return TypeAdapter(ConflictDetail).validate_python(found)


def _print_detail(detail, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(detail), indent=2, default=str))
        return
    out.print(f"conflict {detail.id}  {detail.type}  {detail.status}  (confidence {detail.confidence})",
              highlight=False, markup=False)
    for label, text in (("why", detail.reason), ("verdict", detail.rationale), ("model", detail.model),
                        ("review", detail.review and f"{detail.review} by a person (detection keeps it)")):
        if text:
            out.print(f"  {label}: {text}", highlight=False, markup=False)
    for f in detail.facts:
        proposal = f" -> {f['proposed']}" + (" (applied)" if f["applied"] else "") if f["proposed"] else ""
        out.print(f"  {f['id']}  {f['state']:<10} {f['text']}{proposal}", highlight=False, markup=False)


@app.command()
def scan(space: str = SPACE,
         rescan_all: bool = typer.Option(False, "--all", help="Check every active fact, not only new ones"),
         model: str | None = typer.Option(None, help="Chat model for the agents (default: offline rules)"),
         base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
         as_json: bool = JSON) -> None:
    """Check the facts that became active since the last check for conflicts, and resolve what is clear."""
    from memgraph_neo4j.adjudication import summary

    with _memory(space, model, base_url) as memory:
        report = memory.adjudicate(rescan_all=rescan_all, progress=not as_json)
    typer.echo(report.model_dump_json(indent=2) if as_json else f"{summary(report)} in {report.seconds:.1f}s")


@app.command("list")
def list_conflicts(space: str = SPACE, status: str | None = typer.Option(
                       None, help=" | ".join(ConflictStatus) + " (default: all)"),
                   limit: int = typer.Option(100, min=1, help="At most this many, newest first"),
                   as_json: bool = JSON) -> None:
    """The conflicts of a space, one line per fact, with short ids: `show`, `accept --keep` take them."""
    service = remote.client()
    if service is not None:
        from pydantic import TypeAdapter

        from memgraph_neo4j.repository.conflicts import ConflictSummary

        rows = TypeAdapter(list[ConflictSummary]).validate_python(
            remote.call(lambda: service.conflicts(space, status, limit)))
        if not rows:  # in process, a space that holds nothing is an error
            remote.fail_unless_exists(service, space)
    else:
        with _memory(space) as memory:
            rows = memory.conflicts.list(status, limit)
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(r) for r in rows], indent=2, default=str))
        return
    table = Table(title=f"conflicts in {space!r}")
    for column in ("id", "type", "status", "fact", "text"):
        table.add_column(column, no_wrap=column in ("id", "fact"))
    for r in rows:
        facts = list(zip(r.fact_ids, r.facts, strict=True)) or [("", "")]
        for i, (fact_id, text) in enumerate(facts):
            first = i == 0
            table.add_row(r.id[:SHORT] if first else "", r.type if first else "", r.status if first else "",
                          fact_id[:SHORT], Text(text), end_section=i == len(facts) - 1)
    out.print(table)


@app.command()
def show(conflict_id: str = CONFLICT_ID, space: str = SPACE, as_json: bool = JSON) -> None:
    """One conflict: its facts, their evidence, the verdicts proposed and applied."""
    if (detail := _remote_detail(space, conflict_id)) is not None:
        return _print_detail(detail, as_json)
    with _memory(space) as memory:
        _print_detail(memory.conflicts.show(conflict_id), as_json)


@app.command()
def accept(conflict_id: str = CONFLICT_ID, space: str = SPACE,
           keep: str | None = typer.Option(None, help="Keep this fact (its id or a unique prefix, as `list` shows "
                                                        "them), discard the others"),
           as_json: bool = JSON) -> None:
    """Apply the proposed verdicts, or your own choice with --keep."""
    if (detail := _remote_detail(space, conflict_id, "accept", keep)) is not None:
        return _print_detail(detail, as_json)
    with _memory(space) as memory:
        _print_detail(memory.conflicts.accept(conflict_id, keep), as_json)


@app.command()
def reject(conflict_id: str = CONFLICT_ID, space: str = SPACE, as_json: bool = JSON) -> None:
    """Not a conflict: undo what was applied and dismiss it."""
    if (detail := _remote_detail(space, conflict_id, "reject")) is not None:
        return _print_detail(detail, as_json)
    with _memory(space) as memory:
        _print_detail(memory.conflicts.reject(conflict_id), as_json)


@app.command()
def revert(conflict_id: str = CONFLICT_ID, space: str = SPACE, as_json: bool = JSON) -> None:
    """Restore every fact of the conflict exactly as it was before its verdicts."""
    if (detail := _remote_detail(space, conflict_id, "revert")) is not None:
        return _print_detail(detail, as_json)
    with _memory(space) as memory:
        _print_detail(memory.conflicts.revert(conflict_id), as_json)
