"""Loads Cypher statements from `cypher/**/*.cypher` by name ("schema/passage_id" ...).

Every statement the program runs lives in a file you can paste into Neo4j Browser; Python only
passes parameters. Installed wheels carry the folder as `memgraph_neo4j/_cypher`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def cypher_root() -> Path:
    for candidate in (_PACKAGE / "_cypher", _PACKAGE.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no cypher/ folder next to {_PACKAGE}; the installation is incomplete")


class CypherLibrary:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root else cypher_root()

    @lru_cache(maxsize=None)  # noqa: B019 - one library per process, statements are immutable
    def get(self, name: str) -> str:
        path = (self.root / f"{name}.cypher").resolve()
        if self.root.resolve() not in path.parents or not path.is_file():
            raise KeyError(f"no Cypher statement named {name!r} (looked for {path})")
        text = path.read_text().strip()
        return text[:-1] if text.endswith(";") else text

    def names(self, folder: str) -> list[str]:
        """Statement names in one folder, sorted (files are prefixed 01_, 02_ where order matters)."""
        return sorted(f"{folder}/{p.stem}" for p in (self.root / folder).glob("*.cypher"))


@lru_cache(maxsize=1)
def default_library() -> CypherLibrary:
    return CypherLibrary()
