"""The search copies of a space kept on disk, so that a new process starts from them and reads from Neo4j
only what changed since (retrieval/changes.py), not the whole space.

A fresh process on MuSiQue x10 (18.9k passages, 198k vectors) spent ~60 s of its first search reading
the copies (layer vectors 34 s, the PPR graph 21 s, BM25, seed statistics); their pickles load in ~4 s.

One file per (server, database, space) and copy, `<dir>/<key>/<copy>.pickle`, replaced atomically (a
temporary file, then os.replace), so readers see the old file or the new one. Each starts with a header:
the space's epoch (cypher/memory/ensure_epoch: a space deleted and written again has a new one), the
memory version the copy holds, and an identity (the code that built it, the configuration, the vector
dimension). A file is used only when all three fit: its epoch is the space's now, its version is not
above the space's (then the changes since are applied, or the copy is read whole when the feed has none),
and its identity is this process's. Pickles run code when loaded, so a file is loaded only from a
directory and a file owned by this user that nobody else may write or read (created 0700 and 0600).

Restoring a database from a backup brings back an epoch with an older history: delete the directory
(`MEMGRAPH_COPIES_DIR`, default the user cache dir) after a restore.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import pickle
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import memgraph_neo4j
from memgraph_neo4j.config import RetrievalConfig

log = logging.getLogger(__name__)
FORMAT = 1
# the code a copy's content depends on: how it is read (repository, cypher) and held (retrieval)
CODE = ("retrieval", "repository")
CYPHER = ("retrieval",)


@dataclass(frozen=True)
class Held:
    """A copy as a file holds it."""

    version: int
    epoch: str
    payload: Any


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 of the package's retrieval and repository sources and its retrieval Cypher: a file written
    by other code is not loaded (its classes may hold other fields)."""
    package = Path(memgraph_neo4j.__file__).resolve().parent
    from memgraph_neo4j.store.cypher import cypher_root

    files = [p for folder in CODE for p in sorted((package / folder).rglob("*.py"))]
    files += [p for folder in CYPHER for p in sorted((cypher_root() / folder).rglob("*.cypher"))]
    digest = hashlib.sha256(f"{FORMAT} {memgraph_neo4j.__version__}".encode())
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def identity(config: RetrievalConfig, dimension: int) -> str:
    """The code, the configuration (but where the files go) and the vector dimension."""
    chosen = {k: v for k, v in dataclasses.asdict(config).items() if k not in ("copies_dir", "persist_min_build_s")}
    return hashlib.sha256(f"{code_fingerprint()} {dimension} {sorted(chosen.items())!r}".encode()).hexdigest()


def _private(path: Path, kind: int) -> bool:
    """`path` is a `kind` (stat.S_IFDIR / S_IFREG) this user owns and nobody else may write or read."""
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.getuid() and not st.st_mode & 0o077


def space_directory(directory: Path, server: str, space: str) -> Path:
    """The directory of one space's files: named by a hash of server (URI and database) and space."""
    return Path(directory) / hashlib.sha256(f"{server}\0{space}".encode()).hexdigest()[:24]


def forget_space(config: RetrievalConfig, store, space: str) -> None:
    """Delete the files kept for `space` of `store`'s database (`spaces delete`: the space is gone)."""
    if config.copies_dir is not None:
        import shutil

        shutil.rmtree(space_directory(config.copies_dir, f"{store.uri} {store.database}", space),
                      ignore_errors=True)


