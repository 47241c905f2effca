"""The Cypher reference: every statement under cypher/, by folder, with its leading comment (what it does and
why) and, folded, the statement itself (the program loads it by name: store/cypher.py)."""

from __future__ import annotations

from pathlib import Path

INTRO = """\
Every statement the program runs lives in its own file under `cypher/<folder>/<name>.cypher` and is loaded
by name (`memgraph_neo4j/store/cypher.py`); Python passes parameters only, never text pasted into Cypher.
Each file can be pasted into Neo4j Browser: set its parameters first (`:params {space: "demo"}`; a file
meant for Browser has that line in its header). Generated at every build from the files themselves.
"""


def leading_comment(text: str) -> tuple[str, str]:
    """The `//` lines a file starts with, as one paragraph, and the statement after them."""
    lines, i = text.strip().splitlines(), 0
    while i < len(lines) and lines[i].lstrip().startswith("//"):
        i += 1
    comment = " ".join(line.lstrip()[2:].strip() for line in lines[:i])
    return comment, "\n".join(lines[i:]).strip()


def markdown(root: Path) -> str:
    out = ["# Cypher statements", INTRO]
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    out.append("Folders: " + ", ".join(f"[`{f.name}/`](#{f.name}) ({len(list(f.glob('*.cypher')))})"
                                       for f in folders) + ".")
    for folder in folders:
        out.append(f"## {folder.name}")
        for path in sorted(folder.glob("*.cypher")):
            comment, statement = leading_comment(path.read_text(encoding="utf-8"))
            out.append(f"### `{folder.name}/{path.stem}`")
            if comment:
                out.append(comment.replace("<", "&lt;"))
            body = "\n".join(f"    {line}" if line else "" for line in statement.splitlines())
            out.append(f'??? abstract "The statement"\n    ```cypher\n{body}\n    ```')
        others = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix != ".cypher")
        if others:
            out.append("Also in this folder: " + ", ".join(f"`{name}`" for name in others) +
                       " (see [Neo4j Browser](../guides/browser.md)).")
    return "\n\n".join(out) + "\n"
