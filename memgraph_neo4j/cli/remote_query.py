"""`memgraph-neo4j query` as the memory service's client (MEMGRAPH_SERVICE_URL set), in the standard library
alone: no typer, rich, pydantic or driver is imported, so a one-shot query costs Python's start and one
request. It prints what the in-process command prints (query_cmd.query), piped or on a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys

from memgraph_neo4j.service.client import ServiceClient, ServiceError

BOLD, RESET = "\x1b[1m", "\x1b[0m"
# the options of query_cmd.query; the engines are the service's to choose
ENGINE_OPTIONS = ("--ppr-engine", "--layer-search")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # a usage problem: the full command reports it, as without a service
        raise ValueError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="memgraph-neo4j query", add_help=False)
    parser.add_argument("text")
    parser.add_argument("--space", default="default")
    parser.add_argument("--method", default="memgraphrag")
    parser.add_argument("--mode", default=None)
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--as-of", default=None)
    parser.add_argument("--json", action="store_true", dest="as_json")
    return parser


def can_handle(argv: list[str]) -> bool:
    """Whether this lean path takes these arguments; anything else (--help, an engine option, a typo) goes to
    the full command, which says the same through the service or explains the option."""
    if any(a in ("--help", "-h") or a.split("=")[0] in ENGINE_OPTIONS for a in argv):
        return False
    try:
        _parse(argv)
    except ValueError:
        return False
    return True


def _parse(argv: list[str]) -> argparse.Namespace:
    return _parser().parse_args(argv)


def run(argv: list[str], client: ServiceClient) -> int:
    args = _parse(argv)
    options = {"method": args.method, "top_k": args.top_k, "as_of": args.as_of, "mode": args.mode}
    try:
        result = client.search(args.space, args.text, **{k: v for k, v in options.items() if v is not None})
    except ServiceError as exc:
        from memgraph_neo4j.cli.remote import print_refusal

        print_refusal(exc)
        return 1
    labels = result.pop("labels", [])
    if args.as_json:
        sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        return 0
    bold = sys.stdout.isatty()
    for i, (hit, label) in enumerate(zip(result["passages"], labels, strict=False), 1):
        head = f"{i}. {label}"
        print(f"{BOLD}{head}{RESET}" if bold else head, f" score {hit['score']:.4f}  ({hit['id']})", sep=" ")
        print((hit.get("text") or "")[:300])
    if result.get("facts"):
        print("seed facts: " + "; ".join(f"{f['text']} ({f['score']:.2f})" for f in result["facts"]))
    if result.get("entities"):
        print("top entities: " + ", ".join(e.get("name") or e["id"] for e in result["entities"]))
    timings = ", ".join(f"{k} {v}" for k, v in result.get("timings_ms", {}).items())
    print("timings (ms): " + timings + (" [dense fallback]" if result.get("fallback") else ""))
    return 0
