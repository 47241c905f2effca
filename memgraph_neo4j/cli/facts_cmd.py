"""`memgraph-neo4j facts`: the facts of one space valid at a time (`MemoryGraph.facts`), and `provenance`: where
one fact comes from (`MemoryGraph.provenance`, MCP `get_provenance`)."""

from __future__ import annotations

import dataclasses
import json

import typer
from rich.table import Table
from rich.text import Text

from memgraph_neo4j.cli.output import fail, missing_space, stdout_console

out = stdout_console()


def _day(value) -> str:
    return "" if value is None else value.date().isoformat()


def facts(
    space: str = typer.Option("default", help="Memory space"),
    as_of: str | None = typer.Option(None, "--as-of", help="A date or time ('1977', 'May 1979', '2024-03-01'); "
                                                         "default: the facts valid now"),
    relation: str | None = typer.Option(None, help="Only this relation (e.g. headquartered_in)"),
    entity: list[str] = typer.Option([], "--entity", help="Only facts about this entity (its name or an alias; "
                                                          "repeat for several)"),
    limit: int = typer.Option(1000, min=1, help="At most this many facts"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Facts valid at a time, from documents and conversations: valid_at <= as-of < invalid_at."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            memory = MemoryGraph(space=space, store=store, embedder=None)  # no embedding: a listing
            if not memory.exists():
                fail(missing_space(space))
            ids = memory.entity_ids(entity) if entity else {}
            unknown = [name for name, found_id in ids.items() if found_id is None]
            if unknown:
                fail(f"--entity {unknown[0]!r}: no entity of that name in space {space!r}; "
                     f"`memgraph-neo4j query {unknown[0]!r} --space {space}` finds names near it")
            found = memory.facts(as_of=as_of, relation=relation, limit=limit,
                                 entity_ids=sorted(set(ids.values())) if entity else None)
    except (StoreError, ValueError) as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(f) for f in found], indent=2, default=str))
        return
    title = f"facts of space {space!r}" + (f" as of {as_of}" if as_of else " valid now")
    table = Table(title=Text(title))
    for column in ("fact", "valid from", "invalid from", "id"):
        table.add_column(column)
    for f in found:
        table.add_row(Text(f.text), Text(_day(f.valid_at)), Text(_day(f.invalid_at)), Text(f.id))
    out.print(table)


def provenance(
    fact_id: str = typer.Argument(..., help="The fact's id or a unique prefix of it (6+ characters)"),
    space: str = typer.Option("default", help="Memory space"),
    passages: int = typer.Option(20, min=1, help="At most this many evidence passages"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Where a fact comes from: its evidence passages and documents, schema, state, lineage and conflicts."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            memory = MemoryGraph(space=space, store=store, embedder=None)
            if not memory.exists():
                fail(missing_space(space))
            found = memory.provenance(fact_id, passages=passages)
    except (StoreError, ValueError) as exc:  # ValueError: validation.SurfaceError too, worded for the CLI
        fail(exc)
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(found), indent=2, default=str))
        return
    out.print(Text(f"{found.text}  [{found.state}]  (fact {found.id})"))
    if found.schema:
        s = found.schema
        out.print(Text(f"schema: {s.get('head_type')} {s.get('relation')} {s.get('tail_type')} "
                       f"[{s.get('state')}, support {s.get('frequency')}]"))
    for role in found.entities:
        out.print(Text(f"{role.get('role')}: {role.get('name')} ({role.get('type')}, entity {role.get('id')})"))
    if found.qualifiers:
        out.print(Text("qualifiers: " + ", ".join(f"{k} {v}" for k, v in found.qualifiers.items())))
    out.print(Text("lineage: " + ", ".join(f"{k} {v}" for k, v in found.lineage.items() if v is not None)))
    out.print(Text(f"evidence ({len(found.evidence)} of {found.evidence_count} passages):"))
    for e in found.evidence:
        text = " ".join((e.text or "").split())
        out.print(Text(f"  [{e.doc_title or e.doc_id}] (passage {e.passage_id}): "
                       f"{text[:300] + '…' if len(text) > 300 else text}"))
    for c in found.conflicts:
        out.print(Text(f"conflict {c.get('id')}: {c.get('type')}, {c.get('status')}; verdict for this fact "
                       f"{c.get('proposed')}{' (applied)' if c.get('applied') else ''}"))
