"""Every ```python block of README.md and of the docs site (docs/**/*.md) works as pasted: it compiles, and
every name it uses is imported or defined in the block itself (a snippet used `LangChainChat` without its
import, others a `memory` made elsewhere). Run for real: tests/integration/test_doc_snippets_run.py. The
README stays a ten-minute read: at most 200 lines, the rest is in docs/."""

from __future__ import annotations

import re

import pytest
from readme_blocks import DOCS, README, blocks, earlier_names, pages, undefined_names

BLOCKS = blocks()
README_MAX_LINES = 200


def test_the_readme_and_the_docs_have_python_blocks():
    assert len(blocks(path=README)) >= 1
    assert len([b for b in BLOCKS if b.path != README]) >= 8  # getting started, guides, concepts, reference


def test_the_readme_is_at_most_200_lines():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move the rest into docs/"


def test_the_docs_pages_are_read():
    read = {p.relative_to(DOCS).as_posix() for p in pages() if p != README}
    assert {"index.md", "getting-started.md", "guides/conversations.md", "troubleshooting.md"} <= read
    assert not any(p.startswith(("hooks/", "generated/")) for p in read)


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_a_block_imports_or_defines_every_name_it_uses(block):
    try:
        missing = undefined_names(block.code, block.where, earlier_names(block))
    except SyntaxError as exc:
        pytest.fail(f"{block.where}: does not compile: {exc}")
    assert missing == [], f"{block.where}: used but never imported or defined in the block: {', '.join(missing)}"


@pytest.mark.parametrize("code, missing", [
    ("answer = memory.ask('x', chat=LangChainChat(model))\n", ["memory (line 1)", "LangChainChat (line 1)",
                                                               "model (line 1)"]),
    ("print(x)\nx = 1\n", ["x (line 1)"]),  # used before it is assigned
    ("print([\n    i\n    for i in range(3)])\n", []),  # a comprehension's element above its `for`
    ("import os.path\nfrom a import b as c\nwith open(os.sep) as f:\n    c(f, [y for y in range(3)])\n", []),
    ("def f(a, *rest, k=1):\n    return a, rest, k, f\nfor i, j in []:\n    pass\ntry:\n    f(i, j)\n"
     "except ValueError as exc:\n    raise exc\n", []),
])
def test_the_check_finds_names_without_a_definition(code, missing):
    assert undefined_names(code) == missing


def test_a_block_that_does_not_compile_is_reported():
    with pytest.raises(SyntaxError):
        undefined_names("memory.search('x'\n")


def test_the_readme_links_resolve():
    """The README's links into docs/ (GitHub shows them as files; the site checks its own with --strict)."""
    text = README.read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) if "://" not in t]
    assert len(targets) >= 10
    missing = [t for t in targets if not (README.parent / t).is_file()]
    assert missing == [], f"README.md links to files that do not exist: {missing}"
