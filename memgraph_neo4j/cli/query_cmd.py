"""`memgraph-neo4j query`: retrieval from one memory space."""

from __future__ import annotations

import typer
from rich.console import Console

from memgraph_neo4j.store import StoreError

out = Console()
err = Console(stderr=True)


def _retrieval_config(ppr_engine: str | None):
    """None keeps the settings' default; a bad engine name is reported like any other bad input."""
    from memgraph_neo4j.retrieval.engine import RetrievalConfig
    from memgraph_neo4j.settings import Settings

    return RetrievalConfig(ppr_engine=ppr_engine or Settings().ppr_engine)


def query(text: str = typer.Argument(..., help="The question"),
          space: str = typer.Option("default", help="Memory space"),
          method: str = typer.Option("memgraphrag", help="dense | bm25 | hipporag2 | memgraphrag"),
          top_k: int = typer.Option(5, "--top-k", help="Passages to return"),
          ppr_engine: str | None = typer.Option(None, "--ppr-engine",
                                                help="gds | local | client (default MEMGRAPH_PPR_ENGINE, else gds)"),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Retrieve passages (with the facts, schemas and entities that seeded them)."""
    from memgraph_neo4j.graph import MemoryGraph

    try:
        with MemoryGraph(space=space, extractor="offline", retrieval=_retrieval_config(ppr_engine)) as memory:
            result = memory.search(text, method=method, top_k=top_k)
    except (StoreError, ValueError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(1)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    for i, hit in enumerate(result.passages, 1):
        out.print(f"[bold]{i}. {hit.name or hit.id}[/bold]  score {hit.score:.4f}  ({hit.id})", highlight=False)
        out.print((hit.text or "")[:300], highlight=False)
    if result.facts:
        out.print("seed facts: " + "; ".join(f"{f.text} ({f.score:.2f})" for f in result.facts), highlight=False)
    if result.entities:
        out.print("top entities: " + ", ".join(e.name or e.id for e in result.entities), highlight=False)
    out.print("timings (ms): " + ", ".join(f"{k} {v}" for k, v in result.timings_ms.items()) +
              (" [dense fallback]" if result.fallback else ""))


def ask(text: str = typer.Argument(..., help="The question"),
        space: str = typer.Option("default", help="Memory space"),
        method: str = typer.Option("memgraphrag", help="dense | bm25 | hipporag2 | memgraphrag"),
        top_k: int = typer.Option(5, "--top-k", help="Passages in the context"),
        ppr_engine: str | None = typer.Option(None, "--ppr-engine",
                                              help="gds | local | client (default MEMGRAPH_PPR_ENGINE, else gds)"),
        model: str | None = typer.Option(None, help="Chat model (default MEMGRAPH_LLM_MODEL)"),
        base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Answer a question from the memory, citing passages."""
    from memgraph_neo4j.graph import MemoryGraph
    from memgraph_neo4j.llm.chat import OpenAIChat

    try:
        with MemoryGraph(space=space, extractor="offline", retrieval=_retrieval_config(ppr_engine)) as memory:
            chat = OpenAIChat(model=model or memory.settings.llm_model, base_url=base_url)
            answer = memory.ask(text, chat=chat, method=method, top_k=top_k)
    except (StoreError, ValueError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(1)
    if as_json:
        typer.echo(answer.model_dump_json(indent=2))
        return
    out.print(answer.answer, highlight=False)
    for pid in answer.cited_passage_ids:
        hit = next(h for h in answer.evidence.passages if h.id == pid)
        out.print(f"  [{hit.name or pid}] {(hit.text or '')[:160]}", highlight=False)
