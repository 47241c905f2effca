"""The package's layers import only downwards (docs/architecture.md): a lower layer never imports a
higher one, not even lazily inside a function. Parsed from the source, so it holds for every module."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "memgraph_neo4j"

# top-level module or sub-package -> layer; a module may import its own package and lower layers
LAYERS = {
    "versions": 0, "config": 0, "contracts": 0, "validation": 0,
    "store": 1, "embeddings": 1, "llm": 1,
    "server": 2,
    "repository": 3,
    "memory": 4,
    "ingest": 5, "prompts": 5,
    "extractors": 6, "adjudication": 6,
    "retrieval": 7,
    "api": 8,
    "evaluation": 9,
    "mcp": 10,  # the MCP server, on the facade
    "adapters": 10,  # LangChain, LangGraph, neo4j-graphrag and LlamaIndex, on the facade
    "demo": 10,  # the shipped corpus and the demo run (facade, graph health)
    "service": 11,  # `memgraph-neo4j serve`: REST and the MCP server (at /mcp) on one pool of spaces
    "cli": 12,  # `memgraph-neo4j mcp` and `serve` start the servers; the CLI is also the service's client
}


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "memgraph_neo4j" and len(parts) > 1 else None


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return found


def test_every_module_belongs_to_a_layer():
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())}
    assert parts <= set(LAYERS), f"give these a layer: {sorted(parts - set(LAYERS))}"


def test_no_module_imports_a_higher_layer():
    upward = []
    for path in PACKAGE.rglob("*.py"):
        own = _part("memgraph_neo4j." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        for line, module in _imports(path):
            other = _part(module)
            if other and other != own and LAYERS[other] >= LAYERS[own]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
    assert not upward, "\n".join(upward)


def test_the_check_sees_an_upward_import(tmp_path):
    # the parser finds lazy imports inside functions too
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from memgraph_neo4j.api import MemoryGraph\n")
    assert _imports(module) == [(2, "memgraph_neo4j.api")]
