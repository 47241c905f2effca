"""`memgraph-neo4j query`: retrieval from one memory space."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from memgraph_neo4j.cli import remote
from memgraph_neo4j.cli.driver import import_driver
from memgraph_neo4j.cli.embedder import BackgroundEmbedder, minilm
from memgraph_neo4j.cli.output import error, fail, missing_space, stdout_console
from memgraph_neo4j.validation import check_top_k

if TYPE_CHECKING:
    from memgraph_neo4j.api import MemoryGraph

out = stdout_console(emoji=False)  # passage text is data, not ":emoji:" codes (and their table cost ~10 ms of imports)


ENGINE_HELP = "gds | local | client (default MEMGRAPH_PPR_ENGINE, else gds for one question)"
LAYERS_HELP = ("index | local: top-K from the Neo4j indexes or exact in process (default MEMGRAPH_LAYER_SEARCH, "
               "else index for one question)")
# One question per process: the in-process copies (layers, projection, BM25) that make a long-lived
# MemoryGraph fast cost more to read than they save; the server-side engines answer at once.
ONE_SHOT = {"ppr_engine": "gds", "layer_search": "index"}


@contextmanager
def _memory(space: str, ppr_engine: str | None, layer_search: str | None) -> Iterator[MemoryGraph]:
    """The space's MemoryGraph; store errors and bad input end the command with a one-line message."""
    with minilm() as embedder, _memory_of(embedder, space, ppr_engine, layer_search) as memory:
        yield memory


@contextmanager
def _memory_of(embedder: BackgroundEmbedder, space: str, ppr_engine: str | None,
               layer_search: str | None) -> Iterator[MemoryGraph]:
    import_driver()
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.store import StoreError

    try:
        settings = Settings()
        # One question per process: the seed statistics of its hits in one read, not the snapshot of the
        # whole space's mentions that a long-lived process reads once and reuses (same numbers).
        chosen = {k: v for k, v in ONE_SHOT.items() if k not in settings.explicit}
        chosen.update({k: v for k, v in (("ppr_engine", ppr_engine), ("layer_search", layer_search)) if v})
        config = settings.retrieval_config(**chosen, snapshot_max_mentions=0)
        with MemoryGraph(space=space, embedder=embedder, extractor="offline", settings=settings,
                         retrieval=config) as memory:
            if not memory.exists():
                raise ValueError(missing_space(space))
            yield memory
    except (StoreError, ValueError) as exc:
        error(exc)
        raise typer.Exit(1) from None


