"""Names the PPR projection of a space for one memory version and configuration, builds it when
missing, and drops the space's projections of older versions.

The name is `mg_<space>_v<version>_p<pending weight>_t<type weight>[_a0]`: what goes into the
graph is in the name, so retrievers with other settings keep their own projections instead of
rebuilding each other's.
"""

from __future__ import annotations

import re
import threading

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.layers import MemoryState
from memgraph_neo4j.repository.projections import projection_spec
from memgraph_neo4j.retrieval.ppr import PprEngine


def error_text(error: BaseException) -> str:
    """The messages of an error and of the errors behind it: the driver can raise a ResultFailedError
    ("the result has failed") whose cause holds the server's message. One failed a search in the 8-thread
    search-during-ingest test once, under a load average of 6-9; whether GDS's race was behind it is not
    known, but a race message must be found wherever the driver puts it."""
    texts, seen = [], set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        texts.append(str(error))
        error = error.__cause__ or error.__context__
    return " | ".join(texts)


def space_prefix(space: str) -> str:
    """What every projection name of `space` starts with (all versions and configurations)."""
    return f"mg_{space}_v"


def space_graphs(space: str) -> str:
    """A regular expression for the names of every projection of `space` (admin/drop_space_graphs)."""
    return re.escape(space_prefix(space)) + r"\d+_p.*"


class Projections:
    def __init__(self, engine: PprEngine, space: str, config: RetrievalConfig) -> None:
        self.engine, self.space = engine, space
        self.spec = projection_spec(config)
        self.prefix = space_prefix(space)
        verdicts = "" if config.adjudication else "_a0"
        self.suffix = (f"_p{self.spec.pending_weight:g}_t{self.spec.type_weight:g}"
                       f"_c{self.spec.co_occurrence_weight:g}{verdicts}")
        # ours: this space's projections of any version ("mg_a_v" is also a prefix of space "a_v2"'s)
        self._ours = re.compile(re.escape(self.prefix) + r"(\d+)_p.*")
        self.builds = 0  # observable: tests assert reuse and rebuild
        # threads of one MemoryGraph that see a new version at once build its projection once
        self._lock = threading.Lock()
        self._built: set[str] = set()  # built here since the last version seen (the state may list it late)

    def name(self, version: int) -> str:
        return f"{self.prefix}{version}{self.suffix}"

    def _drop_stale(self, graph: str) -> None:
        """Drop an older version's projection; another process dropping it at the same moment is fine
        (GDS then answers "does not exist", or fails inside its catalog with "removed" is null)."""
        try:
            self.engine.drop(graph)
        except Exception as error:  # noqa: BLE001 - GDS names these races only in its message
            if "does not exist" not in error_text(error) and '"removed" is null' not in error_text(error):
                raise

    def ensure(self, state: MemoryState) -> str:
        """The projection of the memory's current version, built if missing. Projections of older
        versions are dropped; other configurations of this version are kept."""
        name = self.name(state.version)
        with self._lock:
            if name in self._built or self.engine.projection_exists(name, state.graphs):
                return name
            for graph in self.engine.graphs(self.prefix, state.graphs):
                match = self._ours.fullmatch(graph)
                if match and int(match.group(1)) != state.version:
                    self._drop_stale(graph)
            try:
                self.engine.project(name, self.spec)
            except Exception as error:  # noqa: BLE001 - GDS names the race only in its message
                if "already exists" not in error_text(error) and "already loaded" not in error_text(error):
                    raise
                # another process built the same version between our look and our build: same graph
            else:
                self.builds += 1
            self._built = {name}
            return name
