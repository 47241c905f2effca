"""`memgraph-neo4j export`: a memory space's nodes and relationships as JSON lines or GraphML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from memgraph_neo4j.cli.output import fail, missing_space, space_names
from memgraph_neo4j.cli.spaces_cmd import with_store


def export(space: str = typer.Option("default", help="Memory space"),
           format: str = typer.Option("jsonl", "--format", help="jsonl | graphml"),
           out: Path = typer.Option(..., "--out", help="The file to write (replaced when complete; a symlink: its "
                                                        "target; a device or pipe: written through)"),
           with_embeddings: bool = typer.Option(False, "--with-embeddings", help="Include the embedding vectors"),
           as_json: bool = typer.Option(False, "--json", help="Print the report as JSON")) -> None:
    """Export a space, streamed: JSON lines (one object per node, then per relationship) or GraphML
    (Gephi, yEd, networkx). Embedding vectors are left out unless --with-embeddings."""
    from memgraph_neo4j.repository.export import FORMATS, ExportRepository

    if format not in FORMATS:
        raise typer.BadParameter(f"{format!r}: use one of {', '.join(FORMATS)}", param_hint="--format")
    if out.is_dir():
        fail(f"--out {out}: is a folder; give a file name")

    def run(store: Any):
        names = space_names(store)
        if names is not None and space not in names:
            fail(missing_space(space, names))
        return ExportRepository(store, space).export(out, format, with_embeddings)

    try:
        report = with_store(run)
    except OSError as exc:
        fail(f"--out {out}: {exc.strerror or exc}")
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(f"exported {report.nodes} nodes and {report.relationships} relationships of memory space "
               f"{space!r} to {report.path} ({report.format}, {report.bytes / 1e6:.1f} MB, {report.seconds:.1f}s)")
