"""The Browser style sheet (cypher/browser/style.grass) as the one-line command the local server has
Neo4j Browser run after every connect (`browser.post_connect_cmd` in neo4j.conf).

Browser splits that setting into commands at every `;` outside quotes, and GraSS ends each declaration
with one, so the sheet travels as `style {json}`: Browser's `:style` reads a JSON object of
selector -> {property: value} as readily as GraSS text, and JSON needs no `;`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from memgraph_neo4j.store.cypher import cypher_root

_RULE = re.compile(r"""([^{}]+?)\s*\{((?:[^{}'"]|'[^']*'|"[^"]*")*)\}""")
_DECLARATION = re.compile(r"""([\w-]+)\s*:\s*('[^']*'|"[^"]*"|[^;]*)""")


def style_sheet() -> Path:
    return cypher_root() / "browser" / "style.grass"


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """GraSS text -> {selector: {property: value}}, quotes taken off values, as Browser parses it.
    Comments are not GraSS: Browser would read them as part of a selector."""
    rules: dict[str, dict[str, str]] = {}
    for selector, body in _RULE.findall(text):
        rules[selector.strip()] = {name: value.strip().strip("'\"")
                                   for name, value in _DECLARATION.findall(body)}
    return rules


def post_connect_command(sheet: Path | None = None) -> str | None:
    """`style {...}` for browser.post_connect_cmd, or None when the installation has no style sheet."""
    path = sheet or style_sheet()
    if not path.is_file():
        return None
    command = "style " + json.dumps(parse_grass(path.read_text()), separators=(",", ":"))
    if ";" in command or "\\" in command or not command.isascii():
        # `;` would split the command; neo4j.conf would read backslashes and non-ASCII differently
        raise ValueError(f"{path}: use ASCII without ';' or '\\' inside values")
    return command