class CopyFiles:
    """The files of one space's copies (the module doc). `epoch` reads the space's epoch, `ensure_epoch`
    sets one if the space has none (both None: a space never written, whose copies are not kept)."""

    def __init__(self, directory: Path, server: str, space: str, identity: str,
                 epoch: Callable[[], str | None], ensure_epoch: Callable[[], str | None],
                 min_build_s: float = 1.0) -> None:
        self.root, self.directory = Path(directory), space_directory(directory, server, space)
        self.identity, self._epoch, self._ensure_epoch = identity, epoch, ensure_epoch
        self.min_build_s = min_build_s
        self.loads = self.saves = 0  # observable: tests assert what was loaded and written
        self.load_seconds: dict[str, float] = {}  # observable: what each loaded file cost (benchmarks)

    def current_epoch(self) -> str | None:
        """The space's epoch now (None: never written, or it could not be read: nothing is kept then)."""
        try:
            return self._epoch()
        except Exception as error:  # noqa: BLE001 - the search goes on without files
            log.warning("the epoch of %s could not be read, its copies are not kept: %s", self.directory, error)
            return None

    def ensure_epoch(self) -> str | None:
        """Give a space written before epochs one (a write; a read-only user cannot: then nothing is kept)."""
        try:
            return self._ensure_epoch()
        except Exception as error:  # noqa: BLE001
            log.warning("the epoch of %s could not be set, its copies are not kept: %s", self.directory, error)
            return None

    def forget(self) -> None:
        """Delete this space's files (the space was deleted; another epoch would ignore them anyway)."""
        import shutil

        shutil.rmtree(self.directory, ignore_errors=True)

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.pickle"

    def load(self, name: str, version: int) -> Held | None:
        """The copy `name` kept for this space's epoch at a version <= `version`, else None (nothing kept,
        another epoch or identity, a newer version, a file someone else could have written, unreadable)."""
        path = self.path(name)
        if not path.exists():
            return None
        began = time.perf_counter()
        if not (_private(self.directory, stat.S_IFDIR) and _private(path, stat.S_IFREG)):
            log.warning("ignoring %s: not a private file of this user in a private directory (0600, 0700)", path)
            return None
        try:
            with path.open("rb") as f:
                header = pickle.load(f)
                if header.get("identity") != self.identity or header.get("version", version + 1) > version:
                    return None
                epoch = self.current_epoch()
                if epoch is None or header.get("epoch") != epoch:
                    return None
                payload = pickle.load(f)
        except Exception as error:  # noqa: BLE001 - a damaged or foreign file is ignored and written again
            log.warning("ignoring %s: %s", path, error)
            return None
        self.loads += 1
        self.load_seconds[name] = round(time.perf_counter() - began, 3)
        return Held(header["version"], epoch, payload)

    def save(self, name: str, version: int, epoch: str, payload: Any) -> bool:
        """Keep `payload`, the copy `name` at `version` of the space's `epoch` (atomically); False when it
        could not be written (logged: the next process reads the space as if nothing were kept)."""
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.directory.mkdir(mode=0o700, exist_ok=True)  # ours alone: others may not swap the files
            if not _private(self.directory, stat.S_IFDIR):
                raise PermissionError(f"{self.directory} is not a directory of this user alone (0700)")
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=self.directory)  # created 0600
            try:
                with os.fdopen(fd, "wb") as f:
                    header = {"format": FORMAT, "identity": self.identity, "epoch": epoch, "version": version}
                    pickle.dump(header, f, protocol=pickle.HIGHEST_PROTOCOL)
                    pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, self.path(name))
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except Exception as error:  # noqa: BLE001 - a cache that cannot be written is not an error of the search
            log.warning("could not keep the %s copy in %s: %s", name, self.directory, error)
            return False
        self.saves += 1
        return True


def copy_files(config: RetrievalConfig, store, space: str, embedder, repository) -> CopyFiles | None:
    """The files of `space`'s copies under `config.copies_dir` (None: copies are not kept), named by the
    store's server and database; `repository`: the space's ChangeRepository (its epoch)."""
    if config.copies_dir is None:
        return None
    return CopyFiles(config.copies_dir, f"{store.uri} {store.database}", space, identity(config, embedder.dimension),
                     repository.epoch, repository.ensure_epoch, config.persist_min_build_s)
