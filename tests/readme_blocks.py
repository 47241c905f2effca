"""The fenced blocks of README.md and of the docs site's pages (docs/**/*.md), and the names a ```python block
uses without importing or defining them (tests/unit/test_readme_snippets.py checks every block,
tests/integration/test_doc_snippets_run.py runs those that need no model)."""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
NOT_PAGES = ("hooks", "generated")  # docs/ folders that hold no page (mkdocs.yml exclude_docs)
_FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    line: int  # of the first code line in its file
    language: str
    code: str
    path: Path = README

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


def pages() -> list[Path]:
    """README.md, then every page of the docs site, in path order."""
    return [README] + sorted(p for p in DOCS.rglob("*.md") if p.relative_to(DOCS).parts[0] not in NOT_PAGES)


def blocks(language: str | None = "python", path: Path | None = None) -> list[Block]:
    """The fenced blocks of `language` (None: all), in file order, of `path` (None: README.md and the docs)."""
    if path is None:
        return [block for page in pages() for block in blocks(language, page)]
    found, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opened = _FENCE.match(lines[i])
        if opened is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        if language is None or opened.group(1) == language:
            found.append(Block(i + 2, opened.group(1), "\n".join(lines[i + 1:end]) + "\n", path))
        i = end + 1
    return found


def _bound(node: ast.AST) -> list[tuple[str, int]]:
    """(name, line) of what this node binds: imports, assignments, defs, loop and with targets, arguments."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [((a.asname or a.name).split(".")[0], node.lineno) for a in node.names]
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [(node.id, node.lineno)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [(node.name, node.lineno)]
    if isinstance(node, ast.arg):
        return [(node.arg, node.lineno)]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [(node.name, node.lineno)]
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        # a comprehension's targets are bound from its first line on (its element may stand above its `for`)
        return [(n.id, node.lineno) for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)]
    return []


SESSION = "<!-- blocks: one session -->"  # a page whose python blocks run in order in one namespace


def bound_names(code: str) -> set[str]:
    """Every name the code binds anywhere (what a later block of a one-session page may use)."""
    return {name for node in ast.walk(ast.parse(code)) for name, _ in _bound(node)}


def earlier_names(block: Block) -> set[str]:
    """The names bound by the python blocks above `block` on its page, when the page says its blocks run as
    one session (SESSION), else none."""
    if SESSION not in block.path.read_text(encoding="utf-8"):
        return set()
    return {name for b in blocks("python", block.path) if b.line < block.line for name in bound_names(b.code)}


def undefined_names(code: str, filename: str = "<block>", known: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Names loaded but never imported, defined or assigned at or before their line, and not builtins nor
    `known`, as "name (line N)" at their first use, in line order. SyntaxError when the code does not compile."""
    compile(code, filename, "exec")
    tree = ast.parse(code, filename)
    first: dict[str, int] = {}
    for node in ast.walk(tree):
        for name, line in _bound(node):
            first[name] = min(line, first.get(name, line))
    missing: dict[str, int] = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and not hasattr(builtins, node.id)
                and node.id not in known):
            if first.get(node.id, node.lineno + 1) > node.lineno:
                missing[node.id] = min(node.lineno, missing.get(node.id, node.lineno))
    return [f"{name} (line {line})" for name, line in sorted(missing.items(), key=lambda item: item[1])]
