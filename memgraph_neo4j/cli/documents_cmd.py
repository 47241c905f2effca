"""`memgraph-neo4j documents list|delete`: the documents of a memory space; delete retracts them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

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
    targets = with_store(lambda store: _resolve(store, space, doc_ids))
    if not yes:
        listed = "\n".join(f"  {i}  {title or ''}" for i, title in targets)
        typer.confirm(f"retract {len(targets)} document(s) from memory space {space!r}?\n{listed}\n", abort=True)
    try:
        with MemoryGraph(space=space, ontology=ontology, embedder=None, extractor="offline") as memory:
            report = memory.retract([i for i, _ in targets])  # waits for an ingest of the space (stderr)
    except (StoreError, ValueError, LeaseLost, SpaceDeleting) as exc:
        error(exc)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(f"retracted {report.documents} documents ({report.passages} passages) from {space!r}: "
               f"{report.facts_retracted} facts retracted, {report.schemas_demoted} schemas back to candidate "
               f"({report.facts_deactivated} facts pending again), {report.conflicts_obsolete} conflicts obsolete, "
               f"{report.entities_deleted} entities deleted; memory version {report.version}")
    checked(report.adjudication, "conflicts checked again")
