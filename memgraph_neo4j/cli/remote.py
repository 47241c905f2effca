"""The CLI as the memory service's client: what the commands share when MEMGRAPH_SERVICE_URL is set.

A command asks the service, rebuilds the API's objects from its JSON (pydantic), and prints them with the
code it prints them with in process. An option the service settles for itself (the extractor, the engines,
the chat model) is refused in one line naming it, never ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from memgraph_neo4j.service.client import URL_ENV, ServiceClient, ServiceError

T = TypeVar("T")
# how whoever runs the service chooses what these options choose in process
DECIDED = {"--extractor": "`memgraph-neo4j serve --extractor`", "--ppr-engine": "`memgraph-neo4j serve --ppr-engine`",
           "--layer-search": "`memgraph-neo4j serve --layer-search`", "--model": "its MEMGRAPH_LLM_MODEL",
           "--base-url": "its OPENAI_BASE_URL", "--llm-timeout": "its MEMGRAPH_LLM_TIMEOUT",
           "--llm-retries": "its MEMGRAPH_LLM_RETRIES", "--batch-size": "its ingest's default, 64",
           "--adjudicator": "its chat model if it has one, else the rules", "--ontology": "the bundled one"}

def client() -> ServiceClient | None:
    """The service's client when MEMGRAPH_SERVICE_URL is set (the command then works through it), else None."""
    return ServiceClient.from_environment()


def refusal_text(exc: ServiceError) -> str:
    """The service's refusal in this CLI's words: a SurfaceError's remedy as a command (cli/output.REMEDIES)."""
    found = exc.surface()
    if found is None:
        return exc.detail
    from memgraph_neo4j.cli.output import REMEDIES
    from memgraph_neo4j.validation import SurfaceError

    problem, remedy, values = found
    try:
        return SurfaceError(problem, remedy, **values).worded(REMEDIES)
    except (KeyError, IndexError, ValueError):  # a remedy whose values this CLI version words otherwise
        return exc.detail


def print_refusal(exc: ServiceError) -> None:
    from memgraph_neo4j.cli.output import error

    error(refusal_text(exc))


def fail_with(exc: ServiceError) -> None:
    """End the command as in process: the one-line error, exit code 1."""
    import typer

    print_refusal(exc)
    raise typer.Exit(1)


def refuse(given: dict[str, Any], url: str) -> None:
    """End the command when an option the service decides, or does not take, was given (`given`: option ->
    value, None or False when not given), in one line naming it and how it is chosen there."""
    from memgraph_neo4j.cli.output import fail

    for option, value in given.items():
        if value not in (None, False, (), []):
            how = DECIDED.get(option)
            why = f"the service decides it ({how})" if how else "the service does not take it"
            fail(f"{option}: not taken through the memory service at {url}: {why}; unset {URL_ENV} to give it "
                 "in process")

def call(request: Callable[[], T]) -> T:
    """The service's answer; its refusal ends the command as in process (one line, exit code 1)."""
    try:
        return request()
    except ServiceError as exc:
        fail_with(exc)
        raise  # unreachable: fail_with exits


def space_names(service: ServiceClient) -> list[str] | None:
    """The spaces the service sees (None when it cannot list them: the error is about a space)."""
    try:
        return [s["name"] for s in service.request("GET", "/v1/spaces")]
    except ServiceError:
        return None


def spaces(service: ServiceClient) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in call(lambda: service.request("GET", "/v1/spaces"))}


def missing_space(service: ServiceClient, space: str) -> str:
    """cli/output.missing_space, with the spaces of the service's database."""
    from memgraph_neo4j.cli.output import missing_space as worded

    return worded(space, space_names(service))


def fail_unless_exists(service: ServiceClient, space: str, exc: ServiceError | None = None) -> None:
    """As a command in process checks first: a space that holds nothing ends it with cli/output.missing_space
    (asked only once the service refused, or found nothing); else `exc`, the service's refusal, ends it."""
    from memgraph_neo4j.cli.output import fail

    names = space_names(service)
    if names is not None and space not in names:
        from memgraph_neo4j.cli.output import missing_space as worded

        fail(worded(space, names))
    if exc is not None:
        fail_with(exc)
