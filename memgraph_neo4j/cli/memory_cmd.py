"""`memgraph-neo4j ingest` and `memgraph-neo4j stats`."""

from __future__ import annotations

import importlib
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.table import Table

from memgraph_neo4j.cli import conversation_cmd as chat
from memgraph_neo4j.cli import remote
from memgraph_neo4j.cli.output import fail, read_space, stdout_console, warning

out = stdout_console()
EXIT_PARTIAL = 3  # some chunks failed or the budget stopped the run (docs/guides/ingest.md: Exit codes)
# " 401": the status as a message gives it ("Error code: 401"), not a port such as 127.0.0.1:38401
HINTS = ((" 401", "check OPENAI_API_KEY"), ("AuthenticationError", "check OPENAI_API_KEY"),
         ("PermissionDeniedError", "check OPENAI_API_KEY"), ("not OpenAI-compatible", "check --base-url"),
         ("NotFoundError", "check --base-url and --model"), ("APIConnectionError", "check --base-url"),
         ("TimeoutError", "check --base-url, or give the model more time with --llm-timeout"))
# the summary line starts with why the run ended (IngestReport.stopped)
STOPPED = {"done": "done", "budget": "stopped by the budget", "failures": "ended with failed chunks",
           "interrupted": "interrupted"}
RESUME = "run the same ingest again to resume: the batches written are kept and skipped"


def failure_line(report, endpoint: str | None) -> str | None:
    """One line on the chunks that failed and why (the first cause, with what to do); None if none did."""
    if not report.failed:
        return None
    cause = next(iter(report.failed_causes), "unknown error")
    hint = next((h for needle, h in HINTS if needle in cause),
                "run the ingest again (failed chunks are retried); `memgraph-neo4j stats` lists them")
    where = f" from {endpoint}" if endpoint else ""
    return (f"{report.failed} of {report.extracted + report.failed} chunks failed: {' '.join(cause.split())[:240]}"
            f"{where}: {hint}")


def _endpoint(extractor) -> str | None:
    client = getattr(getattr(extractor, "chat", None), "_client", None)
    return str(client.base_url) if client is not None else None


def _finish(report, endpoint: str | None, signum: int | None = None) -> None:
    """The exit code: 128 + the signal when interrupted, 1 when chunks failed and none was extracted, 3 when
    some failed or the budget stopped the run, else 0 (a rerun with nothing left to extract included)."""
    if report.interrupted:
        warning(f"interrupted after {report.extracted + report.failed} chunks extracted or failed: {RESUME}")
        raise typer.Exit(128 + (signum or signal.SIGINT))
    line = failure_line(report, endpoint)
    if line and not report.extracted:
        fail(line)
    if report.skipped_budget:
        line = (f"{line}; " if line else "") + (f"the budget stopped the run: {report.skipped_budget} chunks "
                                                "left for the next ingest (raise --budget-tokens/--budget-cost)")
    if line:
        warning(line)
        raise typer.Exit(EXIT_PARTIAL)


def summary(report) -> str:
    """The run in one line, starting with why it ended."""
    cost = f" (${report.usage.cost:.4f})" if report.usage.cost else ""
    return (f"{STOPPED[report.stopped]}: {report.documents} documents, {report.passages} passages "
            f"({report.passages_new} new); {report.extracted} extracted, {report.failed} failed; {report.facts} "
            f"facts, {report.entities_new} new entities, {report.promoted} schemas promoted, {report.activated} "
            f"facts activated, {report.bridges} similarity edges; {report.conflicts} conflicts "
            f"({report.conflicts_resolved} resolved, {report.conflicts_to_review} to review); "
            f"{report.usage.tokens} tokens{cost}; {report.seconds:.1f}s")


@contextmanager
def _signals(received: list[int]) -> Iterator[None]:
    """SIGTERM ends the run as Ctrl-C does (KeyboardInterrupt: the pipeline stops at once and says where);
    `received` gets the signal's number."""
    def interrupt(signum, frame) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():  # handlers can be set there only
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _price(extractor: str, model: str | None, settings, options: dict, price_input: float | None,
           price_output: float | None):
    """The price of an LLM extractor's model: --price-input/--price-output over the table (llm/prices.py)."""
    from memgraph_neo4j.llm import LangChainChat, price_for

    name = (model or settings.llm_model) if extractor == "openai" else LangChainChat(options["chat_model"]).model
    return price_for(name, price_input, price_output)


def _adjudication_chat(extractor: str, adjudicator: str, model: str | None, base_url: str | None, settings,
                       price_input: float | None, price_output: float | None):
    """The adjudication agents' chat model beside an extractor that has none (offline, openie): the one
    --model/--base-url name, else with --adjudicator model the environment's (OPENAI_API_KEY/OPENAI_BASE_URL)."""
    from memgraph_neo4j.llm.chat import OpenAIChat, chat_from_environment
    from memgraph_neo4j.llm.prices import price_for

    if extractor in ("openai", "langchain") or adjudicator == "rules":
        return None
    name = model or settings.llm_model
    if model or base_url:
        timeout = {"timeout": settings.llm_timeout} if settings.llm_timeout else {}
        return OpenAIChat(model=name, base_url=base_url, price=price_for(name, price_input, price_output), **timeout)
    found = chat_from_environment(name, settings.llm_timeout) if adjudicator == "model" else None
    if found is None and adjudicator == "model":
        fail("--adjudicator model needs a chat model: --extractor openai or langchain, or --model/--base-url "
             "(or set OPENAI_API_KEY or OPENAI_BASE_URL)")
    return found


