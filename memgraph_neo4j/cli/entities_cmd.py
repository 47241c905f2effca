"""`memgraph-neo4j entities unmerge`: undo a similarity merge of entity resolution (memory/unmerge.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from memgraph_neo4j.cli.output import checked, error, fail

app = typer.Typer(help="Entities of a memory space: undo a merge of entity resolution.", no_args_is_help=True)


@app.command("unmerge")
def unmerge_command(name: str = typer.Argument(..., help="The merged name (`analytics entity_merges` lists them)"),
                    space: str = typer.Option("default", help="Memory space"),
                    ontology: Path | None = typer.Option(None, help="The ontology the space was built with "
                                                                    "(its promotion bar; default: the bundled one)"),
                    as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Give a name merged into an entity by similarity its own entity again, as if the merge had never been
    made: its mentions and the facts stated by it move there (facts left without evidence are retracted),
    and later mentions of the name resolve to it."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.memory.lease import LeaseLost, SpaceDeleting
    from memgraph_neo4j.store import StoreError

    if ontology is not None and not ontology.exists():
        fail(f"--ontology {ontology}: no such file")
    try:
        # the embedder ingest uses: the new entity and facts are embedded as a new name's would be
        with MemoryGraph(space=space, ontology=ontology, extractor="offline") as memory:
            report = memory.unmerge(name)  # waits for an ingest of the space (stderr)
    except (StoreError, ValueError, LeaseLost, SpaceDeleting) as exc:
        error(exc)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    if report.finished:
        typer.echo(f"{name!r} was unmerged already: finished the remaining steps; memory version {report.version}")
        return
    typer.echo(f"unmerged {name!r} from {report.joined!r} in {space!r}: its own entity {report.entity!r} "
               f"({report.entity_id}) with {report.mentions_moved} passages, {report.facts_made} facts made again "
               f"({report.retraction.facts_retracted} old ones retracted), {report.bridges} similarity edges; "
               f"memory version {report.version}")
    checked(report.adjudication)
