"""`memgraph-neo4j eval` (retrieval, QA and graph health on a dataset) and `memgraph-neo4j health`."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import typer

from memgraph_neo4j.cli.output import fail, read_space, stdout_console

out = stdout_console()


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


# the choices come from the retriever registry when --methods is read (importing it here would load
# retrieval at every command's start-up)
METHODS_HELP = ("Comma-separated methods: any that query --method takes (dual needs --model). Default: dense, bm25, "
                "hipporag2, memgraphrag; for LoCoMo dense, bm25 and the hybrid methods")


def eval_command(
    dataset: Path = typer.Option(..., "--dataset", help="A dataset folder (HippoRAG layout, GraphRAG-Bench), JSONL, "
                                 "or LoCoMo (locomo10.zip, locomo10.json: one space per conversation)"),
    space: str | None = typer.Option(None, help="Memory space (default: the dataset's folder name; LoCoMo: "
                                     "SPACE_<conversation> each)"),
    methods: str | None = typer.Option(None, help=METHODS_HELP),
    ablations: str = typer.Option("", help="Comma-separated memgraphrag ablations, e.g. paper,no-adjudication,"
                                  "reference-engines"),
    limit: int | None = typer.Option(None, min=1, help="Only the first N questions"),
    out_dir: Path | None = typer.Option(None, "--out", help="Report folder (default: eval-<space>)"),
    extractor: str = typer.Option("offline", help="Extractor for the build when the dataset has no OpenIE file"),
    model: str | None = typer.Option(None, help="Chat model for QA metrics (answers and LLM judge) and for the dual "
                                     "method's category selection (the spaces are categorised first)"),
    base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
    health: bool = typer.Option(True, "--health/--no-health", help="Graph-health metrics in the report"),
    as_json: bool = typer.Option(False, "--json", help="Print the whole report as JSON on stdout"),
) -> None:
    """Build the space from the dataset if needed, evaluate every method and ablation on it in one run,
    and write report.json, report.md and PNG plots."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.evaluation.datasets import DatasetError, load_dataset
    from memgraph_neo4j.evaluation.report import markdown, write_report
    from memgraph_neo4j.evaluation.runner import evaluate
    from memgraph_neo4j.evaluation.variants import CONVERSATION_METHODS, DEFAULT_METHODS, NEEDS_CHAT, variants
    from memgraph_neo4j.store import StoreError

    try:
        chosen = variants(_names(methods or ""), _names(ablations))
        if methods is not None and not chosen:
            fail("--methods and --ablations name nothing to evaluate")
        if not model and (needing := [v.key for v in chosen if v.method in NEEDS_CHAT]):
            fail(f"--methods {','.join(needing)} needs a chat model (System-2 selects categories with it): give "
                 "--model (and --base-url for a local server), or leave it out")
        data = load_dataset(dataset, limit=limit)
        if methods is None:
            chosen = variants(list(CONVERSATION_METHODS if data.conversations else DEFAULT_METHODS), []) + chosen
        space = space or re.sub(r"[^A-Za-z0-9_-]", "_", data.name)
        chat = None
        if model:
            from memgraph_neo4j.llm import make_chat

            chat = make_chat("openai", model=model, base_url=base_url)
        with MemoryGraph(space=space, extractor=extractor) as memory:
            report = evaluate(memory, data, chosen, chat=chat, health=health, progress=not as_json)
    except (DatasetError, StoreError, ValueError) as exc:
        fail(str(exc))
    files = write_report(report, out_dir or Path(f"eval-{space}"))
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(markdown(report))
    out.print("written: " + ", ".join(str(f) for f in files), highlight=False, markup=False)


def health_command(space: str = typer.Option("default", help="Memory space"),
                   as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Graph health of a space: degree, clustering, components, orphans, duplicates, schemas, conflicts."""
    from memgraph_neo4j.evaluation.health import graph_health
    from memgraph_neo4j.evaluation.report import health_lines

    result = read_space(space, lambda store: dataclasses.asdict(graph_health(store, space)))
    if as_json:
        typer.echo(json.dumps(result, indent=2, default=str))
        return
    out.print(f"graph health of space {space!r}", highlight=False)
    out.print("\n".join(health_lines(result)), highlight=False, markup=False)
