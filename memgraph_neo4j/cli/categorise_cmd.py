"""`memgraph-neo4j categorise` and `categories`: the category hierarchy over a space's entities (Mnemis,
memory/categories.py), built or updated by a chat model (`MemoryGraph.categorise`), and listed
(`MemoryGraph.categories`). System-2 search (`query --mode dual`) walks it."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from memgraph_neo4j.cli.output import fail, missing_space, stdout_console

out = stdout_console()
NO_MODEL = ("categorise needs a chat model: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible "
            "server), or give --base-url or --chat-model")


def _chat(model: str | None, base_url: str | None, chat_model: str | None, default_model: str,
          timeout: float | None = None) -> Any:
    """The chat client the options name, else the environment's; the command ends when there is none.
    `timeout`: seconds per call of an OpenAI-compatible client (--llm-timeout, MEMGRAPH_LLM_TIMEOUT)."""
    from memgraph_neo4j.llm.chat import LangChainChat, OpenAIChat, chat_from_environment

    if chat_model:
        from memgraph_neo4j.cli.memory_cmd import _load_object

        found = _load_object(chat_model)
        return found if hasattr(found, "complete_json") else LangChainChat(found)  # a ChatClient, or langchain's
    if model or base_url:
        return OpenAIChat(model=model or default_model, base_url=base_url, **({"timeout": timeout} if timeout else {}))
    return chat_from_environment(default_model, timeout) or fail(NO_MODEL)


def _hierarchy_json(nodes: list) -> list[dict]:
    return [dataclasses.asdict(n) for n in nodes]


def _print_hierarchy(space: str, nodes: list) -> None:
    if not nodes:
        out.print(f"space {space!r} has no category hierarchy yet: `memgraph-neo4j categorise --space {space}` "
                  "builds it", highlight=False)
        return
    names = {n.id: n.name for n in nodes}
    table = Table(title=Text(f"categories of space {space!r}, top layer first"))
    for column in ("layer", "category", "summary", "members", "parents", "id"):
        table.add_column(column)
    for n in nodes:
        members = (", ".join(names[m] for m in n.members if m in names) if n.layer > 1
                   else f"{len(n.members)} entities")
        table.add_row(str(n.layer), Text(n.name), Text(n.summary or ""), Text(members),
                      Text(", ".join(names.get(p, p) for p in n.parents)), Text(n.id))
    out.print(table)


def categorise(
    space: str = typer.Option("default", help="Memory space"),
    rebuild: bool = typer.Option(False, "--rebuild", help="Build the hierarchy anew (default: the first run "
                                 "builds it, later runs place the entities in no category yet)"),
    model: str | None = typer.Option(None, help="Chat model (default MEMGRAPH_LLM_MODEL)"),
    base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
    chat_model: str | None = typer.Option(None, help="package.module:object: a langchain-core chat model, a chat "
                                                     "client (llm.ChatClient) or a factory of one"),
    llm_timeout: float | None = typer.Option(None, "--llm-timeout", min=0.001, help="Seconds the chat model may "
                                             "take per call (default MEMGRAPH_LLM_TIMEOUT, else the client's)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Group the space's entities into categories, layer by layer, with a chat model (System-2's hierarchy)."""
    import openai

    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.memory.lease import LeaseLost, SpaceDeleting
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            memory = MemoryGraph(space=space, store=store, embedder=None, adjudication=False)  # no embedding
            if not memory.exists():
                fail(missing_space(space))
            chat = _chat(model, base_url, chat_model, memory.settings.llm_model,
                         llm_timeout or memory.settings.llm_timeout)
            report = memory.categorise(chat=chat, rebuild=rebuild)
            nodes = memory.categories()
    except TimeoutError as exc:
        fail(f"categorise: {exc}: give the model more time with --llm-timeout")
    except (StoreError, ValueError, openai.OpenAIError, LeaseLost, SpaceDeleting) as exc:
        fail(f"categorise: {exc}")
    if as_json:
        data = dataclasses.asdict(report) | {"usage": report.usage.model_dump(), "categories": _hierarchy_json(nodes)}
        typer.echo(json.dumps(data, indent=2, default=str))
        return
    out.print(f"category hierarchy of space {space!r}, revision {report.revision}: {report.layers} layers, "
              f"{report.categories_new} new categories, {report.categories_touched} changed; "
              f"{report.entities_placed} entities placed, {report.entities_left} left for the next update; "
              f"{report.calls} model calls, {report.usage.prompt_tokens + report.usage.completion_tokens} tokens",
              highlight=False)
    _print_hierarchy(space, nodes)


def categories(space: str = typer.Option("default", help="Memory space"),
               as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """The category hierarchy of a space, top layer first (built by `categorise`)."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            memory = MemoryGraph(space=space, store=store, embedder=None)
            if not memory.exists():
                fail(missing_space(space))
            nodes = memory.categories()
    except StoreError as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps(_hierarchy_json(nodes), indent=2, default=str))
        return
    _print_hierarchy(space, nodes)
