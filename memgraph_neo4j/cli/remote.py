"""The CLI as the memory service's client: what the commands share when MEMGRAPH_SERVICE_URL is set."""

from __future__ import annotations

from memgraph_neo4j.service.client import ServiceClient, ServiceError


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