def _load_object(spec: str):
    module, _, attr = spec.partition(":")
    if not attr:
        fail(f"--chat-model {spec!r}: write it as package.module:object (a langchain-core chat model or a factory)")
    obj = getattr(importlib.import_module(module), attr)
    return obj() if callable(obj) and not hasattr(obj, "invoke") else obj


def _positive(value: float | None) -> float | None:
    if value is not None and not value > 0:
        raise typer.BadParameter(f"{value!r} is not a number of seconds > 0")
    return value


def ingest(
    paths: list[Path] = typer.Argument(..., help="Files or folders (.txt .md .json .jsonl .pdf .docx .html "
                                                 ".htm .mhtml; MuSiQue/HotpotQA corpora)"),
    space: str = typer.Option("default", help="Memory space"),
    extractor: str = typer.Option("offline", help="offline | openai | langchain | openie"),
    openie: Path | None = typer.Option(None, help="HippoRAG OpenIE JSON with pre-extracted triples"),
    ontology: Path | None = typer.Option(None, help="Ontology YAML (default: the bundled ontology.yaml)"),
    model: str | None = typer.Option(None, help="Chat model name (openai extractor; with offline or openie: "
                                                "the adjudication agents', default MEMGRAPH_LLM_MODEL)"),
    base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint (Ollama, vLLM)"),
    chat_model: str | None = typer.Option(None, help="langchain extractor: package.module:object"),
    budget_tokens: int | None = typer.Option(None, help="Stop cleanly once this many tokens are spent"),
    budget_cost: float | None = typer.Option(None, help="Stop cleanly once this cost (USD) is reached: the "
                                             "model's price from the table of well-known models, or the two below"),
    price_input: float | None = typer.Option(None, "--price-input", min=0, help="USD per million prompt tokens "
                                             "(overrides the price table; the report's cost and --budget-cost)"),
    price_output: float | None = typer.Option(None, "--price-output", min=0,
                                              help="USD per million completion tokens (overrides the price table)"),
    llm_timeout: float | None = typer.Option(None, "--llm-timeout", callback=_positive, help="Seconds per "
                                             "chat-model call (default MEMGRAPH_LLM_TIMEOUT, else 60)"),
    llm_retries: int | None = typer.Option(None, "--llm-retries", min=0, help="Retries after a failed chat-model "
                                           "call (default MEMGRAPH_LLM_RETRIES, else 3; adjudication 2)"),
    batch_size: int = typer.Option(64, help="Chunks per extraction batch (promotion runs after each)"),
    adjudicator: str = typer.Option("auto", help="Conflict check after each promotion: auto (the agents of the "
                                    "chat model when there is one: the extractor's, or --model/--base-url beside "
                                    "the offline extractor; else the rules) | rules | model"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Estimate tokens; write and spend nothing"),
    conversation: bool | None = typer.Option(None, "--conversation/--no-conversation", help=chat.CONVERSATION_HELP),
    changing_relation: list[str] = typer.Option([], "--changing-relation", help=chat.CHANGING_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON"),
) -> None:
    """Build the global memory: passages, memory-guided extraction, facts, promotion, bridging."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.ingest.pipeline import IngestInterrupted
    from memgraph_neo4j.memory.lease import LeaseLost, SpaceDeleting
    from memgraph_neo4j.store import StoreError

    for path in paths:
        if not path.exists():
            fail(f"{path}: no such file or folder")
    service = remote.client()
    if service is not None:  # the memory service ingests, with its extractor and settings
        remote.refuse({"--extractor": extractor != "offline" and extractor, "--openie": openie,
                       "--ontology": ontology, "--model": model, "--base-url": base_url, "--chat-model": chat_model,
                       "--budget-tokens": budget_tokens, "--budget-cost": budget_cost, "--price-input": price_input,
                       "--price-output": price_output, "--llm-timeout": llm_timeout, "--llm-retries": llm_retries,
                       "--batch-size": batch_size != 64 and batch_size,
                       "--adjudicator": adjudicator != "auto" and adjudicator, "--dry-run": dry_run,
                       "--changing-relation": changing_relation}, service.url)
        _ingest_remote(service, paths, space, conversation, as_json)
        return
    if openie is not None:
        if not openie.exists():
            fail(f"--openie {openie}: no such file")
        extractor = "openie"
    chats = chat.chat_paths(paths, conversation, dry_run, openie, changing_relation)  # None: documents
    options = {"openie": openie, "model": model, "base_url": base_url, "budget_tokens": budget_tokens,
               "budget_cost": budget_cost}
    if extractor == "langchain":
        if not chat_model:
            fail("--extractor langchain needs --chat-model package.module:object")
        options["chat_model"] = _load_object(chat_model)
    options = {k: v for k, v in options.items() if v is not None}
    received: list[int] = []
    endpoint = None
    try:
        settings = Settings(**{k: v for k, v in (("llm_timeout", llm_timeout), ("llm_retries", llm_retries))
                               if v is not None})
        if extractor in ("openai", "langchain"):
            options["price"] = _price(extractor, model, settings, options, price_input, price_output)
        judge = _adjudication_chat(extractor, adjudicator, model, base_url, settings, price_input, price_output)
        with _signals(received), MemoryGraph(space=space, ontology=ontology, extractor=extractor, settings=settings,
                                             adjudicator=adjudicator, adjudication_chat=judge, **options) as memory:
            if not dry_run:  # no key and no local server: say so now, not once per chunk
                for model_client in (getattr(memory.extractor, "chat", None), judge):
                    getattr(model_client, "client", None)
            # the bar only on a terminal: piped or logged, stderr holds just what went wrong
            if chats is not None:
                report, conversations = chat.ingest_chats(memory, chats, batch_size, changing_relation)
            else:
                report = memory.ingest(paths, batch_size=batch_size, dry_run=dry_run, progress=sys.stderr.isatty())
            endpoint = _endpoint(memory.extractor)
    except IngestInterrupted as stopped:
        report = stopped.report
    except KeyboardInterrupt:  # before the ingest began, or a conversation's (its report is not kept)
        warning(f"interrupted: {RESUME}")
        raise typer.Exit(128 + (received[-1] if received else signal.SIGINT)) from None
    except (StoreError, ValueError, OSError, LeaseLost, SpaceDeleting) as exc:  # OSError: a file unreadable
        fail(str(exc))
    signum = received[-1] if received else None
    _print_report(report, paths, chats, conversations if chats else 0, as_json, dry_run, endpoint, signum)


def _ingest_remote(service, paths: list[Path], space: str, conversation: bool | None, as_json: bool) -> None:
    """`ingest` through the memory service (cli/remote_ingest.py), printed as in process."""
    from memgraph_neo4j.cli import remote_ingest

    chats = chat.chat_paths(paths, conversation, False, None, [])
    received: list[int] = []
    try:
        with _signals(received):
            report, conversations = remote_ingest.ingest(service, space, paths, chats, conversation)
    except KeyboardInterrupt:  # the jobs were cancelled: the batches they committed are kept
        warning(f"interrupted: {RESUME}")
        raise typer.Exit(128 + (received[-1] if received else signal.SIGINT)) from None
    _print_report(report, paths, chats, conversations, as_json, False, None, None)


def _print_report(report, paths: list[Path], chats: list[Path] | None, conversations: int, as_json: bool,
                  dry_run: bool, endpoint: str | None, signum: int | None) -> None:
    """The run's report, and its exit code (_finish)."""
    if report.passages == 0 and not report.interrupted:
        fail(f"no text in {', '.join(str(p) for p in paths)}: the files are empty or hold no records; "
             "nothing was written")
    if as_json:
        typer.echo(chat.conversation_json(report, chats, conversations) if chats else report.model_dump_json(indent=2))
        if not dry_run:
            _finish(report, endpoint, signum)
        return
    if dry_run:
        out.print(f"dry run: {report.passages} passages, ~{report.estimated_tokens} tokens would be spent")
        return
    if chats is not None:
        out.print(chat.conversation_line(chats, conversations, report), highlight=False, soft_wrap=True)
    out.print(summary(report))
    _finish(report, endpoint, signum)


def stats(space: str = typer.Option("default", help="Memory space"),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Counts per label and state, failed chunks, token usage."""
    from memgraph_neo4j.repository.stats import StatsRepository

    data = read_space(space, lambda store: StatsRepository(store, space).memory_stats().model_dump())
    if as_json:
        typer.echo(json.dumps(data, indent=2, default=str))
        return
    table = Table(title=f"memory space {space!r}")
    for col in ("label", "total", "by state"):
        table.add_column(col)
    for label, entry in sorted(data["nodes"].items()):
        states = ", ".join(f"{k}: {v}" for k, v in sorted(entry["by_state"].items()))
        table.add_row(label, str(entry["total"]), states)
    out.print(table)
    out.print("relationships: " + ", ".join(f"{k} {v}" for k, v in data["relationships"].items()))
    usage = data["usage"]
    out.print(f"tokens: {usage['prompt_tokens']} prompt + {usage['completion_tokens']} completion; "
              f"cost {usage['cost']:.4f}")
    if data["failed_chunks"]:
        out.print(f"[red]{len(data['failed_chunks'])} failed chunks[/red] (retried on the next ingest):")
        for row in data["failed_chunks"][:20]:
            out.print(f"  {row['passage_id']} ({row['doc_id']}): {row['error']}", highlight=False)
