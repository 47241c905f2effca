"""Every ```python block of README.md works as pasted: it compiles, and every name it uses is imported or
defined in the block itself (a snippet used `LangChainChat` without its import, others a `memory` made
elsewhere). Run for real: tests/integration/test_readme_snippets.py."""

from __future__ import annotations

import pytest
from readme_blocks import blocks, undefined_names

BLOCKS = blocks()


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_a_block_imports_or_defines_every_name_it_uses(block):
    try:
        missing = undefined_names(block.code, block.where)
    except SyntaxError as exc:
        pytest.fail(f"{block.where}: does not compile: {exc}")
    assert missing == [], f"{block.where}: used but never imported or defined in the block: {', '.join(missing)}"


@pytest.mark.parametrize("code, missing", [
    ("answer = memory.ask('x', chat=LangChainChat(model))\n", ["memory (line 1)", "LangChainChat (line 1)",
                                                               "model (line 1)"]),
    ("print(x)\nx = 1\n", ["x (line 1)"]),  # used before it is assigned
    ("import os.path\nfrom a import b as c\nwith open(os.sep) as f:\n    c(f, [y for y in range(3)])\n", []),
    ("def f(a, *rest, k=1):\n    return a, rest, k, f\nfor i, j in []:\n    pass\ntry:\n    f(i, j)\n"
     "except ValueError as exc:\n    raise exc\n", []),
])
def test_the_check_finds_names_without_a_definition(code, missing):
    assert undefined_names(code) == missing


def test_a_block_that_does_not_compile_is_reported():
    with pytest.raises(SyntaxError):
        undefined_names("memory.search('x'\n")
