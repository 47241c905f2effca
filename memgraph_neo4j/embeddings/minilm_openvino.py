"""all-MiniLM-L6-v2 on OpenVINO in bfloat16, for bulk embedding on CPUs with native bf16 (AVX512_BF16, AMX).

The same graph as ONNX Runtime runs (minilm_onnx.build_model over the same prepared weights), with the
weights inlined and read by OpenVINO's ONNX frontend from memory. OpenVINO runs its 24 weight MatMuls
and the attention blocks in bf16 (LayerNorm and the pooling stay fp32). Measured on the 2-core Zen4
(`benchmarks/bench_embed.py`, `benchmarks/results/embed.md`): about 2x the texts/s of ONNX Runtime fp32
on passages, names and facts, and every sentence-transformers reference vector reproduced at cosine
0.99997 (the bar is 0.999). int8 was tried and lost: even one quantised layer's FFN drops the worst
reference cosine to 0.994-0.999.

Off by default: MiniLMEmbedder(bf16_bulk=True) sends every call here, one text or many. A bf16 vector
moves by up to ~2e-3 per component with its batch's padded length (the batch size alone changes nothing),
so MiniLMEmbedder batches only texts of one token length; and CPUs without native bf16 cannot reproduce
these vectors at all (their fp32 ones differ as much), which is why stored vectors are fp32 by default.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from . import minilm_onnx

__all__ = ["BULK_MIN_TEXTS", "OpenVinoMiniLM", "bf16_native"]

# A call this big keeps both streams busy (batches of 16); tests use it as "a bulk call".
BULK_MIN_TEXTS = 32
# Two streams of one thread each, two requests in flight: 5-20 % more than one two-thread stream on
# 2 cores, since the small per-text operations of one batch overlap the other's matmuls.
_STREAMS = 2


@lru_cache(maxsize=1)
def bf16_native() -> bool:
    """True when OpenVINO imports and its CPU plugin lists BF16 (the CPU has AVX512_BF16 or AMX). Without
    native bf16 OpenVINO's fp32 measured only 1.1x ONNX Runtime, not worth a second runtime."""
    if os.environ.get("MEMGRAPH_OPENVINO", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    try:
        import openvino as ov
    except ImportError:
        return False
    try:
        return "BF16" in ov.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    except Exception:  # noqa: BLE001 - no CPU plugin on this platform
        return False


class OpenVinoMiniLM:
    """A compiled bf16 MiniLM; `run_batches([(ids, mask), ...])` -> one (B, D) float32 array per batch,
    mean-pooled and not normalised, like OnnxMiniLM.run."""

    def __init__(self, weights: minilm_onnx.PreparedWeights, streams: int = _STREAMS) -> None:
        import openvino as ov
        from onnx import numpy_helper

        model, buffers = minilm_onnx.build_model(weights)
        for tensor in model.graph.initializer:  # inline the external weights: the frontend reads bytes
            if tensor.name in buffers:
                tensor.CopyFrom(numpy_helper.from_array(buffers[tensor.name], tensor.name))
        core = ov.Core()
        network = core.read_model(io.BytesIO(model.SerializeToString()))
        threads = os.cpu_count() or 1
        config = {"INFERENCE_PRECISION_HINT": "bf16", "PERFORMANCE_HINT": "THROUGHPUT",
                  "NUM_STREAMS": min(streams, threads), "INFERENCE_NUM_THREADS": threads}
        self.compiled = core.compile_model(network, "CPU", config)
        self.precision = self.compiled.get_property("INFERENCE_PRECISION_HINT").get_type_name()  # "bf16"
        self._queue = ov.AsyncInferQueue(self.compiled, min(streams, threads))
        self._lock = threading.Lock()  # one queue: concurrent callers take turns (each uses every core)

    def run_batches(self, batches: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        out: list[np.ndarray | None] = [None] * len(batches)
        failed: list[BaseException] = []

        def done(request, index: int) -> None:
            try:
                out[index] = request.get_output_tensor(0).data.copy()
            except BaseException as exc:  # noqa: BLE001 - raised in the caller below
                failed.append(exc)

        with self._lock:
            self._queue.set_callback(done)
            for index, (ids, mask) in enumerate(batches):
                self._queue.start_async({"input_ids": ids.astype(np.int64, copy=False),
                                         "attention_mask": mask.astype(np.int64)}, userdata=index)
            self._queue.wait_all()
        if failed:
            raise failed[0]
        return out  # type: ignore[return-value]
