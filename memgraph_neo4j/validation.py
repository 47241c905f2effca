"""Checks of what a caller asks for, in one place for the API, the CLI and the MCP tools (which all go
through `MemoryGraph`): each refuses with one line naming the value and what is allowed."""

from __future__ import annotations

from typing import Any

# Passages (and entities) one search returns at most: far more than any reader uses, and far below the
# LIMIT a statement takes (top_k is multiplied for the candidates fetched; 10^9 overflowed it).
MAX_TOP_K = 10_000


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_top_k(top_k: Any, top_m: Any = 0) -> None:
    if not _count(top_k) or not 1 <= top_k <= MAX_TOP_K:
        raise ValueError(f"top_k must be >= 1 and <= {MAX_TOP_K:,} (passages to return), not {top_k!r}")
    if not _count(top_m) or not 0 <= top_m <= MAX_TOP_K:
        raise ValueError(f"top_m must be >= 0 and <= {MAX_TOP_K:,} (entities to return), not {top_m!r}")


def check_question(question: Any) -> None:
    if not isinstance(question, str):
        raise TypeError(f"the question must be a string, not {type(question).__name__}")
    if not question.strip():
        raise ValueError("the question is empty: give words to search for")


def check_batch_size(batch_size: Any) -> None:
    if not _count(batch_size) or batch_size < 1:
        raise ValueError(f"batch_size must be >= 1 (chunks per extraction batch), not {batch_size!r}")


MAX_SPACE_CHARS = 255
ADJUDICATORS = ("auto", "rules", "model")  # adjudication.adjudication_chat


def check_adjudicator(mode: Any) -> None:
    if mode not in ADJUDICATORS:
        raise ValueError(f"adjudicator {mode!r}: one of {', '.join(ADJUDICATORS)} (auto: the chat model's agents "
                         "when ingest has one, else the offline rules)")


def check_text_or_turns(text: str | None, turns: Any) -> None:
    """One write is one document: exactly one of a text and turns (MCP write_memory, the LangChain tool); an
    empty text is refused."""
    if (text is None) == (not turns):
        raise ValueError("give text or turns, not both: one write is one document" if text is not None
                         else "give text, or turns (a list of {speaker, text, time?})")
    if text is not None and not text.strip():
        raise ValueError("text is empty: nothing to remember")


def check_space(space: Any) -> None:
    """A space name is data in every statement, but also part of projection names: letters, digits, - and _; at
    most MAX_SPACE_CHARS, as it shares every index entry with a key (memory/normalize.MAX_INDEX_KEY_BYTES)."""
    if not isinstance(space, str) or not space or not space.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"space {space!r}: use letters, digits, '-' and '_' only")
    if len(space) > MAX_SPACE_CHARS:
        raise ValueError(f"space name of {len(space):,} characters: at most {MAX_SPACE_CHARS}; choose a shorter name")


# What the Python API tells a caller to do, by remedy; the CLI (cli/output.py) and the MCP server
# (mcp/server.py) word the same remedies as their own commands and tools.
API_REMEDIES = {
    "list_conflicts": "list them with MemoryGraph.conflicts.list()",
    "list_facts": "search() results and conflicts.list() give fact ids",
    "list_documents": "list them with MemoryGraph.documents()",
    "keep": "accept it with keep=FACT_ID (one of {facts})",
    "chat_model": "pass chat=... to search(), or set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)",
}


class SurfaceError(ValueError):
    """A refusal whose remedy is an operation that each surface names its own way: the CLI a command and
    its options, MCP a tool and its arguments, the Python API a method. `problem` is neutral; `remedy`
    keys the wording (API_REMEDIES here, the CLI's and the MCP server's tables); str() is the API's."""

    def __init__(self, problem: str, remedy: str | None = None, **values: Any) -> None:
        self.problem, self.remedy, self.values = problem, remedy, values
        super().__init__(self.worded(API_REMEDIES))

    def worded(self, remedies: dict[str, str]) -> str:
        """The message with the remedy as `remedies` words it (the problem alone if they have none)."""
        template = remedies.get(self.remedy) if self.remedy else None
        return f"{self.problem}: {template.format(**self.values)}" if template else self.problem


def is_loopback(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1 (brackets allowed). Any other host name may resolve to any interface: a
    server listening there (MCP over HTTP, the service) needs a token."""
    import ipaddress

    host = host.strip().removeprefix("[").removesuffix("]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
