"""`memgraph-neo4j documents list|delete`: the documents of a memory space; delete retracts them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from memgraph_neo4j.cli import remote
from memgraph_neo4j.cli.output import checked, error, fail, missing_space, space_names, stdout_console
from memgraph_neo4j.cli.spaces_cmd import with_store

app = typer.Typer(help="Documents of a memory space: list them, retract some.", no_args_is_help=True)
out = stdout_console()
SPACE = typer.Option("default", help="Memory space")
JSON = typer.Option(False, "--json", help="Machine-readable output")


@app.command("list")
def list_command(space: str = SPACE,
                 limit: int = typer.Option(100, min=0, help="Documents to show, in ingest order (0: all)"),
                 as_json: bool = JSON) -> None:
    """Id, title, source, passages, facts their passages evidence, and when each was ingested."""
    from memgraph_neo4j.repository.documents import DocumentRepository

    def read(store: Any) -> tuple[int, list, list[str] | None]:
        total, docs = DocumentRepository(store, space).list(limit or None)
        return total, docs, space_names(store) if total == 0 else None

    service = remote.client()
    if service is not None:
        total, docs = _remote_list(service, space, limit)
    else:
        total, docs, names = with_store(read)
        if total == 0:
            fail(missing_space(space, names))
    if as_json:
        typer.echo(json.dumps({"space": space, "total": total, "documents": [dataclasses.asdict(d) for d in docs]},
                              indent=2))
        return
    table = Table(title=f"documents of memory space {space!r}")
    for column in ("id", "title", "source", "passages", "facts", "ingested at"):
        table.add_column(column, justify="right" if column in ("passages", "facts") else "left",
                         overflow="fold")
    for d in docs:
        table.add_row(d.id, d.title or "", d.source or "", str(d.passages), str(d.facts),
                      (d.ingested_at or "")[:19])
    out.print(table)
    if total > len(docs):
        typer.echo(f"{total - len(docs)} more: --limit 0 lists all {total}")


def _remote_list(service: Any, space: str, limit: int) -> tuple[int, list]:
    """(documents in the space, the first `limit` of them; 0: all) from the memory service."""
    from pydantic import TypeAdapter

    from memgraph_neo4j.repository.documents import DocumentSummary

    found = remote.call(lambda: service.documents(space, limit + 1 if limit else None))
    docs = TypeAdapter(list[DocumentSummary]).validate_python(found)
    if not docs:
        fail(remote.missing_space(service, space))
    if limit and len(docs) > limit:  # more than shown: the space's count says how many (a listing of spaces)
        return remote.spaces(service)[space]["documents"], docs[:limit]
    return len(docs), docs


def _remote_targets(service: Any, space: str, given: list[str]) -> list[tuple[str, str | None]]:
    """_resolve through the memory service: the ids picked among the space's documents by the same rule."""
    from memgraph_neo4j.repository.ids import Candidate, IdError, pick

    docs = remote.call(lambda: service.documents(space))
    if not docs:
        fail(remote.missing_space(service, space))
    found = {}
    try:
        for g in given:
            matches = [Candidate(d["id"], d["title"]) for d in docs if d["id"].startswith(g)]
            named = pick("document", g, sorted(matches, key=lambda c: c.id), f"space {space!r}", space=space)
            found[named] = next(c.label for c in matches if c.id == named)
    except IdError as exc:
        fail(exc)
    return list(found.items())


def _resolve(store: Any, space: str, given: list[str]) -> list[tuple[str, str | None]]:
    """Each given id or unique prefix -> (id, title); an unknown or ambiguous one ends the command."""
    from memgraph_neo4j.repository.documents import DocumentRepository
    from memgraph_neo4j.repository.ids import IdError, IdRepository

    if DocumentRepository(store, space).count() == 0:
        fail(missing_space(space, space_names(store)))
    try:
        found = IdRepository(store, space).resolve_all("document", given)
    except IdError as exc:
        fail(exc)
    return list({c.id: c.label for c in found.values()}.items())


@app.command("delete")
def delete_command(doc_ids: list[str] = typer.Argument(..., help="Document ids, or unique prefixes of them"),
                   space: str = SPACE,
                   ontology: Path | None = typer.Option(None, help="The ontology the space was built with "
                                                                   "(its promotion bar; default: the bundled one)"),
                   yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation"),
                   as_json: bool = JSON) -> None:
    """Retract documents: their passages go, facts left without evidence become `retracted` (kept),
    schemas below the promotion bar go back to candidate, conflicts of retracted facts become
    obsolete and are checked again, entities nothing grounds any more go. Ingesting the same
    documents again restores them."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.memory.lease import LeaseLost, SpaceDeleting
    from memgraph_neo4j.store import StoreError

    if ontology is not None and not ontology.exists():
        fail(f"--ontology {ontology}: no such file")
    service = remote.client()
    if service is not None:
        remote.refuse({"--ontology": ontology}, service.url)
        targets = [] if yes else _remote_targets(service, space, doc_ids)  # --yes: the service resolves them
    else:
        targets = with_store(lambda store: _resolve(store, space, doc_ids))
    if not yes:
        listed = "\n".join(f"  {i}  {title or ''}" for i, title in targets)
        typer.confirm(f"retract {len(targets)} document(s) from memory space {space!r}?\n{listed}\n", abort=True)
    if service is not None:
        from memgraph_neo4j.memory.retract import RetractionReport
        from memgraph_neo4j.service.client import ServiceError

        try:
            report = RetractionReport.model_validate(service.retract(space, [i for i, _ in targets] or doc_ids))
        except ServiceError as exc:  # a space that holds nothing is said as in process
            remote.fail_unless_exists(service, space, exc)
        return _print_retraction(report, space, as_json)
    try:
        with MemoryGraph(space=space, ontology=ontology, embedder=None, extractor="offline") as memory:
            report = memory.retract([i for i, _ in targets])  # waits for an ingest of the space (stderr)
    except (StoreError, ValueError, LeaseLost, SpaceDeleting) as exc:
        error(exc)
        raise typer.Exit(1) from None
    _print_retraction(report, space, as_json)


def _print_retraction(report: Any, space: str, as_json: bool) -> None:
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(f"retracted {report.documents} documents ({report.passages} passages) from {space!r}: "
               f"{report.facts_retracted} facts retracted, {report.schemas_demoted} schemas back to candidate "
               f"({report.facts_deactivated} facts pending again), {report.conflicts_obsolete} conflicts obsolete, "
               f"{report.entities_deleted} entities deleted; memory version {report.version}")
    checked(report.adjudication, "conflicts checked again")
