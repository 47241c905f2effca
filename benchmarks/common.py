"""Helpers the benchmark scripts share: data paths, cold starts, result tables (percentiles: evaluation.metrics)."""

from __future__ import annotations

from pathlib import Path

from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.repository.projections import ProjectionRepository
from memgraph_neo4j.retrieval.projection import space_prefix
from memgraph_neo4j.store import GraphStore

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
MUSIQUE = ROOT.parent / "shared" / "data" / "musique_train"


def drop_projections(store: GraphStore, space: str) -> None:
    """Every GDS projection of the space, so that the next query measures a cold start."""
    projections = ProjectionRepository(store, space)
    for graph in LayerRepository(store, space).state(space_prefix(space)).graphs:
        projections.drop(graph)


def write_table(path: Path | None, header: list[str], rows: list[list[object]]) -> str:
    """A Markdown table to `path` (None: only returned), and returned, for printing."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join("" if cell is None else str(cell) for cell in row) + " |" for row in rows]
    text = "\n".join(lines) + "\n"
    if path is not None:
        path.write_text(text)
    return text
