"""Token-window chunking with exact character offsets into the source text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer

__all__ = ["Chunk", "chunk_text", "default_tokenizer", "default_tokenizer_path"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One passage; ``source_text[start:end] == text``."""

    index: int
    text: str
    start: int
    end: int
    n_tokens: int


def default_tokenizer_path() -> Path:
    """``tokenizer.json`` of the offline all-MiniLM-L6-v2 (see embeddings/model_files.py)."""
    from memgraph_neo4j.embeddings.model_files import minilm_dir

    path = minilm_dir() / "tokenizer.json"
    if not path.is_file():
        raise FileNotFoundError(f"tokenizer.json not found in the MiniLM model folder: {path}")
    return path


@lru_cache(maxsize=1)
def default_tokenizer() -> Tokenizer:
    return _untruncated(Tokenizer.from_file(str(default_tokenizer_path())))


def _untruncated(tokenizer: Tokenizer) -> Tokenizer:
    # The MiniLM file truncates/pads to 128 tokens, which would silently drop text.
    if tokenizer.truncation is None and tokenizer.padding is None:
        return tokenizer
    tokenizer = Tokenizer.from_str(tokenizer.to_str())  # copy: never mutate the caller's object
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def chunk_text(text: str, tokens: int = 256, overlap: int = 32, tokenizer: Tokenizer | None = None) -> list[Chunk]:
    """Split ``text`` into windows of ``tokens`` word-pieces, consecutive windows sharing ~``overlap``.

    Window edges are moved back to word starts so words are not cut in half (unless a single
    word is longer than the window). Whitespace-only text gives no chunk.
    """
    if tokens < 1:
        raise ValueError(f"tokens must be >= 1, got {tokens}")
    if not 0 <= overlap < tokens:
        raise ValueError(f"overlap must be >= 0 and smaller than tokens ({tokens}), got {overlap}")
    if not text or text.isspace():
        return []
    tok = default_tokenizer() if tokenizer is None else _untruncated(tokenizer)
    enc = tok.encode(text, add_special_tokens=False)
    # Each Encoding property access builds a new Python list: read them once.
    pieces = [(o, w) for o, w, sp in zip(enc.offsets, enc.word_ids, enc.special_tokens_mask) if not sp]
    offsets = [o for o, _ in pieces]
    words = [w for _, w in pieces]
    n = len(offsets)
    if n == 0:
        return []

    def word_start(i: int, floor: int) -> int:
        """Move token index i back to the first piece of its word, but not to/below floor."""
        j = i
        while j > floor + 1 and words[j - 1] == words[j]:
            j -= 1
        return j if words[j - 1] != words[j] else i  # a word longer than the window is cut

    chunks: list[Chunk] = []
    s = 0
    while True:
        e = min(s + tokens, n)
        if e < n:
            e = word_start(e, s)  # end before the word that straddles the window edge
        start, end = offsets[s][0], offsets[e - 1][1]
        chunks.append(Chunk(index=len(chunks), text=text[start:end], start=start, end=end, n_tokens=e - s))
        if e >= n:
            return chunks
        nxt = max(e - overlap, s + 1)
        s = word_start(nxt, s) if nxt < e else nxt  # start the next window on a word start
