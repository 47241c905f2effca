"""One model run per token sequence: a process-wide cache of MiniLM vectors keyed by token ids.

The uncased tokenizer reads "Marie Curie" and "marie curie" as the same ids, so as the same model
input: entity typing embeds a name's normalised key, resolution the name as written. On MuSiQue's
OpenIE names and keys 33,864 texts are 19,248 sequences. Only short sequences are kept (names and
fact texts): a passage rarely repeats, and keeping them would spend memory on misses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["KEPT_TOKENS", "TokenIdCache", "equal_lengths", "pad"]

KEPT_TOKENS = 32  # token ids (with [CLS] and [SEP]) of a sequence kept between calls


class TokenIdCache:
    """Vectors by token-id tuple, up to `capacity` entries of at most KEPT_TOKENS ids."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, ...], np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()

    def embed(self, keys: Sequence[tuple[int, ...]], run: Callable[[list[int]], np.ndarray], dim: int,
              capacity: int) -> np.ndarray:
        """Vectors for `keys` in order; `run(indices)` embeds the rows at those indices (the first of each
        sequence neither kept nor seen earlier in the call), so each distinct sequence runs once."""
        kept = self._kept
        first: dict[tuple[int, ...], int] = {}
        for i, key in enumerate(keys):
            if key not in kept:
                first.setdefault(key, i)
        todo = list(first.values())
        if len(todo) == len(keys):  # all distinct and new: the rows are the output as they are
            out = run(todo)
            found = dict(zip(keys, out))
        else:
            fresh = run(todo) if todo else np.zeros((0, dim), np.float32)
            found = {keys[i]: fresh[n] for n, i in enumerate(todo)}
            out = np.stack([found[k] if k in found else kept[k] for k in keys])
        for key, vector in found.items():
            if len(key) <= KEPT_TOKENS and len(kept) < capacity:
                kept[key] = vector
        return out


def equal_lengths(order: list[int], encs) -> list[list[int]]:
    """`order` cut into runs of texts with the same token length (any order: they are grouped)."""
    groups: dict[int, list[int]] = {}
    for i in order:
        groups.setdefault(len(encs[i].ids), []).append(i)
    return [groups[n] for n in sorted(groups, reverse=True)]


def pad(seqs: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token id lists -> (ids, mask), padded to the batch's own longest."""
    L = max(len(s) for s in seqs)
    ids = np.zeros((len(seqs), L), dtype=np.int64)  # 0 = [PAD]
    mask = np.zeros((len(seqs), L), dtype=bool)
    for r, s in enumerate(seqs):
        ids[r, : len(s)] = s
        mask[r, : len(s)] = True
    return ids, mask
