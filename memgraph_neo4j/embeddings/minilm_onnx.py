"""all-MiniLM-L6-v2 on ONNX Runtime: the same forward pass as the numpy one in minilm.py, as a graph.

The graph is built here from the verified safetensors weights (after the same preparation: fused
QKV, 1/sqrt(d_head) folded into Q, token type 0 folded into positions), so there is no second model
file to download or trust. The weights stay in their numpy arrays: the graph names them as external
initialisers and the session is handed those buffers (no 90 MB protobuf copy; building takes ~0.1 s).
ONNX Runtime pre-packs the matmul weights once and runs them with its own kernels: a query embeds ~3x
faster than with numpy/OpenBLAS, which packs them again on every call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

__all__ = ["OnnxMiniLM", "PreparedWeights", "available", "build_model", "external_weights"]


@dataclass
class PreparedWeights:
    word: np.ndarray  # (vocab, D)
    pos: np.ndarray  # (max_positions, D), token type 0 added
    emb_ln: tuple[np.ndarray, np.ndarray]
    layers: list[dict[str, np.ndarray]]  # keys as in MiniLMEmbedder._load_weights
    heads: int
    eps: float


def available() -> bool:
    """True when onnxruntime imports and onnx is installed (they are dependencies, but wheels exist not
    everywhere). onnx is only found, not imported (~80 ms): a cached graph (model_cache.py) never needs it."""
    import importlib.util

    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return importlib.util.find_spec("onnx") is not None


def external_weights(w: PreparedWeights) -> dict[str, np.ndarray]:
    """The graph's external initialisers by name (the names `build_model` gives them)."""
    out = {"pos": w.pos, "word": w.word, "emb_ln_w": w.emb_ln[0], "emb_ln_b": w.emb_ln[1]}
    for n, lw in enumerate(w.layers):
        out.update({f"l{n}_{key}": value for key, value in lw.items()})
    return out


class _Graph:
    """Tiny builder: nodes, small constants in the graph, weights as external initialisers."""

    def __init__(self) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes: list = []
        self.initializers: list = []
        self.weights: dict[str, np.ndarray] = {}  # external initialisers: name -> the buffer to hand over
        self._n = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, name: str, value: np.ndarray) -> str:
        """A float32 weight whose data stays outside the graph (see OnnxMiniLM)."""
        from onnx import TensorProto

        value = np.ascontiguousarray(value, dtype=np.float32)
        tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=value.shape,
                             data_location=TensorProto.EXTERNAL)
        for key, text in (("location", "weights"), ("offset", "0"), ("length", str(value.nbytes))):
            tensor.external_data.add(key=key, value=text)
        self.initializers.append(tensor)
        self.weights[name] = value
        return name

    def op(self, op_type: str, *inputs: str, out: str | None = None, **attrs) -> str:
        self._n += 1
        name = out or f"{op_type.lower()}_{self._n}"
        self.nodes.append(self.helper.make_node(op_type, list(inputs), [name], **attrs))
        return name


def build_model(w: PreparedWeights):
    """ONNX model: input_ids, attention_mask (int64, B x L) -> embedding (float32, B x D), mean-pooled
    over the mask and not normalised, exactly like MiniLMEmbedder._forward. Returns (model, weights):
    the weights are the external initialisers' buffers by name."""
    from onnx import TensorProto, helper

    D = w.word.shape[1]
    H, dh = w.heads, D // w.heads
    g = _Graph()
    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    f32 = lambda v: np.array(v, dtype=np.float32)  # noqa: E731
    axis0, axis1 = g.const("axis0", i64(0)), g.const("axis1", i64(1))
    ln = lambda x, wt, b: g.op("LayerNormalization", x, wt, b, axis=-1, epsilon=w.eps)  # noqa: E731

    length = g.op("Shape", "input_ids", start=1, end=2)
    pos = g.op("Slice", g.weight("pos", w.pos), g.const("zero", i64(0)), length, axis0)
    x = g.op("Add", g.op("Gather", g.weight("word", w.word), "input_ids"), pos)
    x = ln(x, g.weight("emb_ln_w", w.emb_ln[0]), g.weight("emb_ln_b", w.emb_ln[1]))
    # padded keys get a -1e9 bias: exactly zero attention weight, so batching never changes a vector
    mask = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)
    keep = g.op("Sub", g.const("one", f32(1.0)), mask)
    bias = g.op("Unsqueeze", g.op("Mul", keep, g.const("big_negative", f32(-1e9))), g.const("axes12", i64(1, 2)))
    split_heads, merge_heads = g.const("split_heads", i64(0, 0, 3, H, dh)), g.const("merge_heads", i64(0, 0, D))
    for n, lw in enumerate(w.layers):
        c = lambda key: g.weight(f"l{n}_{key}", lw[key])  # noqa: B023, E731
        qkv = g.op("Add", g.op("MatMul", x, c("qkv_w")), c("qkv_b"))
        qkv = g.op("Transpose", g.op("Reshape", qkv, split_heads), perm=[2, 0, 3, 1, 4])  # (3, B, H, L, dh)
        q, k, v = (g.op("Squeeze", g.op("Gather", qkv, g.const(f"l{n}_pick{j}", i64(j)), axis=0), axis0)
                   for j in range(3))
        scores = g.op("Add", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])), bias)
        ctx = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        ctx = g.op("Reshape", g.op("Transpose", ctx, perm=[0, 2, 1, 3]), merge_heads)
        a = g.op("Add", g.op("Add", g.op("MatMul", ctx, c("o_w")), c("o_b")), x)
        a = ln(a, c("ln1_w"), c("ln1_b"))
        h = g.op("Gelu", g.op("Add", g.op("MatMul", a, c("i_w")), c("i_b")))  # exact (erf) GELU
        x = ln(g.op("Add", g.op("Add", g.op("MatMul", h, c("out_w")), c("out_b")), a), c("ln2_w"), c("ln2_b"))
    # sentence-transformers Pooling: sum(h * mask) / clamp(sum(mask), min=1e-9)
    m3 = g.op("Unsqueeze", mask, g.const("axis2", i64(2)))
    total = g.op("ReduceSum", g.op("Mul", x, m3), axis1, keepdims=0)
    count = g.op("Max", g.op("ReduceSum", m3, axis1, keepdims=0), g.const("tiny", f32(1e-9)))
    g.op("Div", total, count, out="embedding")

    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "length"])
         for name in ("input_ids", "attention_mask")],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", D])],
        g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])  # 20: Gelu
    model.ir_version = 9  # readable by onnxruntime >= 1.16
    return model, g.weights


class OnnxMiniLM:
    """An ONNX Runtime session over the prepared weights; `run(ids, mask)` -> (B, D) float32.
    `graph`: the serialised graph of an earlier `self.graph` (built now when None)."""

    def __init__(self, weights: PreparedWeights, threads: int | None = None, graph: bytes | None = None) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # Idle worker threads sleep instead of spinning: the Neo4j server usually shares the cores
        # and runs the vector search right after the embedding.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only
        if graph is None:
            model, self._weights = build_model(weights)  # the session reads these buffers: keep them alive
            graph = model.SerializeToString()
        else:
            self._weights = external_weights(weights)
        self.graph = graph
        # the session reads the buffers these values wrap without a copy: keep both alive with it
        self._values = [ort.OrtValue.ortvalue_from_numpy(a) for a in self._weights.values()]
        options.add_external_initializers(list(self._weights), self._values)
        self.session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids.astype(np.int64, copy=False), "attention_mask": mask.astype(np.int64)}
        return self.session.run(["embedding"], feeds)[0]