def _top_k(value: int) -> int:
    """The API's check (validation.py) as a usage error, before Neo4j is asked anything."""
    try:
        check_top_k(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return value


METHOD_HELP = ("dense | bm25 | hipporag2 | memgraphrag; conversation memory: hybrid | hybrid-expand | "
               "hybrid-context | hybrid-ppr (System-1) | dual (System-1 + System-2, needs a chat model)")


def query(text: str = typer.Argument(..., help="The question"),
          space: str = typer.Option("default", help="Memory space"),
          method: str = typer.Option("memgraphrag", help=METHOD_HELP),
          mode: str | None = typer.Option(None, help="dual | system1: conversation memory's routes (overrides "
                                                     "--method; dual asks the MEMGRAPH_LLM_MODEL chat model)"),
          top_k: int = typer.Option(5, "--top-k", callback=_top_k, help="Passages to return"),
          ppr_engine: str | None = typer.Option(None, "--ppr-engine", help=ENGINE_HELP),
          layer_search: str | None = typer.Option(None, "--layer-search", help=LAYERS_HELP),
          as_of: str | None = typer.Option(None, "--as-of", help="Facts valid then ('1977', '2024-03-01'); "
                                                               "hybrid and dual methods"),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Retrieve passages (with the facts, schemas and entities that seeded them)."""
    service = remote.client()
    if service is not None:  # the memory service answers (what cli/entry.py does not take lean)
        remote.refuse({"--ppr-engine": ppr_engine, "--layer-search": layer_search}, service.url)
        from memgraph_neo4j.retrieval.base import RetrievalResult

        options = {"method": method, "top_k": top_k, "as_of": as_of, "mode": mode}
        found = remote.call(lambda: service.search(space, text, **{k: v for k, v in options.items() if v is not None}))
        labels = found.pop("labels", [])
        _print_result(RetrievalResult.model_validate(found), labels, as_json)
        return
    with _memory(space, ppr_engine, layer_search) as memory:
        result = memory.search(text, method=method, top_k=top_k, mode=mode, as_of=as_of)
    _print_result(result, [hit.matched(text).label() or hit.id for hit in result.passages], as_json)


def _print_result(result, labels: list[str], as_json: bool) -> None:
    """A search's result; `labels`: each passage's, where the words asked about lie (Hit.matched)."""
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    for i, (hit, label) in enumerate(zip(result.passages, labels, strict=True), 1):
        out.print(f"[bold]{i}. {escape(label)}[/bold]  score {hit.score:.4f}  ({hit.id})", highlight=False)
        out.print((hit.text or "")[:300], highlight=False)
    if result.facts:
        out.print("seed facts: " + "; ".join(f"{f.text} ({f.score:.2f})" for f in result.facts), highlight=False)
    if result.entities:
        out.print("top entities: " + ", ".join(e.name or e.id for e in result.entities), highlight=False)
    out.print("timings (ms): " + ", ".join(f"{k} {v}" for k, v in result.timings_ms.items()) +
              (" [dense fallback]" if result.fallback else ""), markup=False)  # "[...]" is Rich markup


def ask(text: str = typer.Argument(..., help="The question"),
        space: str = typer.Option("default", help="Memory space"),
        method: str = typer.Option("memgraphrag", help="dense | bm25 | hipporag2 | memgraphrag"),
        top_k: int = typer.Option(5, "--top-k", callback=_top_k, help="Passages in the context"),
        ppr_engine: str | None = typer.Option(None, "--ppr-engine", help=ENGINE_HELP),
        layer_search: str | None = typer.Option(None, "--layer-search", help=LAYERS_HELP),
        model: str | None = typer.Option(None, help="Chat model (default MEMGRAPH_LLM_MODEL)"),
        base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
        llm_timeout: float | None = typer.Option(None, "--llm-timeout", min=0.001, help="Seconds the chat model "
                                                 "has to answer (default MEMGRAPH_LLM_TIMEOUT, else 60)"),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Answer a question from the memory, citing passages: with a chat model (--model/--base-url, or
    OPENAI_API_KEY/OPENAI_BASE_URL), else extractively, quoting the sentences that answer it."""
    service = remote.client()
    if service is not None:  # the memory service answers, with its chat model if it has one
        remote.refuse({"--ppr-engine": ppr_engine, "--layer-search": layer_search, "--model": model,
                       "--base-url": base_url, "--llm-timeout": llm_timeout}, service.url)
        from memgraph_neo4j.retrieval.answer import Answer

        found = remote.call(lambda: service.ask(space, text, method=method, top_k=top_k))
        labels = found.pop("labels", [])
        answer = Answer.model_validate(found)
        if answer.extractive:
            typer.echo(NO_MODEL.replace("(--model/--base-url, or OPENAI_API_KEY / OPENAI_BASE_URL)",
                                        f"at the memory service {service.url}"), err=True)
        _print_answer(answer, dict(zip([h.id for h in answer.evidence.passages], labels, strict=False)), as_json)
        return
    import openai

    from memgraph_neo4j.llm import OpenAIChat, price_for
    from memgraph_neo4j.llm.chat import chat_from_environment

    with _memory(space, ppr_engine, layer_search) as memory:
        timeout = llm_timeout or memory.settings.llm_timeout
        chat_model = model or memory.settings.llm_model
        if model or base_url:  # a model asked for: its failure is an error, not an extractive answer
            chat = OpenAIChat(model=chat_model, base_url=base_url, price=price_for(chat_model),
                              **({"timeout": timeout} if timeout else {}))
        else:
            chat = chat_from_environment(chat_model, timeout)
        if chat is None:  # as MemoryGraph.ask: no chat model configured
            typer.echo(NO_MODEL, err=True)
            answer = memory.answer_extractive(text, method=method, top_k=top_k)
        else:
            try:
                answer = memory.ask(text, chat=chat, method=method, top_k=top_k)
            except (openai.OpenAIError, TimeoutError) as exc:
                where = base_url or "OPENAI_BASE_URL / api.openai.com"
                fail(f"chat model {chat_model!r} at {where}: {exc} (set --model/--base-url, or OPENAI_API_KEY)")
    _print_answer(answer, {h.id: h.matched(text).label() for h in answer.evidence.passages}, as_json)


NO_MODEL = ("note: no chat model (--model/--base-url, or OPENAI_API_KEY / OPENAI_BASE_URL): answered extractively, "
            "quoting the passages")


def _print_answer(answer, labels: dict[str, str], as_json: bool) -> None:
    """An answer and the passages it cites; `labels`: each passage's, at the words asked about (Hit.matched)."""
    if as_json:
        typer.echo(answer.model_dump_json(indent=2))
        return
    out.print(answer.answer, highlight=False)
    for pid in answer.cited_passage_ids:
        hit = next(h for h in answer.evidence.passages if h.id == pid)
        out.print(f"  [{labels.get(pid) or pid}] {(hit.text or '')[:160]}", highlight=False, markup=False)
