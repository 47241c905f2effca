"""Token-window chunking: offsets round-trip, overlap, word boundaries, validation."""

from __future__ import annotations

import pytest

from memgraph_neo4j.ingest.chunking import chunk_text, default_tokenizer

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 10
SAMPLE = " ".join(
    f"Sentence {i}: the Internationalisation committee of {w} met in Zürich, café, naïve résumé."
    for i, w in enumerate(WORDS.split())
)


def n_tokens(text: str) -> int:
    return len(default_tokenizer().encode(text, add_special_tokens=False).ids)


def test_offsets_round_trip_and_overlap() -> None:
    chunks = chunk_text(SAMPLE, tokens=64, overlap=16)
    assert len(chunks) > 5
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert SAMPLE[c.start : c.end] == c.text
        assert c.n_tokens <= 64 and n_tokens(c.text) == c.n_tokens
    for a, b in zip(chunks, chunks[1:]):
        assert a.start < b.start < a.end < b.end
        assert 16 <= n_tokens(SAMPLE[b.start : a.end]) <= 20  # ~overlap, a bit more to start on a word
    assert chunks[0].start == 0 and chunks[-1].end == len(SAMPLE)


def test_default_sizes_and_no_split_words() -> None:
    text = SAMPLE * 3
    chunks = chunk_text(text)
    assert all(c.n_tokens <= 256 for c in chunks) and max(c.n_tokens for c in chunks) >= 250
    for a, b in zip(chunks, chunks[1:]):
        assert 32 <= n_tokens(text[b.start : a.end]) <= 36
    for c in chunks:  # boundaries never fall inside a word
        assert c.start == 0 or not (text[c.start - 1].isalnum() and text[c.start].isalnum())
        assert c.end == len(text) or not (text[c.end - 1].isalnum() and text[c.end].isalnum())


def test_short_and_empty_text() -> None:
    [only] = chunk_text("  Hello, world!  ")
    assert (only.text, only.start, only.end) == ("Hello, world!", 2, 15)
    assert chunk_text("") == [] and chunk_text(" \n\t ") == []


def test_long_text_not_truncated_at_128() -> None:
    # The bundled tokenizer.json truncates to 128 tokens; chunking must see all of it.
    chunks = chunk_text(SAMPLE, tokens=200, overlap=0)
    assert sum(c.n_tokens for c in chunks) == n_tokens(SAMPLE) > 1000


@pytest.mark.parametrize(("tokens", "overlap"), [(32, 32), (32, 40), (0, 0), (16, -1)])
def test_invalid_window(tokens: int, overlap: int) -> None:
    with pytest.raises(ValueError, match="tokens|overlap"):
        chunk_text("some text", tokens=tokens, overlap=overlap)
